package orders

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/presage-dvm/presage/orders/calibration"
	"github.com/presage-dvm/presage/orders/measured"
	"github.com/presage-dvm/presage/orders/tracefile"
)

// Summary says what Main did.
type Summary struct {
	Mode    Mode
	Workers int           // Run
	Elapsed time.Duration // the wall time of the mode's work: in Run, the makespan
	Orders  int64         // Run, Record: orders made
	Rows    int           // Calibrate: calibration rows written
	// Work is the sum of the recorded orders' durations (Record): the
	// predicted run time on one worker.
	Work    float64
	Machine string // Calibrate, Record: the calibration's machine
	// Measured is what Run measured (written to Config.Out when set):
	// the makespan and every worker's busy, waiting and idle time.
	Measured *measured.Execution
	// Network is what Network mode measured.
	Network *NetworkFit
}

// Main runs the program whose main procedure is p on arg in cfg's mode
// and returns p's result (the zero value in Calibrate, which runs
// cfg.Tests instead). The first order that fails ends Main with its
// *OrderError, which names the order and its procedure and wraps the
// error the procedure returned, its *PanicError (the panic value and the
// stack), or a *MisuseError when the order used the runtime wrongly (a
// block in a block, Make or Get in a block, a block the calibration does
// not price, in checking mode memory shared with another order). In run
// mode, orders that all wait for each other's results (a cycle of
// handles) end Main with a *DeadlockError naming every wait.
func Main[A, R any](cfg Config, p *Procedure1[A, R], arg A) (R, *Summary, error) {
	return MainContext(context.Background(), cfg, p, arg)
}

// MainContext is Main under ctx: when ctx is cancelled or its deadline
// passes, Main returns at once with ctx's error, and the orders still
// running end at their next Make, Get or Block (Ctx.Context tells them
// sooner). The first order that fails cancels the run the same way.
func MainContext[A, R any](ctx context.Context, cfg Config, p *Procedure1[A, R], arg A) (R, *Summary, error) {
	return Run(ctx, cfg, Call(p, arg))
}

// Program is a procedure of any number of arguments called on them: the
// main order of Run.
type Program[R any] struct {
	name string
	fn   func(*Ctx) (R, error)
	args func() ([]byte, error) // encoded, for a run in worker processes
}

// Call is p called on a, for Run.
func Call[A, R any](p *Procedure1[A, R], a A) Program[R] {
	return Program[R]{p.name, func(c *Ctx) (R, error) { return p.fn(c, a) }, func() ([]byte, error) { return encode1(a) }}
}

// Call2 is p called on a and b, for Run.
func Call2[A, B, R any](p *Procedure2[A, B, R], a A, b B) Program[R] {
	return Program[R]{p.name, func(c *Ctx) (R, error) { return p.fn(c, a, b) }, func() ([]byte, error) { return encode2(a, b) }}
}

// Call3 is p called on a, b and d, for Run.
func Call3[A, B, C, R any](p *Procedure3[A, B, C, R], a A, b B, d C) Program[R] {
	return Program[R]{p.name, func(c *Ctx) (R, error) { return p.fn(c, a, b, d) }, func() ([]byte, error) { return encode3(a, b, d) }}
}

// Run is MainContext for a procedure of any number of arguments (Call,
// Call2, Call3).
func Run[R any](ctx context.Context, cfg Config, prog Program[R]) (R, *Summary, error) {
	var result R
	body := func(c *Ctx) (int64, error) {
		r, err := prog.fn(c)
		result = r
		return sizeOf(r), err
	}
	var rep *Summary
	var err error
	switch mode := cfg.mode(); {
	case (mode == ModeRun || mode == ModeNetwork) && cfg.inProcesses():
		result, rep, err = runDistributed(ctx, cfg, prog)
	case mode == ModeNetwork:
		err = errors.New("orders: network mode times the network of worker processes: it needs -orders.procs, -orders.listen or -orders.slurm")
	case mode == ModeRun:
		rep, err = runMain(ctx, cfg, prog.name, body)
	case mode == ModeRecord:
		rep, err = recordMain(ctx, cfg, prog.name, body, prog.args)
	case mode == ModeCalibrate:
		rep, err = calibrateMain(ctx, cfg)
	default:
		err = fmt.Errorf("orders: unknown mode %q (expected run, calibrate, record or network)", cfg.Mode)
	}
	if err != nil {
		// Run may return before the main order ends: its result is not
		// to be read then.
		var zero R
		return zero, rep, err
	}
	return result, rep, err
}

// runDistributed runs prog in worker processes (Config.Procs, Slurm)
// through the registered Transport, or serves as one of them: a worker
// process ends when the run does, and never returns from Run.
func runDistributed[R any](ctx context.Context, cfg Config, prog Program[R]) (R, *Summary, error) {
	var zero R
	t, err := registered(cfg)
	if err != nil {
		return zero, nil, err
	}
	// Before a worker joins: the run may begin as soon as it has.
	hugeHeap(cfg.hugePagesMB())
	if err := serveIfWorker(ctx, t, cfg); err != nil {
		return zero, nil, err
	}
	if cfg.mode() == ModeNetwork {
		rep, err := calibrateNetwork(ctx, t, cfg)
		return zero, rep, err
	}
	args, err := prog.args()
	if err != nil {
		return zero, nil, err
	}
	b, rep, err := runCluster(ctx, t, cfg, prog.name, args)
	if err != nil {
		return zero, rep, err
	}
	r, err := decode1[R](b)
	return r, rep, err
}

func runMain(ctx context.Context, cfg Config, name string, body func(*Ctx) (int64, error)) (*Summary, error) {
	r := newRunMode(ctx, cfg)
	defer r.cancel()
	r.make(nil, orderSpec{name: name, body: bodyFunc(body)})
	select {
	case <-r.sched.done:
	case <-r.ctx.Done(): // cancelled, or an order failed: the others end on their own
	}
	end := time.Now()
	start := r.sched.start
	rep := &Summary{Mode: ModeRun, Workers: cfg.workers(), Elapsed: end.Sub(start), Orders: r.made()}
	if err := r.err(ctx); err != nil {
		return rep, err
	}
	rep.Measured = &measured.Execution{Program: cmp.Or(cfg.Program, name), Machine: cfg.machine(), Scheduler: string(cfg.scheduler()),
		Migrate: !cfg.Pin, Started: start.UTC(), Orders: r.made(), Makespan: end.Sub(start).Seconds(), Workers: r.sched.measure(end)}
	if !r.schedule {
		return rep, nil // the measurement is written only when asked for
	}
	rep.Measured.Schedule = r.schedules()
	out, closeOut, err := cfg.output()
	if err != nil {
		return rep, err
	}
	return rep, errors.Join(measured.Write(out, rep.Measured), closeOut())
}

// recordMain records the run of body, the main order of procedure name;
// args encodes its arguments, for Config.Codec.
func recordMain(ctx context.Context, cfg Config, name string, body func(*Ctx) (int64, error), args func() ([]byte, error)) (*Summary, error) {
	prices, machine, err := cfg.constants()
	if err != nil {
		return nil, err
	}
	unit, perSecond, err := cfg.unit(prices)
	if err != nil {
		return nil, err
	}
	sp := &spill{}
	defer sp.close()
	m := &recordMode{prices: prices, unit: perSecond, spill: sp, blocks: map[string]float64{}}
	m.start(ctx, cfg.Check)
	defer m.cancel()
	main := orderSpec{name: name, body: bodyFunc(body)}
	if m.codec = cfg.Codec; m.codec {
		if err := travelProblems(); err != nil {
			return nil, err
		}
		hugeHeap(cfg.hugePagesMB())
		// By the coordinator, before the run: main only decodes them,
		// once they have crossed to its worker, which the trace says.
		enc, err := args()
		main.encode = func() ([]byte, error) { return enc, err }
		main.argBytes = int64(len(enc))
	}
	start := time.Now()
	m.make(nil, main)
	elapsed := time.Since(start)
	if err := m.err(ctx); err != nil {
		return nil, err
	}
	rep := &Summary{Mode: ModeRecord, Elapsed: elapsed, Orders: sp.count(), Machine: machine, Work: m.work}
	program := cmp.Or(cfg.Program, name)
	h := tracefile.Header{Program: program, Unit: unit, Machine: machine,
		Orders: sp.count(), Created: time.Now().UTC().Format(time.RFC3339)}
	h.OrderCost, h.WaitCost = runtimeCosts(prices, perSecond)
	h.Slowdown = m.slowdown()
	return rep, writeTrace(cfg, h, sp)
}

// runtimeCosts returns the runtime's costs per order and per wait in the
// trace's unit, 0 for those the calibration did not time (a file made
// before they were).
func runtimeCosts(prices calibration.Constants, perSecond float64) (order, wait float64) {
	order, _ = prices.Price(OrderBlock, 1)
	wait, _ = prices.Price(WaitBlock, 1)
	return order * perSecond, wait * perSecond
}

// writeTrace writes the order trace of the recorded orders to cfg's
// output. It checks nothing: the runtime records orders that keep the
// rules of docs/orders.md by construction, ingest checks every trace it
// reads (sim/ordertrace's Reader), and this package's tests read what
// record mode writes through that Reader.
func writeTrace(cfg Config, h tracefile.Header, orders *spill) error {
	out, closeOut, err := cfg.output()
	if err != nil {
		return err
	}
	head, err := tracefile.AppendHeader(nil, h)
	if err != nil {
		return errors.Join(err, closeOut())
	}
	bw := bufio.NewWriterSize(out, 64<<10)
	bw.Write(head) // its error sticks in bw, for Flush
	if err := orders.writeTo(bw); err != nil {
		return errors.Join(err, closeOut())
	}
	return errors.Join(bw.Flush(), closeOut())
}

func calibrateMain(ctx context.Context, cfg Config) (*Summary, error) {
	if len(cfg.Tests) == 0 {
		return nil, errors.New("orders: calibrate mode needs tests (Config.Tests) that run every block")
	}
	if out, ok := os.LookupEnv(calibrationOutEnv); ok {
		calibrateAsChild(ctx, cfg, out) // ends the process
	}
	start := time.Now()
	var rows []calibration.Row
	var err error
	if cfg.Calibrations > 1 {
		rows, err = calibrateApart(ctx, cfg.Calibrations)
	} else {
		rows, err = calibrate(ctx, cfg)
	}
	if err != nil {
		return nil, err
	}
	elapsed := time.Since(start)
	out, closeOut, err := cfg.output()
	if err != nil {
		return nil, err
	}
	if err := writeRows(out, rows); err != nil {
		return nil, errors.Join(err, closeOut())
	}
	rep := &Summary{Mode: ModeCalibrate, Elapsed: elapsed, Rows: len(rows), Machine: cfg.machine()}
	return rep, closeOut()
}
