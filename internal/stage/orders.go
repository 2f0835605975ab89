package stage

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/presage-dvm/presage/orders/ordersched"
	"github.com/presage-dvm/presage/schema/store"
	"github.com/presage-dvm/presage/schema/stored"
	"github.com/presage-dvm/presage/sim/machine"
	"github.com/presage-dvm/presage/sim/ordersim"
	"github.com/presage-dvm/presage/sim/ordertrace"
	"github.com/presage-dvm/presage/sim/result"
	"github.com/presage-dvm/presage/sim/workspan"
)

// OrdersRequest names a stored order trace and the cluster to play it on.
type OrdersRequest struct {
	Trace   string // order trace name or id
	Cluster ordersim.Cluster
	Options ordersim.Options // Scheduler, Seed, Migrate; OnOrder and ByProc are set here
	// MaxEvents bounds the per-order rows stored: the schedule of every
	// order (its event and its stretches) is kept when the trace has at
	// most this many orders, else none is (the per-node rows, the
	// critical path and the sums by procedure always are).
	MaxEvents int64
	// Progress, when set, receives now and then the orders simulated so
	// far and the trace's number of orders.
	Progress func(done, total int64)
}

// SimulateOrders plays a stored order trace on a cluster and stores the
// simulation as a run; it returns what it stored.
func SimulateOrders(ctx context.Context, st *store.Store, req OrdersRequest) (*stored.OrderSimulation, error) {
	info, err := st.OrderTrace(req.Trace)
	if err != nil {
		return nil, err
	}
	sim, err := simulateOrders(ctx, st, info, req)
	if err != nil {
		return nil, err
	}
	_, err = st.SaveOrderSimulation(ctx, sim, -1, store.SaveOptions{})
	return sim, err
}

// simulateOrders simulates one cluster of req and builds what is stored:
// the run with its characteristics and the orders' own rows.
func simulateOrders(ctx context.Context, st *store.Store, info store.OrderTraceInfo, req OrdersRequest) (*stored.OrderSimulation, error) {
	if err := req.Cluster.Validate(); err != nil {
		return nil, err
	}
	opt := req.Options
	if opt.Scheduler == "" {
		opt.Scheduler = ordersched.Default
	}
	opt.ByProc, opt.PathSteps, opt.Stop = true, maxPathSteps, ctx.Err
	if req.Progress != nil {
		opt.Progress = func(finished int64) { req.Progress(finished, info.Orders) }
	}
	var sched schedules
	if info.Orders <= req.MaxEvents {
		sched.events = make([]stored.OrderEvent, 0, info.Orders)
		opt.OnOrder = sched.add
	}
	open := storedTrace(ctx, st, info)
	tr, err := prepareOrders(ctx, st, info, open)
	if err != nil {
		return nil, err
	}
	res, err := tr.Simulate(req.Cluster, opt)
	if err != nil {
		return nil, fmt.Errorf("simulate %s on %d nodes: %w", info.Name, req.Cluster.Nodes, err)
	}
	ws, err := analyseOrders(info, req.Cluster, open, tr.Counts())
	if err != nil {
		return nil, err
	}
	sim := orderSimulation(info, req.Cluster, opt, res, ws)
	sim.Events, sim.Stretches = sched.events, sched.sorted()
	return sim, nil
}

// traceSource opens an order trace for one pass over its orders.
type traceSource = func() (ordertrace.Source, error)

// storedTrace opens a stored order trace from the store, chunk by chunk.
func storedTrace(ctx context.Context, st *store.Store, info store.OrderTraceInfo) traceSource {
	return func() (ordertrace.Source, error) { return st.OpenOrderTrace(ctx, info, false) }
}

// loadedTrace opens a stored order trace for a command that reads it many
// times (a sweep, a search): its chunks are read into memory once, and
// every pass reads them there.
func loadedTrace(ctx context.Context, st *store.Store, info store.OrderTraceInfo) (traceSource, error) {
	t, err := st.LoadOrderTrace(ctx, info)
	if err != nil {
		return nil, err
	}
	return func() (ordertrace.Source, error) { return t.Open(), nil }, nil
}

// prepareOrders returns a stored order trace, opened by open, ready to
// simulate with the counts stored with it.
func prepareOrders(ctx context.Context, st *store.Store, info store.OrderTraceInfo, open traceSource) (*ordersim.Prepared, error) {
	counts, err := st.OrderTraceCounts(ctx, info)
	var tr *ordersim.Prepared
	if err == nil {
		tr, err = ordersim.Counted(open, counts)
	}
	if err != nil {
		return nil, fmt.Errorf("prepare %s: %w", info.Name, err)
	}
	return tr, nil
}

// analyseOrders returns the work and span of a stored order trace, with
// its counts, with the burdened span on cl's network. Ingest stored the
// work and span; only a network that costs something needs a pass over
// the trace, for the burdened span (which, on a free network, is the
// span).
func analyseOrders(info store.OrderTraceInfo, cl ordersim.Cluster, open traceSource, counts *ordertrace.Counts) (workspan.Summary, error) {
	net := machine.Cluster(cl).Link()
	if net.Free() {
		return workspan.Stored(info.Orders, info.Work, info.Span), nil
	}
	src, err := open()
	if err != nil {
		return workspan.Summary{}, err
	}
	ws, err := workspan.AnalyzeCounted(src, net, counts)
	if err != nil {
		return ws, fmt.Errorf("analyse %s: %w", info.Name, err)
	}
	return ws, nil
}

// schedules collects the orders' own rows as the simulation reports them.
type schedules struct {
	events    []stored.OrderEvent
	stretches []stored.OrderStretch
}

func (s *schedules) add(o ordersim.OrderResult) {
	// The event names the node the order started on; the stretches say
	// where it went if it migrated.
	s.events = append(s.events, stored.OrderEvent{Order: o.ID, Proc: o.Proc, Parent: o.Parent, Child: o.Child,
		Node: o.Stretches[0].Node, Ready: o.Ready, Start: o.Start, End: o.End, Wait: o.Wait})
	for i, st := range o.Stretches {
		s.stretches = append(s.stretches, stored.OrderStretch{Order: o.ID, Seq: i, Node: st.Node, Start: st.Start, End: st.End})
	}
}

// sorted returns the stretches by order then time, as stored.OrderSimulation
// has them (the simulation reports orders as they end).
func (s *schedules) sorted() []stored.OrderStretch {
	slices.SortStableFunc(s.stretches, func(a, b stored.OrderStretch) int { return cmp.Compare(a.Order, b.Order) })
	return s.stretches
}

// orderSimulation is the stored form of a simulation, without the
// orders' own rows.
func orderSimulation(info store.OrderTraceInfo, cl ordersim.Cluster, opt ordersim.Options, res *ordersim.Result,
	ws workspan.Summary) *stored.OrderSimulation {
	cores := max(cl.Cores, 1)
	power := 1.0
	if len(cl.Power) == 1 {
		power = cl.Power[0]
	}
	lo, hi := ws.SpeedupRange(cl.Nodes * cores)
	// The row's bandwidth, for the reports, is 1/TByte when the cluster
	// gave a time per byte; the run's TByte (orderRun) is the one given.
	bandwidth := cl.Bandwidth
	if cl.TByte > 0 {
		bandwidth = 1 / cl.TByte
	}
	d := stored.OrderRun{TraceID: info.ID, Scheduler: string(opt.Scheduler), Migrate: !opt.Pin, Nodes: cl.Nodes, Cores: cores,
		Latency: cl.Latency, Bandwidth: bandwidth, Messages: messagesJSON(cl.Messages), Hub: cl.Hub, Relay: messagesJSON(cl.Relay),
		OrderCost: cl.OrderCost, WaitCost: cl.WaitCost, Ahead: cl.Ahead, AheadMax: cl.AheadMax, Power: power, Makespan: res.Makespan,
		Work: ws.Work, Span: ws.Span, BurdenedSpan: ws.BurdenedSpan, Parallelism: ws.Parallelism,
		SpeedupLo: lo, SpeedupHi: hi}
	if res.Makespan > 0 {
		d.Speedup = ws.Work / power / res.Makespan
	}
	sim := &stored.OrderSimulation{Run: orderRun(info, cl, res), Detail: d}
	for i, n := range res.Nodes {
		sim.Nodes = append(sim.Nodes, stored.OrderNode{Node: i, Orders: n.Orders, Busy: n.Busy, Idle: n.Idle,
			Waiting: n.Waiting, Transfer: n.Transfer})
	}
	for _, s := range res.CriticalPath {
		sim.Path = append(sim.Path, stored.PathStep{Step: s.Index, Order: s.Order, Proc: s.Proc, Node: s.Node, Start: s.Start, End: s.End, Reason: s.Kind.String()})
	}
	for _, p := range res.Procs {
		sim.Procs = append(sim.Procs, stored.OrderProc{Proc: p.Proc, Orders: p.Orders, Work: p.Work, PathTime: p.PathTime,
			MeanDuration: p.MeanDuration, SDDuration: p.SDDuration})
	}
	return sim
}

// maxPathSteps bounds the critical path's stored steps (the simulation
// keeps only the longest: ordersim.Options.PathSteps); their Step numbers
// show what was left out between them.
const maxPathSteps = 1000

// orderRun is a simulation as a run of the store (result.NodesRun) with
// the cluster as its configuration.
func orderRun(info store.OrderTraceInfo, cl ordersim.Cluster, res *ordersim.Result) *result.Run {
	nodes := make([]result.NodeTime, len(res.Nodes))
	for i, n := range res.Nodes {
		nodes[i] = result.NodeTime{Busy: n.Busy, Idle: n.Idle, Waiting: n.Waiting, Transfer: n.Transfer}
	}
	// The run is of the trace's program, as the program's measured runs
	// are (orders/measured), whatever the trace file was called.
	run := result.NodesRun(result.Predicted, cmp.Or(info.Program, info.Name), res.Makespan, max(cl.Cores, 1), nodes)
	// The cluster in the DVM's terms (machine.Cluster): the latency is the
	// start-up time, the bandwidth a time per byte.
	run.Config.TStart, run.Config.TByte = machine.Cluster(cl).Link().Line()
	if len(cl.Power) == 1 {
		run.Config.Power = cl.Power[0]
	}
	return run
}

// messagesJSON is how a run stores a measured network's message times
// (stored.OrderRun.Messages, Relay): "" for none.
func messagesJSON(ms []machine.MessagePoint) string {
	if len(ms) == 0 {
		return ""
	}
	b, _ := json.Marshal(ms) // numbers only: it cannot fail
	return string(b)
}
