// Package orders is the runtime of the orders-based parallelizing
// technology (seed 004) for Go programs: it owns how a program's marked
// procedures become orders and how they run, in three modes chosen at run
// time.
//
// A marked procedure is declared once with Proc (Proc2, Proc3 for more
// arguments; Recursive for one that makes orders of itself, without an
// init function). Calling it through Make makes an order and returns a Handle
// at once; the caller goes on and waits only at its first Get, and only
// if the result is not ready; Ready makes a handle of a value one has.
// Inside an order, Ctx.Block marks a block with a cost estimate f(α) and
// two implementations: the real one and a quick alternative that only
// shapes the data the rest of the program needs (Compute when the block
// yields a value).
//
//   - Run executes the orders in parallel on Workers local workers, each
//     standing for a computer of one core: an order waiting in Get frees
//     its worker and later resumes on the same one (or, unless Pin, on a
//     free one when its own is busy), ahead of orders that never started.
//     Each worker runs orders from queues of its own and takes others'
//     when it has none, with no lock the workers share (sched). It
//     measures the makespan.
//   - Calibrate (stage 2) runs the program's tests once untimed, then at
//     least Reps times and until every block's median is stable, and
//     times every block with its real implementation: one calibration row
//     (orders/calibration) per timed block; with Contention, also copies
//     of the tests at once; and it times the runtime's own cost per order
//     and per wait (OrderBlock, WaitBlock).
//   - Record (stage 3) runs the program once, sequentially, with the quick
//     alternatives, prices every block at c(f)·f(α) from a calibration
//     file and measures the rest of each order's own time, its own work
//     excluded; it writes the order trace (orders/tracefile) that
//     sim/ordersim plays on a cluster, in seconds or in units of a
//     reference algorithm's time (Config.Unit), with the runtime's costs
//     and the program's slowdown by orders at once in its header.
//
// Main runs a program in the mode of its Config, which AddFlags fills from
// -orders.* flags (MainContext under a context; Run for a main procedure
// of any number of arguments, called with Call, Call2 or Call3). A procedure returns its
// result and an error; the first order that fails, by an error or a
// panic, cancels the run, and Get and Main return its *OrderError (the
// order, its procedure, and its error or *PanicError with the stack); a
// misuse of blocks is a *MisuseError, a cycle of handles a
// *DeadlockError. Arguments and results are sized for the trace by
// SizeOf.
//
// Run mode also runs the orders in worker processes, on this computer
// or others (Config.Procs, Listen and Join, Slurm, Cluster), and
// ModeNetwork times their network: this package's coordinator places
// the orders and keeps their results, and a Transport joins it to its
// workers. A program opts in by importing the module's transport,
//
//	import _ "github.com/presage-dvm/presage/orders/cluster"
//
// which registers it (NATS, Slurm, the run's token and TLS); a program
// that does not links nothing of the network, and a run that asks for
// worker processes fails at once, saying what to import. The package
// links no package of the simulator either: the trace's format is
// orders/tracefile's, the placement rules orders/ordersched's.
package orders
