package orders

import (
	"flag"
	"fmt"
	"io"
	"os"
	goruntime "runtime"
	"strings"

	"github.com/presage-dvm/presage/orders/calibration"
	"github.com/presage-dvm/presage/orders/ordersched"
)

// Mode is what Main does with a program.
type Mode string

// The modes (see the package documentation).
const (
	ModeRun       Mode = "run"
	ModeCalibrate Mode = "calibrate"
	ModeRecord    Mode = "record"
	// ModeNetwork times transfers between the coordinator's worker
	// processes (Procs, Listen, Slurm) and writes the network they make
	// for the simulator to Out, as a cluster description file
	// (NetworkFit).
	ModeNetwork Mode = "network"
)

// Config chooses the mode and its settings; AddFlags fills it from flags.
type Config struct {
	Mode    Mode   // "" means Run
	Program string // the program's name in the trace header
	Workers int    // Run: local workers; 0 means GOMAXPROCS
	// Scheduler is the rule that places orders on workers in Run, one of
	// orders/ordersched's, which sim/ordersim follows too; "" means
	// ordersched.Default.
	Scheduler ordersched.Name
	// Seed seeds WorkStealing's choice of victims (ordersim.Options.Seed).
	Seed uint64
	// Pin makes an order resume only on the worker it started on, waiting
	// for it when it is busy (Run; ordersim.Options.Pin predicts it). By
	// default it resumes on any free worker then: pinned, the tasks of a
	// DAG pile up on whichever worker was free when they suspended.
	Pin bool
	// Check makes sure that arguments and results go by value, as between
	// computers: an order that writes memory another order shares fails
	// with a *MisuseError (see fingerprint). It costs a pass over every
	// argument and result; tests of programs should set it.
	Check bool
	// Codec, in Record, counts in the orders' own time what a run in
	// worker processes spends encoding and decoding: a maker encodes the
	// arguments of the orders it makes, an order decodes its arguments
	// and encodes its result, a requester decodes the result (once per
	// handle). The trace then predicts runs in worker processes
	// (Config.Procs), where gob takes tens of milliseconds a megabyte of
	// numbers, rather than runs in one process. The recording's heap is
	// then a worker process's, in huge pages (HugePages).
	Codec bool
	Reps  int // Calibrate: repetitions of every test at least, on each CPU; 0 means 5
	// MaxReps is the most repetitions Calibrate runs on each CPU while a
	// block's median is not known within Precision; 0 means 4×Reps.
	MaxReps int
	// Precision is the relative half-width of the 95% confidence
	// interval of every block's median that ends Calibrate's
	// repetitions; 0 means 0.02.
	Precision float64
	// Contention makes Calibrate also time copies of the tests running
	// at once on 2, 4, … up to GOMAXPROCS cores, for the blocks'
	// slowdown when they share a machine (calibration.Stat.Slowdown).
	// The tests' functions must then be safe to run at once.
	Contention bool
	// Calibrations makes Calibrate calibrate in that many processes of
	// their own, one after the other, and write the rows of them all: the
	// processes are copies of this program, started with its arguments,
	// and each calibrates as Calibrate does in one process, so that what
	// is fixed for a process's life (its pages, its thread's vCPU) weighs
	// a K-th of each block's median. 0 or 1 calibrates in this process.
	Calibrations int
	// Machine names the machine in calibration rows, and in Record the
	// machine whose constants price the blocks; "" means hostname/GOARCH
	// in Calibrate and, in Record, the only machine of the file.
	Machine string
	// Calibration is the calibration file Record prices blocks from,
	// unless Constants is set.
	Calibration string
	Constants   calibration.Constants
	// Unit is the trace's unit of time in Record: "s" (the default) or
	// "ref", units of the reference algorithm's time on the
	// calibration's machine (its RefBlock rows), so that a trace
	// carries to machines whose power is given relative to it.
	Unit string
	// Out is the file Calibrate writes its rows to, Record its trace and
	// Run its measurement (package orders/measured) to, unless Output is
	// set; "-" means standard output, and so does "" except in Run, which
	// then writes no measurement.
	Out    string
	Output io.Writer
	Tests  []TestCase // what Calibrate runs

	// The settings of a run in worker processes, which needs a
	// Transport: the program imports orders/cluster (see Transport).
	//
	// Procs runs the orders in that many worker processes (Run): copies
	// of this program, started here, or started elsewhere and joining at
	// Listen. Each is a node of the cluster the simulator predicts, with
	// Cores cores (default 1); the scheduler places orders on the cores,
	// and an order waiting in Get resumes on its own node.
	Procs int
	Cores int
	// Ahead is how many orders the coordinator starts on a busy core of a
	// worker process beyond the one it runs: each waits in its worker
	// process and starts the moment the core frees, rather than after
	// the core's end reaches the coordinator and its start comes back.
	// 0 means the default: DefaultAhead at first, and one more on a core
	// each time its order ends before the start given ahead to it has
	// reached its process (orders shorter than the round trip), up to
	// MaxAhead. A positive number is that many throughout, a negative
	// number none. The simulator predicts it (sim/ordersim's
	// Cluster.Ahead and AheadMax).
	Ahead int
	// HugePages is how many MB of heap each worker process, the
	// coordinator of a run in worker processes, and a recording with
	// Codec, which times what those processes spend, ask the system to back
	// with transparent huge pages, at its start (hugeHeap): the values
	// that cross processes then land in memory mapped 2 MB at a fault
	// rather than 4 KB. 0 means 1024, a negative number none; it takes
	// address space, not memory (a quarter of the memory at most), and
	// does nothing where the system gives no transparent huge pages.
	HugePages int
	// Cluster is a cluster description file (sim/machine.ReadCluster,
	// as ModeNetwork writes one): in Run, its nodes are the worker
	// processes and its cores theirs, where Procs and Cores are 0. The
	// simulator plays traces on the same file (presage orders simulate
	// --cluster).
	Cluster string
	// Listen is where the coordinator waits for Procs workers started
	// elsewhere ("host:port"); Join is, in such a worker, the
	// coordinator's address.
	Listen string
	Join   string
	// Slurm runs under srun -n N: task 0 coordinates, the N-1 others are
	// its workers, and the coordinator's address comes from Slurm's
	// environment.
	Slurm bool
	// TokenFile holds the run's token, the secret without which the
	// coordinator refuses a connection (a file of mode 0600); "" means
	// $PRESAGE_ORDERS_TOKEN (orders/cluster.TokenEnv). Workers the coordinator starts
	// get a fresh token in their environment; with Listen and no token
	// given, the coordinator makes one and prints it; under Slurm one
	// must be given.
	TokenFile string
	// TLSCert and TLSKey are the coordinator's certificate and key: its
	// server then takes TLS connections only. TLSCA is the certificate
	// of the authority that signed it, against which workers check it
	// (default: the system's authorities).
	TLSCert, TLSKey, TLSCA string
}

// TestCase is a test of the program that runs its blocks, for
// calibration: Run is called as an order.
type TestCase struct {
	Name string
	Run  func(*Ctx) error
}

// Test returns a test case: run runs blocks, directly or through orders;
// an error it returns fails the calibration.
func Test(name string, run func(*Ctx) error) TestCase { return TestCase{Name: name, Run: run} }

// AddFlags defines the -orders.* flags on fs, writing into c, whose
// values are the defaults.
func (c *Config) AddFlags(fs *flag.FlagSet) {
	fs.Func("orders.mode", "run, calibrate, record, or network (time the network of -orders.procs) (default run)", func(s string) error {
		switch m := Mode(s); m {
		case ModeRun, ModeCalibrate, ModeRecord, ModeNetwork:
			c.Mode = m
			return nil
		}
		return fmt.Errorf("unknown mode %q (expected run, calibrate, record or network)", s)
	})
	fs.IntVar(&c.Workers, "orders.workers", c.Workers, "run: local workers (0: GOMAXPROCS)")
	fs.Func("orders.scheduler", "run: placement of orders on workers: "+ordersched.List()+" (default "+string(ordersched.Default)+")", func(s string) error {
		n, err := ordersched.Parse(s)
		c.Scheduler = n
		return err
	})
	fs.Uint64Var(&c.Seed, "orders.seed", c.Seed, "run: seed of work-stealing's choice of victims")
	fs.IntVar(&c.Ahead, "orders.ahead", c.Ahead, "run: orders started ahead on each busy core of a worker process (-orders.procs), which start there the moment it frees (0: 2, up to 16 on a core whose orders end before the next start reaches it; -1: none)")
	fs.BoolVar(&c.Pin, "orders.pin", c.Pin, "run: resume a waiting order only on the worker it started on (by default on any free worker when its own is busy)")
	fs.BoolVar(&c.Check, "orders.check", c.Check, "check that arguments and results go by value: an order writing memory another order shares fails")
	fs.IntVar(&c.Reps, "orders.reps", c.Reps, "calibrate: repetitions of every test at least, on each CPU (0: 5)")
	fs.IntVar(&c.MaxReps, "orders.max-reps", c.MaxReps, "calibrate: most repetitions on each CPU while a block's median is not stable (0: 4×reps)")
	fs.Float64Var(&c.Precision, "orders.precision", c.Precision, "calibrate: relative half-width of the 95% interval of each block's median that is stable (0: 0.02)")
	fs.IntVar(&c.Calibrations, "orders.calibrations", c.Calibrations, "calibrate: calibrate in N processes of their own, copies of this program started one after the other, and keep the rows of them all (0: in this one)")
	fs.BoolVar(&c.Contention, "orders.contention", c.Contention, "calibrate: also time copies of the tests at once on 2, 4, … cores (the tests must be safe to run at once)")
	fs.StringVar(&c.Machine, "orders.machine", c.Machine, "machine name of the calibration")
	fs.StringVar(&c.Calibration, "orders.calibration", c.Calibration, "record: calibration file pricing the blocks")
	fs.BoolVar(&c.Codec, "orders.codec", c.Codec, "record: count the time to encode and decode arguments and results in the orders' own time, as a run in worker processes spends it (a trace for -orders.procs clusters)")
	fs.StringVar(&c.Unit, "orders.unit", c.Unit, "record: the trace's unit of time, s or ref")
	fs.IntVar(&c.Procs, "orders.procs", c.Procs, "run: run the orders in N worker processes, copies of this program started here (or joining at -orders.listen)")
	fs.IntVar(&c.Cores, "orders.cores", c.Cores, "run: orders each worker process runs at once (default 1)")
	fs.IntVar(&c.HugePages, "orders.hugepages", c.HugePages, "run, and record with -orders.codec: MB of heap each worker process, the coordinator and the recording back with transparent huge pages, for the values crossing processes (0: 1024; -1: none)")
	fs.StringVar(&c.Cluster, "orders.cluster", c.Cluster, "run: cluster description file (as network mode writes): its nodes are the worker processes and its cores theirs, unless -orders.procs or -orders.cores say otherwise")
	fs.StringVar(&c.Listen, "orders.listen", c.Listen, "run: host:port where the coordinator waits for its -orders.procs workers started elsewhere")
	fs.StringVar(&c.Join, "orders.join", c.Join, "run: be a worker of the coordinator at host:port")
	fs.BoolVar(&c.Slurm, "orders.slurm", c.Slurm, "run under srun -n N: task 0 coordinates, the others are its workers")
	fs.StringVar(&c.TokenFile, "orders.token-file", c.TokenFile, "run: file (mode 0600) holding the run's token, which workers must show the coordinator (default $PRESAGE_ORDERS_TOKEN)")
	fs.StringVar(&c.TLSCert, "orders.tls-cert", c.TLSCert, "run: the coordinator's TLS certificate (PEM): its workers connect over TLS")
	fs.StringVar(&c.TLSKey, "orders.tls-key", c.TLSKey, "run: the key of -orders.tls-cert (PEM)")
	fs.StringVar(&c.TLSCA, "orders.tls-ca", c.TLSCA, "run: the certificate (PEM) of the authority that signed -orders.tls-cert, which workers check it against (default: the system's)")
	fs.StringVar(&c.Out, "orders.out", c.Out, "calibrate: calibration file; record: trace file (default standard output); run: measured-run file (default none)")
}

func (c Config) mode() Mode {
	if c.Mode == "" {
		return ModeRun
	}
	return c.Mode
}

func (c Config) workers() int {
	if c.Workers <= 0 {
		return goruntime.GOMAXPROCS(0)
	}
	return c.Workers
}

// hugePagesMB is HugePages with its default: 0 means 1024 MB, a
// negative number none.
func (c Config) hugePagesMB() int {
	switch {
	case c.HugePages < 0:
		return 0
	case c.HugePages == 0:
		return 1024
	}
	return c.HugePages
}

func (c Config) scheduler() ordersched.Name {
	if c.Scheduler == "" {
		return ordersched.Default
	}
	return c.Scheduler
}

func (c Config) reps() int {
	if c.Reps <= 0 {
		return 5
	}
	return c.Reps
}

func (c Config) maxReps() int {
	if c.MaxReps <= 0 {
		return 4 * c.reps()
	}
	return max(c.MaxReps, c.reps())
}

func (c Config) precision() float64 {
	if c.Precision <= 0 {
		return calibration.DefaultPrecision
	}
	return c.Precision
}

// machine is the calibration's machine name.
func (c Config) machine() string {
	if c.Machine != "" {
		return c.Machine
	}
	host, err := os.Hostname()
	if err != nil {
		host = "unknown"
	}
	return host + "/" + goruntime.GOARCH
}

// unit returns the trace's unit and how many of it make a second.
func (c Config) unit(prices calibration.Constants) (string, float64, error) {
	switch c.Unit {
	case "", "s":
		return "s", 1, nil
	case "ref":
		ref, ok := prices.Price(RefBlock, 1)
		if !ok || !(ref > 0) {
			return "", 0, fmt.Errorf("orders: unit ref needs the reference's time (rows of block %q in the calibration)", RefBlock)
		}
		return "ref", 1 / ref, nil
	}
	return "", 0, fmt.Errorf("orders: unknown unit %q (expected s or ref)", c.Unit)
}

// output opens where Calibrate and Record write; close flushes it.
func (c Config) output() (w io.Writer, close func() error, err error) {
	if c.Output != nil {
		return c.Output, func() error { return nil }, nil
	}
	if c.Out == "" || c.Out == "-" {
		return os.Stdout, func() error { return nil }, nil
	}
	f, err := os.Create(c.Out)
	if err != nil {
		return nil, nil, err
	}
	return f, f.Close, nil
}

// constants returns the prices of the blocks for Record.
func (c Config) constants() (calibration.Constants, string, error) {
	if c.Constants != nil {
		return c.Constants, c.Machine, nil
	}
	if c.Calibration == "" {
		return nil, "", fmt.Errorf("orders: record mode needs a calibration file (-orders.calibration)")
	}
	f, err := os.Open(c.Calibration)
	if err != nil {
		return nil, "", err
	}
	defer f.Close()
	rows, err := calibration.ReadAll(f, c.Calibration)
	if err != nil {
		return nil, "", err
	}
	return ConstantsFor(rows, c.Machine, c.Calibration)
}

// ConstantsFor returns the constants of machine in rows, or of the only
// machine there when machine is ""; name is used in errors.
func ConstantsFor(rows []calibration.Row, machine, name string) (calibration.Constants, string, error) {
	stats := calibration.Analyze(rows, calibration.DefaultThresholds)
	machines := map[string]bool{}
	for _, s := range stats {
		machines[s.Machine] = true
	}
	if machine == "" {
		if len(machines) != 1 {
			return nil, "", fmt.Errorf("%s: %d machines (expected one, or -orders.machine to choose)", name, len(machines))
		}
		for m := range machines {
			machine = m
		}
	}
	if !machines[machine] {
		var have []string
		for m := range machines {
			have = append(have, m)
		}
		return nil, "", fmt.Errorf("%s: no rows of machine %q (it has %s)", name, machine, strings.Join(have, ", "))
	}
	return calibration.ConstantsOf(stats, machine), machine, nil
}

// DefaultAhead and MaxAhead are Config.Ahead's default: two orders
// started ahead of each busy core at first, as many as 16 on a core
// whose orders end before the next start reaches it. An order of 20 µs
// costs 83–99 µs of makespan so on 2 worker processes of one machine,
// 146–158 µs with 2 throughout, 187–205 µs with none
// (docs/performance.md, "A depth that grows"); more than needed only
// moves orders back and forth around each resume.
const (
	DefaultAhead = 2
	MaxAhead     = 16
)

// ahead is how many orders are started ahead of each busy core at
// first, and how many it may come to: as many with a fixed Ahead.
func (c Config) ahead() (first, most int) {
	switch {
	case c.Ahead == 0:
		return DefaultAhead, MaxAhead
	case c.Ahead < 0:
		return 0, 0
	}
	return c.Ahead, c.Ahead
}
