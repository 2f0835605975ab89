package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/presage-dvm/presage/exports/ordersreport"
	"github.com/presage-dvm/presage/internal/stage"
	"github.com/presage-dvm/presage/orders/calibration"
	"github.com/presage-dvm/presage/sim/machine"
	"github.com/presage-dvm/presage/sim/ordersim"
	"github.com/presage-dvm/presage/sim/sweep"
)

type ordersCmd struct {
	Simulate    ordersSimulateCmd    `cmd:"" help:"Play a stored order trace on a cluster: run time, every node's load, the critical path."`
	Sweep       ordersSweepCmd       `cmd:"" help:"Play a stored order trace on clusters of many sizes; with --deadline, find the smallest and the cheapest that meet it; with --budget, the fastest within it."`
	Report      ordersReportCmd      `cmd:"" help:"HTML report of an orders simulation: timeline, node loads, critical path, speedup against cluster size."`
	Calibration ordersCalibrationCmd `cmd:"" help:"HTML report of a stored calibration: T and c = T/f against f per block, flagged blocks."`
}

type ordersCalibrationCmd struct {
	Calibration string `help:"Stored calibration (name or id)." required:""`
	Out         string `help:"Output file (default: NAME.calibration.html); an existing one is replaced only if it is a Presage HTML report, or with --force." type:"path"`
	outputFlags
}

func (c *ordersCalibrationCmd) Run(ctx context.Context, g *Globals) error {
	st, err := g.readStore()
	if err != nil {
		return err
	}
	defer st.Close()
	info, rows, err := st.Calibration(c.Calibration)
	if err != nil {
		return err
	}
	in := &ordersreport.CalibrationInput{Name: info.Name, Rows: rows, Stats: calibration.Analyze(rows, calibration.DefaultThresholds)}
	out := htmlTarget(c.Out, info.Name+".calibration.html")
	if err := g.outputs(c.Force).WriteFile(ctx, out, func(w io.Writer) error { return ordersreport.WriteCalibration(w, in) }); err != nil {
		return err
	}
	g.adviseBlocks(info.Name, in.Stats)
	g.infof("report of calibration %s written to %s", info.Name, out.Path)
	return nil
}

type ordersReportCmd struct {
	runRef
	Deadline float64 `help:"Mark the clusters of the run's sweep whose run time meets this many seconds."`
	Out      string  `help:"Output file (default: PROGRAM.orders.NODES.html); an existing one is replaced only if it is a Presage HTML report, or with --force." type:"path"`
	outputFlags
}

func (c *ordersReportCmd) Validate() error { return checkFlags(seconds("--deadline", c.Deadline)) }

// maxReportEvents bounds the orders' schedules the report draws.
const maxReportEvents = 200000

func (c *ordersReportCmd) Run(ctx context.Context, g *Globals) error {
	st, err := g.readStore()
	if err != nil {
		return err
	}
	defer st.Close()
	id, err := st.ResolveRun(c.runRef.Run)
	if err != nil {
		return err
	}
	sim, err := st.OrderSimulation(ctx, id, maxReportEvents)
	if err != nil {
		return err
	}
	in := &ordersreport.Input{Sim: sim, Deadline: c.Deadline}
	if sim.Run.SweepID != 0 {
		if in.Sweep, err = st.OrderSweepRuns(ctx, sim.Run.SweepID); err != nil {
			return err
		}
	}
	out := htmlTarget(c.Out, fmt.Sprintf("%s.orders.%d.html", sim.Run.Program, sim.Detail.Nodes))
	if err := g.outputs(c.Force).WriteFile(ctx, out, func(w io.Writer) error { return ordersreport.Write(w, in) }); err != nil {
		return err
	}
	g.infof("report of run %d written to %s", id, out.Path)
	return nil
}

// clusterFlags describe the cluster an order trace is played on.
type clusterFlags struct {
	Cluster   string  `help:"Cluster description file (run mode's -orders.mode network writes one; docs/orders.md): the cluster's cores, power and network, measured message times included, in place of --cores, --power, --latency and --bandwidth." placeholder:"FILE"`
	Cores     int     `help:"Orders a node runs at once." default:"1"`
	Power     float64 `help:"Relative power of every node (work takes time/power)." default:"1"`
	Latency   float64 `help:"Seconds per message between two nodes." default:"0"`
	Bandwidth float64 `help:"Bytes per second between two nodes (0: unlimited)." default:"0"`
	Scheduler string  `help:"Placement of orders: ${schedulers}." enum:"${scheduler_enum}" default:"${scheduler_default}"`
	Seed      uint64  `help:"Seed of work stealing's choice of victims." default:"1"`
	Pin       bool    `help:"Resume an order whose result arrived only on the node it started on (as run mode's -orders.pin); by default it resumes on any free node when its own is busy."`
}

// cluster returns the cluster of the flags, of nodes nodes (0: the
// --cluster file's, else 1).
func (f clusterFlags) cluster(nodes int) (ordersim.Cluster, error) {
	if f.Cluster == "" {
		return ordersim.Cluster{Nodes: max(nodes, 1), Cores: f.Cores, Power: []float64{f.Power}, Latency: f.Latency, Bandwidth: f.Bandwidth}, nil
	}
	if f.Cores != 1 || f.Power != 1 || f.Latency != 0 || f.Bandwidth != 0 {
		return ordersim.Cluster{}, fmt.Errorf("--cluster %s and --cores, --power, --latency or --bandwidth: the file describes the cluster (expected one or the other)", f.Cluster)
	}
	cl, err := machine.ReadClusterFile(f.Cluster)
	if err != nil {
		return ordersim.Cluster{}, fmt.Errorf("--cluster: %w", err)
	}
	if nodes > 0 {
		cl.Nodes = nodes
	}
	return ordersim.Cluster(cl), nil
}

func (f clusterFlags) options() ordersim.Options {
	return ordersim.Options{Scheduler: ordersim.Scheduler(f.Scheduler), Seed: f.Seed, Pin: f.Pin}
}

func (f clusterFlags) rules() []flagRule {
	return []flagRule{atLeast("--cores", f.Cores, 1), positive("--power", f.Power), inRange("--power", f.Power, machine.PowerRange, 1, machine.PowerRange.Unit),
		seconds("--latency", f.Latency), inRange("--latency", f.Latency, machine.TStartRange, 1, "seconds"),
		{"--bandwidth", f.Bandwidth, f.Bandwidth == 0 || f.Bandwidth >= 1/machine.TByteRange.Max && !math.IsInf(f.Bandwidth, 0),
			fmt.Sprintf("a finite number of bytes per second ≥ %v (0: unlimited)", 1/machine.TByteRange.Max)}}
}

type ordersSimulateCmd struct {
	Orders string `help:"Stored order trace (name or id)." required:""`
	Nodes  int    `help:"Nodes of the cluster (default: the --cluster file's, else 1)."`
	clusterFlags
	MaxEvents int64 `name:"max-events" help:"Store every order's schedule when the trace has at most this many orders." default:"100000"`
}

func (c *ordersSimulateCmd) Validate() error {
	return checkFlags(append(c.rules(), atLeast("--nodes", c.Nodes, 0), flagRule{"--max-events", c.MaxEvents, c.MaxEvents >= 0, "0 or more"})...)
}

func (c *ordersSimulateCmd) Run(ctx context.Context, g *Globals) error {
	st, err := g.existingStore()
	if err != nil {
		return err
	}
	defer st.Close()
	collectOften()
	cl, err := c.cluster(c.Nodes)
	if err != nil {
		return err
	}
	update, finish := g.countProgress("simulate "+c.Orders, counted{things: "orders", uneven: true})
	sim, err := stage.SimulateOrders(ctx, st, stage.OrdersRequest{Trace: c.Orders, Cluster: cl,
		Options: c.options(), MaxEvents: c.MaxEvents, Progress: update})
	finish()
	if err != nil {
		return err
	}
	d := sim.Detail
	fmt.Printf("run %d: %s on %d nodes (%s): makespan %.6g s, speedup %.3g (work/span bounds %.3g..%.3g), efficiency %.3f\n",
		sim.Run.ID, sim.Run.Program, d.Nodes, d.Scheduler, d.Makespan, d.Speedup, d.SpeedupLo, d.SpeedupHi,
		sim.Run.Intervals[0].Values[0])
	fmt.Printf("work %.6g s, span %.6g s, burdened span %.6g s, parallelism %.4g\n", d.Work, d.Span, d.BurdenedSpan, d.Parallelism)
	w := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "node\torders\tbusy (s)\tidle (s)\twaiting (s)\ttransfer (s)\t")
	for _, n := range sim.Nodes[:min(len(sim.Nodes), 16)] {
		fmt.Fprintf(w, "%d\t%d\t%.6g\t%.6g\t%.6g\t%.6g\t\n", n.Node, n.Orders, n.Busy, n.Idle, n.Waiting, n.Transfer)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if len(sim.Nodes) > 16 {
		fmt.Printf("(%d more nodes: presage query or export)\n", len(sim.Nodes)-16)
	}
	return nil
}

// collectOften has the collector run at 10% of heap growth rather than
// 100%, unless GOGC says otherwise. The orders simulator's and the
// analysis's heaps are mostly pointer-free arenas, which the collector
// marks for nothing, so collecting sooner costs little and gives memory
// back before fresh pages are taken: a sweep's finished simulation's
// before the next one's, ingest's first pass's before its analysis's;
// and the heap goes less far past what is live (docs/orders-sim.md,
// "The collector at 10%"). The commands call it once their store is
// open: opening it allocates in small steps, which the collector so
// often followed with cycles of their own (a fifth of a small trace's
// simulation).
//
// A soft memory limit instead (debug.SetMemoryLimit of --max-memory, Go's
// GOGC of 100) does not keep that: the limit, far above what a million
// orders hold, never binds, and `orders sweep --nodes 1..64:*2` of a
// million-order divide and conquer then peaks at 671 MiB against 548 MiB
// here, for no less CPU time (docs/performance.md, "The collector at
// 10%").
func collectOften() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(10)
	}
}

type ordersSweepCmd struct {
	Orders   string  `help:"Stored order trace (name or id)." required:""`
	Nodes    string  `help:"Node counts: list 1,2,4, range 1..64, step 1..1024:8 or geometric 1..1024:*2." required:""`
	Deadline float64 `help:"Find the smallest cluster of min..max of --nodes nodes (listed or not) whose run time is at most this many seconds, and the cheapest (least node-seconds) of the clusters simulated that meets it."`
	Budget   float64 `help:"Find the fastest of the clusters simulated whose cost (nodes × run time, node-seconds) is at most this many node-seconds." placeholder:"NODE_SECONDS"`
	clusterFlags
	PerProcMax int    `name:"per-proc-max" help:"Write the per-node values of runs of at most this many nodes (0: always)." default:"64"`
	Workers    int    `help:"Clusters simulated at once (default: all cores)."`
	Shard      string `help:"Run shard I/N of the node counts (position mod N = I), e.g. 3/16."`
}

func (c *ordersSweepCmd) Validate() error {
	return checkFlags(append(c.rules(), seconds("--deadline", c.Deadline), nodeSeconds("--budget", c.Budget), atLeast("--per-proc-max", c.PerProcMax, 0),
		atLeast("--workers", c.Workers, 0))...)
}

func (c *ordersSweepCmd) Run(ctx context.Context, g *Globals) error {
	nodes, err := parseInts(c.Nodes)
	if err != nil {
		return fmt.Errorf("--nodes: %w", err)
	}
	shard, shards, err := parseShard(c.Shard)
	if err != nil {
		return err
	}
	cl, err := c.cluster(0)
	if err != nil {
		return err
	}
	st, err := g.existingStore()
	if err != nil {
		return err
	}
	defer st.Close()
	collectOften()
	update, finish := g.sweepProgress()
	sum, err := stage.OrdersSweep(ctx, st, stage.OrdersSweepRequest{
		OrdersRequest: stage.OrdersRequest{Trace: c.Orders, Cluster: cl, Options: c.options()},
		Nodes:         nodes, Deadline: c.Deadline, Budget: c.Budget, PerProcMax: c.PerProcMax,
	}, stage.SweepOptions{Workers: c.Workers, Shard: shard, Shards: shards, Command: commandLine(), Progress: update})
	finish()
	if err != nil {
		if sum.Ran > 0 {
			g.infof("sweep %d: %d clusters stored before stopping; run the same command to resume", sum.SweepID, sum.Ran)
		}
		return err
	}
	fmt.Printf("sweep %d: %d clusters (%d already stored, %d run) in %.1f s\n",
		sum.SweepID, sum.Selected, sum.Existing, sum.Ran, sum.Elapsed.Seconds())
	if s := sum.Smallest; s != nil {
		printSmallest(s, c.Deadline, nodes)
	}
	printCostPicks(sum, c.Deadline, c.Budget)
	w := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "nodes\trun time (s)\tnode-s\tspeedup\tefficiency\tbounds\trun\t")
	probed := false
	for _, r := range sum.Runs {
		mark := ""
		if !slices.Contains(nodes, r.Nodes) {
			mark, probed = "*", true
		}
		fmt.Fprintf(w, "%d%s\t%.6g\t%.6g\t%.3g\t%.3f\t%.3g..%.3g\t%d\t\n", r.Nodes, mark, r.Makespan, sweep.NodeSeconds(r.Nodes, r.Makespan), r.Speedup,
			r.Speedup/float64(r.Nodes*r.Cores), r.SpeedupLo, r.SpeedupHi, r.RunID)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if probed {
		fmt.Println("* not in --nodes: probed by a deadline search")
	}
	return nil
}

// printSmallest says what the deadline search found and how: by
// bisection, or by a scan where the run times it probed were not
// monotone; and which sizes it had to simulate (and stored).
func printSmallest(s *stage.SmallestCluster, deadline float64, nodes []int) {
	if r := s.Run; r != nil {
		where := ""
		if !slices.Contains(nodes, r.Nodes) {
			where = ", not in --nodes: stored by an earlier search"
			if slices.Contains(s.Simulated, r.Nodes) {
				where = ", not in --nodes: simulated and stored now"
			}
		}
		fmt.Printf("smallest cluster meeting %g s: %s, run time %.6g s (run %d)%s\n", deadline, nodesOf(r.Nodes), r.Makespan, r.RunID, where)
	} else {
		fmt.Printf("no cluster of %d..%d nodes meets %g s\n", s.Lo, s.Hi, deadline)
	}
	how := "bisection"
	if s.Scanned {
		how = "scan (the run times probed grow with the nodes somewhere: a bisection cannot be trusted)"
	}
	now := "all stored already"
	if len(s.Simulated) > 0 {
		now = "simulated and stored now: " + joinInts(s.Simulated)
	}
	fmt.Printf("searched by %s over %d..%d nodes, probing %s; %s\n", how, s.Lo, s.Hi, joinInts(s.Probes), now)
}

// printCostPicks says the cost answers: the cheapest cluster meeting the
// deadline and the fastest within the budget, each from a scan of the
// clusters simulated, which it says, since a size between them may do
// better (cost is not monotone in the nodes, so there is no bisection to
// find it).
func printCostPicks(sum stage.OrdersSweepSummary, deadline, budget float64) {
	scanned := 0
	if p := sum.Cheapest; p != nil {
		scanned = p.Scanned
		if r := p.Run; r != nil {
			fmt.Printf("cheapest cluster meeting %g s: %s, %.6g node-seconds, run time %.6g s (run %d)\n",
				deadline, nodesOf(r.Nodes), p.Cost, r.Makespan, r.RunID)
		} else {
			fmt.Printf("cheapest cluster meeting %g s: none of the %d simulated meets it\n", deadline, p.Scanned)
		}
	}
	if p := sum.Fastest; p != nil {
		scanned = p.Scanned
		if r := p.Run; r != nil {
			fmt.Printf("fastest cluster within %g node-seconds: %s, run time %.6g s, %.6g node-seconds (run %d)\n",
				budget, nodesOf(r.Nodes), r.Makespan, p.Cost, r.RunID)
		} else {
			fmt.Printf("fastest cluster within %g node-seconds: none of the %d simulated fits; the cheapest costs %.6g node-seconds\n",
				budget, p.Scanned, p.Least)
		}
	}
	if scanned > 0 {
		fmt.Printf("by cost: a scan of the %d sizes simulated (cost is not monotone in the nodes; sizes not simulated were not considered)\n", scanned)
	}
}

func nodesOf(n int) string {
	if n == 1 {
		return "1 node"
	}
	return strconv.Itoa(n) + " nodes"
}

// joinInts is "1 2 3".
func joinInts(l []int) string { return strings.Trim(fmt.Sprint(l), "[]") }
