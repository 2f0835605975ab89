package ingest

import (
	"cmp"
	"context"
	"time"

	"github.com/presage-dvm/presage/orders/measured"
	"github.com/presage-dvm/presage/orders/ordersched"
	"github.com/presage-dvm/presage/schema/store"
	"github.com/presage-dvm/presage/schema/stored"
	"github.com/presage-dvm/presage/sim/result"
)

// MeasuredName is the name a measured-run file is stored under: its base
// name without a .gz and then a .jsonl suffix.
func MeasuredName(path string) string { return storedName(path, ".gz", ".jsonl") }

// OrderMeasurement stores the measured-run file of an orders program at
// path (orders/measured, written by run mode) as a measured run, unless a
// file with the same bytes is stored already, in which case it returns
// that one with Existing set. A defective file (an *measured.Error naming
// file and line) stores nothing.
func OrderMeasurement(ctx context.Context, st *store.Store, path string) (store.OrderMeasurementInfo, error) {
	f, size, digest, err := openHashed(ctx, path, sniffJSONLines)
	if err != nil {
		return store.OrderMeasurementInfo{}, err
	}
	defer f.Close()
	if info, found, err := st.OrderMeasurementBySHA(ctx, digest); err != nil || found {
		return info, err
	}
	text, err := inputText(ctx, f, path) // plain or gzip, as the sniff accepts
	if err != nil {
		return store.OrderMeasurementInfo{}, err
	}
	defer text.Close()
	m, err := measured.Read(text, path)
	if err != nil {
		return store.OrderMeasurementInfo{}, err
	}
	info := store.OrderMeasurementInfo{Name: MeasuredName(path), Path: path, SHA256: digest, Bytes: size,
		Program: m.Program, Machine: m.Machine, Workers: len(m.Workers), Cores: m.Cores, Scheduler: cmp.Or(m.Scheduler, string(ordersched.FIFO)),
		Migrate: m.Migrate, Orders: m.Orders, Makespan: m.Makespan, Started: m.Started.Format(time.RFC3339)}
	return st.SaveOrderMeasurement(ctx, info, MeasuredRun(m))
}

// MeasuredRun is a measured run of an orders program as the store keeps
// it: a run (result.NodesRun) in which a worker is a node of one core
// whose arguments cost nothing to move (or, when the workers were the
// cores of worker processes, a process is a node of its cores), on the machine the run was
// measured on, with the rows of an orders simulation — the workers as
// nodes, and from the schedule, when the file has one, every order (on
// the worker it started on; ready when made; from its first stretch's
// start to its last's end, waiting in between), its stretches and the
// sums per procedure. It has no critical path.
func MeasuredRun(m *measured.Execution) *stored.OrderSimulation {
	cores := max(m.Cores, 1)
	nodeOf := func(worker int) int { return worker / cores }
	nodes := make([]result.NodeTime, len(m.Workers)/cores)
	sim := &stored.OrderSimulation{Nodes: make([]stored.OrderNode, len(nodes)), Events: make([]stored.OrderEvent, len(m.Schedule))}
	for i, w := range m.Workers {
		k := nodeOf(i)
		nodes[k].Add(result.NodeTime{Busy: w.Busy, Waiting: w.Waiting, Idle: w.Idle})
		n := &sim.Nodes[k]
		n.Node, n.Orders, n.Busy, n.Idle, n.Waiting = k, n.Orders+w.Orders, n.Busy+w.Busy, n.Idle+w.Idle, n.Waiting+w.Waiting
	}
	sim.Run = result.NodesRun(result.Measured, m.Program, m.Makespan, cores, nodes)
	sim.Run.Config.Machine = m.Machine
	for i, o := range m.Schedule {
		first, last := o.Stretches[0], o.Stretches[len(o.Stretches)-1]
		running := 0.0
		for seq, s := range o.Stretches {
			running += s.End - s.Start
			sim.Stretches = append(sim.Stretches, stored.OrderStretch{Order: o.ID, Seq: seq, Node: nodeOf(s.Worker), Start: s.Start, End: s.End})
		}
		sim.Events[i] = stored.OrderEvent{Order: o.ID, Proc: o.Proc, Parent: o.Parent, Child: o.Child, Node: nodeOf(first.Worker),
			Ready: o.Made, Start: first.Start, End: last.End, Wait: max(last.End-first.Start-running, 0)}
	}
	sim.Procs = stored.SumOrderProcs(sim.Events)
	return sim
}
