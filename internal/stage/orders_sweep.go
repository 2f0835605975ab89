package stage

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/presage-dvm/presage/schema/store"
	"github.com/presage-dvm/presage/schema/stored"
	"github.com/presage-dvm/presage/sim/machine"
	"github.com/presage-dvm/presage/sim/ordersim"
	"github.com/presage-dvm/presage/sim/sweep"
	"github.com/presage-dvm/presage/sim/workspan"
)

// KindOrders is the kind of a sweep of an order trace over node counts.
const KindOrders = "orders"

// ordersDefinition is what an orders sweep computes; its hash identifies
// the sweep in every store (contents, never store ids), so re-running the
// same command resumes it and shards of it merge.
type ordersDefinition struct {
	Kind      string    `json:"kind"`
	Trace     string    `json:"trace"` // the trace's name, for people
	TraceSHA  string    `json:"trace_sha256"`
	Nodes     []int     `json:"nodes"`
	Cores     int       `json:"cores"`
	Power     []float64 `json:"power"`
	Latency   float64   `json:"latency"`
	TByte     float64   `json:"tbyte,omitempty"` // omitted when none: the hashes of earlier sweeps stand
	Bandwidth float64   `json:"bandwidth"`
	// Messages: omitted when none, so that the hashes of earlier sweeps stand.
	Messages []machine.MessagePoint `json:"messages,omitempty"`
	Hub      bool                   `json:"hub,omitempty"`
	Relay    []machine.MessagePoint `json:"relay,omitempty"` // omitted when none: the hashes of earlier sweeps stand
	// The runtime's costs the cluster gave: omitted when none, so that
	// the hashes of earlier sweeps stand.
	OrderCost  float64 `json:"order_cost,omitempty"`
	WaitCost   float64 `json:"wait_cost,omitempty"`
	Ahead      int     `json:"ahead,omitempty"` // omitted when none: the hashes of earlier sweeps stand
	AheadMax   int     `json:"ahead_max,omitempty"`
	Scheduler  string  `json:"scheduler"`
	Seed       uint64  `json:"seed"`
	Migrate    bool    `json:"migrate,omitempty"` // omitted when false: the hashes of earlier sweeps stand
	PerProcMax int     `json:"per_proc_max"`
}

// hash identifies the definition (sweep.DefinitionHash) without the
// trace's name.
func (d ordersDefinition) hash() string {
	d.Trace = ""
	return sweep.DefinitionHash(d)
}

// OrdersSweepRequest names a stored order trace, the node counts to play
// it on and the rest of the cluster (Cluster.Nodes is ignored, and so is
// MaxEvents: a sweep keeps no order's own schedule).
type OrdersSweepRequest struct {
	OrdersRequest
	Nodes []int // the sweep's positions: Nodes[i] is stored at position i
	// Deadline (s), when positive, asks for the smallest cluster of
	// min(Nodes)..max(Nodes) nodes that meets it, listed or not
	// (sweep.SmallestFor). A size it simulates is stored in the sweep, at
	// its position when listed, else at position len(Nodes)+n−1, so that
	// running the same command again simulates nothing and shards merge.
	Deadline float64
	// Budget (node-seconds), when positive, asks for the fastest of the
	// clusters simulated whose cost (sweep.NodeSeconds) is at most it
	// (sweep.FastestWithin). With a Deadline, the cheapest of them meeting
	// the deadline is answered too (sweep.CheapestFor), budget or not.
	Budget float64
	// PerProcMax limits the per-node values of the runs (their
	// interval_proc_values) to clusters of at most this many nodes (0:
	// always); the order_nodes rows are always written.
	PerProcMax int
}

// OrdersSweepSummary says what an orders sweep did and found (its Calls
// are 0: an order trace has no traced calls).
type OrdersSweepSummary struct {
	SweepSummary
	// Runs are the stored simulations of the sweep (all shards stored so
	// far, and the sizes deadline searches added), by node count.
	Runs []stored.OrderRunRow
	// Smallest is the deadline search's answer, nil when none was asked.
	Smallest *SmallestCluster
	// Cheapest is the cluster of least node-seconds meeting the deadline
	// among those simulated (Runs), nil when no deadline was asked;
	// Fastest is the fastest of them within the budget, nil when no
	// budget was asked.
	Cheapest, Fastest *CostPick
}

// CostPick is a cluster chosen by cost among the runs of a sweep: a scan,
// since cost does not fall or grow steadily with the nodes; sizes not
// simulated are not considered.
type CostPick struct {
	sweep.Pick
	Run *stored.OrderRunRow // the stored run on Size nodes; nil when Size is 0
}

// SmallestCluster is what the deadline search of an orders sweep found.
type SmallestCluster struct {
	// Size is the fewest nodes meeting the deadline (0: none of Lo..Hi
	// does); Scanned and Probes say how it was found.
	sweep.Smallest
	Lo, Hi int                 // the range searched: the sweep's fewest and most nodes
	Run    *stored.OrderRunRow // the stored run on Size nodes; nil when Size is 0
	// Simulated are the sizes the search simulated and stored now (the
	// other probes were stored already).
	Simulated []int
}

// OrdersSweep simulates the order trace on every node count of req (of
// the shard opt selects) that the store lacks, storing each simulation in
// its own transaction at its position in the sweep; cancelling ctx stops
// it, and running it again completes it. The orders' own schedules are
// not kept in a sweep: the per-node rows, the critical path and the sums
// by procedure are.
func OrdersSweep(ctx context.Context, st *store.Store, req OrdersSweepRequest, opt SweepOptions) (OrdersSweepSummary, error) {
	var sum OrdersSweepSummary
	info, err := st.OrderTrace(req.Trace)
	if err != nil {
		return sum, err
	}
	if len(req.Nodes) == 0 {
		return sum, fmt.Errorf("orders sweep: no node count given")
	}
	if req.Options.Scheduler == "" {
		req.Options.Scheduler = ordersim.FIFO
	}
	// The sums by procedure are stored with every run; the orders' own
	// rows are not.
	req.Options.OnOrder, req.Options.ByProc, req.Options.PathSteps = nil, true, maxPathSteps
	def := ordersDefinition{Kind: KindOrders, Trace: info.Name, TraceSHA: info.SHA256, Nodes: req.Nodes,
		Cores: max(req.Cluster.Cores, 1), Power: req.Cluster.Power, Latency: req.Cluster.Latency,
		TByte: req.Cluster.TByte, Bandwidth: req.Cluster.Bandwidth, Messages: req.Cluster.Messages, Hub: req.Cluster.Hub, Relay: req.Cluster.Relay,
		OrderCost: req.Cluster.OrderCost, WaitCost: req.Cluster.WaitCost, Ahead: req.Cluster.Ahead, AheadMax: req.Cluster.AheadMax, Scheduler: string(req.Options.Scheduler), Seed: req.Options.Seed, Migrate: !req.Options.Pin,
		PerProcMax: req.PerProcMax}
	for _, n := range req.Nodes {
		cl := req.Cluster
		cl.Nodes = n
		if err := cl.Validate(); err != nil {
			return sum, fmt.Errorf("orders sweep: %w", err)
		}
	}
	o := &ordersSweeper{ctx: ctx, st: st, info: info, req: req}
	selected, err := sweep.Shard(sweep.List(req.Nodes), opt.Shard, opt.Shards)
	if err != nil {
		return sum, err
	}
	// The largest first: their unused nodes may settle smaller sizes.
	slices.SortStableFunc(selected, func(a, b sweep.At[int]) int { return cmp.Compare(b.Value, a.Value) })
	sum.SweepSummary, err = resume(ctx, st, resumable[sweep.At[int], ordersim.Point]{
		row: stored.Sweep{OrderTrace: info.ID, Kind: KindOrders, Configs: len(req.Nodes)},
		def: def, hash: def.hash(), simulate: o.simulate, save: o.save,
		cost:     func(c sweep.At[int]) Cost { return ordersCost(info.Orders, c.Value) },
		describe: func(c sweep.At[int]) string { return fmt.Sprintf("%d nodes", c.Value) },
	}, selected, opt)
	if err != nil {
		return sum, err
	}
	if sum.Runs, err = st.OrderSweepRuns(ctx, sum.SweepID); err != nil {
		return sum, err
	}
	if req.Deadline > 0 {
		if sum.Smallest, err = o.smallest(sum.SweepID, sum.Runs); err != nil {
			return sum, err
		}
		if len(sum.Smallest.Simulated) > 0 {
			if sum.Runs, err = st.OrderSweepRuns(ctx, sum.SweepID); err != nil {
				return sum, err
			}
		}
		sum.Smallest.Run = fastestOn(sum.Runs, sum.Smallest.Size)
	}
	// After the deadline search: the sizes it simulated are candidates too.
	times := runTimes(sum.Runs)
	if req.Deadline > 0 {
		p, err := sweep.CheapestFor(times, req.Deadline)
		if err != nil {
			return sum, fmt.Errorf("orders sweep: %w", err)
		}
		sum.Cheapest = &CostPick{Pick: p, Run: fastestOn(sum.Runs, p.Size)}
	}
	if req.Budget > 0 {
		p, err := sweep.FastestWithin(times, req.Budget)
		if err != nil {
			return sum, fmt.Errorf("orders sweep: %w", err)
		}
		sum.Fastest = &CostPick{Pick: p, Run: fastestOn(sum.Runs, p.Size)}
	}
	return sum, nil
}

// runTimes are the run times of runs by node count, the fastest where a
// count has several (as fastestOn).
func runTimes(runs []stored.OrderRunRow) map[int]float64 {
	times := map[int]float64{}
	for _, r := range runs {
		if t, ok := times[r.Nodes]; !ok || r.Makespan < t {
			times[r.Nodes] = r.Makespan
		}
	}
	return times
}

// ordersSweeper simulates and stores the clusters of one orders sweep. It
// loads the trace into memory, prepares it and analyses its work and span
// once, when a first cluster must be simulated, and keeps one
// ordersim.Sizes for the whole command, so that the deadline search
// reuses the sweep's runs.
type ordersSweeper struct {
	// ctx is the command's, also used after the runner's context has
	// ended.
	ctx  context.Context
	st   *store.Store
	info store.OrderTraceInfo
	req  OrdersSweepRequest

	once  sync.Once
	err   error
	sizes *ordersim.Sizes
	ws    workspan.Summary
}

func (o *ordersSweeper) prepare() error {
	o.once.Do(func() {
		open, err := loadedTrace(o.ctx, o.st, o.info)
		if err != nil {
			o.err = err
			return
		}
		tr, err := prepareOrders(o.ctx, o.st, o.info, open)
		if err != nil {
			o.err = err
			return
		}
		if o.sizes, o.err = tr.Sizes(o.req.Cluster, o.req.Options); o.err != nil {
			return
		}
		o.ws, o.err = analyseOrders(o.info, o.req.Cluster, open, tr.Counts())
	})
	return o.err
}

// simulate predicts the cluster of c.Value nodes; it is safe for
// concurrent use.
func (o *ordersSweeper) simulate(ctx context.Context, c sweep.At[int]) (ordersim.Point, error) {
	if err := o.prepare(); err != nil {
		return ordersim.Point{}, err
	}
	pt, err := o.sizes.At(ctx, c.Value)
	if err != nil {
		return pt, fmt.Errorf("simulate %s on %d nodes: %w", o.info.Name, c.Value, err)
	}
	return pt, nil
}

// save stores the simulation pt at position c.Index of sweep id.
func (o *ordersSweeper) save(id int64, c sweep.At[int], pt ordersim.Point) (bool, error) {
	cl := o.req.Cluster
	cl.Nodes = pt.Nodes
	sim := orderSimulation(o.info, cl, o.req.Options, pt.Result, o.ws)
	sim.Run.SweepID = id
	saved, err := o.st.SaveOrderSimulation(o.ctx, sim, c.Index, store.SaveOptions{PerProcMax: o.req.PerProcMax})
	if err != nil {
		return false, fmt.Errorf("store %d nodes: %w", pt.Nodes, err)
	}
	return saved, nil
}

// smallest searches min(Nodes)..max(Nodes) for the fewest nodes meeting
// the deadline, from the runs stored where it can and by simulating (and
// storing) the other sizes it probes.
func (o *ordersSweeper) smallest(sweepID int64, runs []stored.OrderRunRow) (*SmallestCluster, error) {
	nodes := o.req.Nodes
	ans := &SmallestCluster{Lo: slices.Min(nodes), Hi: slices.Max(nodes)}
	known := runTimes(runs)
	runTime := func(n int) (float64, error) {
		if t, ok := known[n]; ok {
			return t, nil
		}
		c := sweep.At[int]{Index: slices.Index(nodes, n), Value: n}
		if c.Index < 0 {
			c.Index = len(nodes) + n - 1
		}
		pt, err := o.simulate(o.ctx, c)
		if err != nil {
			return 0, err
		}
		if _, err := o.save(sweepID, c, pt); err != nil {
			return 0, err
		}
		ans.Simulated = append(ans.Simulated, n)
		return pt.Result.Makespan, nil
	}
	var err error
	if ans.Smallest, err = sweep.SmallestFor(ans.Lo, ans.Hi, o.req.Deadline, runTime); err != nil {
		return nil, fmt.Errorf("orders sweep: %w", err)
	}
	return ans, nil
}

// fastestOn is the fastest run on n nodes, nil when there is none (or n is 0).
func fastestOn(runs []stored.OrderRunRow, n int) *stored.OrderRunRow {
	var best *stored.OrderRunRow
	for i, r := range runs {
		if r.Nodes == n && (best == nil || r.Makespan < best.Makespan) {
			best = &runs[i]
		}
	}
	return best
}
