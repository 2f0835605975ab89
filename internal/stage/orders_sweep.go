package stage

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/presage-dvm/presage/orders/ordertrace"
	"github.com/presage-dvm/presage/schema/store"
	"github.com/presage-dvm/presage/schema/stored"
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
	Kind       string    `json:"kind"`
	Trace      string    `json:"trace"` // the trace's name, for people
	TraceSHA   string    `json:"trace_sha256"`
	Nodes      []int     `json:"nodes"`
	Cores      int       `json:"cores"`
	Power      []float64 `json:"power"`
	Latency    float64   `json:"latency"`
	Bandwidth  float64   `json:"bandwidth"`
	Scheduler  string    `json:"scheduler"`
	Seed       uint64    `json:"seed"`
	Migrate    bool      `json:"migrate,omitempty"` // omitted when false: the hashes of earlier sweeps stand
	PerProcMax int       `json:"per_proc_max"`
}

func (d ordersDefinition) hash() string {
	c := d
	c.Trace = ""
	b, err := json.Marshal(c)
	if err != nil {
		panic(err) // plain data: cannot fail
	}
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// OrdersSweepRequest names a stored order trace, the node counts to play
// it on and the rest of the cluster (Cluster.Nodes is ignored, and so is
// MaxEvents: a sweep keeps no order's own schedule).
type OrdersSweepRequest struct {
	OrdersRequest
	Nodes    []int
	Deadline float64 // s; when positive, the smallest cluster that meets it is reported
	// PerProcMax limits the per-node values of the runs (their
	// interval_proc_values) to clusters of at most this many nodes (0:
	// always); the order_nodes rows are always written.
	PerProcMax int
}

// OrdersSweepSummary says what an orders sweep did and found.
type OrdersSweepSummary struct {
	SweepID                 int64
	Selected, Existing, Ran int
	Elapsed                 time.Duration
	// Runs are the stored simulations of the sweep (all shards stored so
	// far), by node count.
	Runs []stored.OrderRunRow
	// Smallest is the run of fewest nodes whose makespan meets the
	// deadline, nil when none does or none was asked.
	Smallest *stored.OrderRunRow
}

// OrdersSweep simulates the order trace on every node count of req (of
// the shard opt selects) that the store lacks, storing each simulation in
// its own transaction at its position in the sweep; cancelling ctx stops
// it, and running it again completes it.
func OrdersSweep(ctx context.Context, st *store.Store, req OrdersSweepRequest, opt SweepOptions) (OrdersSweepSummary, error) {
	start := time.Now()
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
	def := ordersDefinition{Kind: KindOrders, Trace: info.Name, TraceSHA: info.SHA256, Nodes: req.Nodes,
		Cores: max(req.Cluster.Cores, 1), Power: req.Cluster.Power, Latency: req.Cluster.Latency,
		Bandwidth: req.Cluster.Bandwidth, Scheduler: string(req.Options.Scheduler), Seed: req.Options.Seed, Migrate: req.Options.Migrate,
		PerProcMax: req.PerProcMax}
	for _, n := range req.Nodes {
		cl := req.Cluster
		cl.Nodes = n
		if err := cl.Validate(); err != nil {
			return sum, fmt.Errorf("orders sweep: %w", err)
		}
	}
	text, err := json.Marshal(def)
	if err != nil {
		return sum, err
	}
	id, err := st.EnsureSweep(ctx, stored.Sweep{OrderTrace: info.ID, Kind: KindOrders, Command: opt.Command,
		Hash: def.hash(), Definition: string(text), Configs: len(req.Nodes)})
	if err != nil {
		return sum, err
	}
	sum.SweepID = id
	done, err := st.SweepDone(ctx, id)
	if err != nil {
		return sum, err
	}
	var todo []int // positions in req.Nodes
	for i := range req.Nodes {
		if !sweep.InShard(i, opt.Shard, opt.Shards) {
			continue
		}
		sum.Selected++
		if done[i] {
			sum.Existing++
			continue
		}
		todo = append(todo, i)
	}
	if err := sweepOrders(ctx, st, info, req, todo, id, opt, func(saved bool) {
		if !saved { // another process running the same sweep was first
			sum.Existing++
			return
		}
		sum.Ran++
		if opt.Progress != nil {
			opt.Progress(Progress{Done: sum.Ran, Total: len(todo), Elapsed: time.Since(start)})
		}
	}); err != nil {
		sum.Elapsed = time.Since(start)
		return sum, err
	}
	sum.Elapsed = time.Since(start)
	if sum.Runs, err = st.OrderSweepRuns(ctx, id); err != nil {
		return sum, err
	}
	if req.Deadline > 0 {
		sum.Smallest = smallestCluster(sum.Runs, req.Deadline)
	}
	return sum, nil
}

// sweepOrders simulates the node counts req.Nodes[i] of todo (positions
// in the sweep) with ordersim's sweep, which prepares the trace once and
// reuses a schedule for every size it cannot change (docs/orders-sim.md,
// "Sweeps"), and stores each at its position; stored is called after each,
// saved false when another process had stored the position first.
// The orders' own schedules are not kept in a sweep: the per-node rows
// and the critical path are.
func sweepOrders(ctx context.Context, st *store.Store, info store.OrderTraceInfo, req OrdersSweepRequest,
	todo []int, sweepID int64, opt SweepOptions, stored func(saved bool)) error {
	if len(todo) == 0 {
		return nil
	}
	open := func() (ordertrace.Source, error) { return st.OpenOrderTrace(ctx, info) }
	tr, err := ordersim.Prepare(open)
	if err != nil {
		return fmt.Errorf("prepare %s: %w", info.Name, err)
	}
	src, err := open()
	if err != nil {
		return err
	}
	ws, err := workspan.Analyze(src, workspan.Network{Latency: req.Cluster.Latency, Bandwidth: req.Cluster.Bandwidth})
	if err != nil {
		return fmt.Errorf("analyse %s: %w", info.Name, err)
	}
	position := make(map[int]int, len(todo)) // node count -> position
	nodes := make([]int, len(todo))
	for k, i := range todo {
		nodes[k], position[req.Nodes[i]] = req.Nodes[i], i
	}
	opts := req.Options
	opts.OnOrder = nil
	points, err := tr.Sweep(req.Cluster, nodes, opts, opt.Workers)
	if err != nil {
		return fmt.Errorf("sweep %s: %w", info.Name, err)
	}
	for _, pt := range points {
		if err := ctx.Err(); err != nil {
			return err
		}
		cl := req.Cluster
		cl.Nodes = pt.Nodes
		sim := orderSimulation(info, cl, opts, pt.Result, ws, nil)
		sim.Run.SweepID = sweepID
		saved, err := st.SaveOrderSimulation(ctx, sim, position[pt.Nodes], store.SaveOptions{PerProcMax: req.PerProcMax})
		if err != nil {
			return fmt.Errorf("store %d nodes: %w", pt.Nodes, err)
		}
		stored(saved)
	}
	return nil
}

// smallestCluster is the run of fewest nodes whose makespan is at most
// deadline (the faster among equals), or nil.
func smallestCluster(runs []stored.OrderRunRow, deadline float64) *stored.OrderRunRow {
	i := slices.IndexFunc(runs, func(r stored.OrderRunRow) bool { return r.Makespan <= deadline })
	if i < 0 {
		return nil
	}
	best := &runs[i]
	for j := i + 1; j < len(runs) && runs[j].Nodes == best.Nodes; j++ {
		if runs[j].Makespan < best.Makespan {
			best = &runs[j]
		}
	}
	return best
}
