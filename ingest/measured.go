package ingest

import (
	"context"
	"time"

	"github.com/presage-dvm/presage/orders/measured"
	"github.com/presage-dvm/presage/schema/store"
	"github.com/presage-dvm/presage/sim/result"
)

// MeasuredName is the name a measured-run file is stored under: its base
// name without a .jsonl suffix.
func MeasuredName(path string) string { return storedName(path, ".jsonl") }

// OrderMeasurement stores the measured-run file of an orders program at
// path (orders/measured, written by run mode) as a measured run, unless a
// file with the same bytes is stored already, in which case it returns
// that one with Existing set. A defective file (an *measured.Error naming
// file and line) stores nothing.
func OrderMeasurement(ctx context.Context, st *store.Store, path string) (store.OrderMeasurementInfo, error) {
	f, size, digest, err := openHashed(path, sniffJSONLines)
	if err != nil {
		return store.OrderMeasurementInfo{}, err
	}
	defer f.Close()
	if info, found, err := st.OrderMeasurementBySHA(ctx, digest); err != nil || found {
		return info, err
	}
	m, err := measured.Read(f, path)
	if err != nil {
		return store.OrderMeasurementInfo{}, err
	}
	info := store.OrderMeasurementInfo{Name: MeasuredName(path), Path: path, SHA256: digest, Bytes: size,
		Program: m.Program, Machine: m.Machine, Workers: len(m.Workers), Migrate: m.Migrate, Orders: m.Orders,
		Makespan: m.Makespan, Started: m.Started.Format(time.RFC3339)}
	return st.SaveOrderMeasurement(ctx, info, MeasuredRun(m))
}

// MeasuredRun is a measured run of an orders program as a run of the
// store (result.NodesRun): a worker is a node of one core whose arguments
// cost nothing to move, on the machine the run was measured on.
func MeasuredRun(m *measured.Execution) *result.Run {
	nodes := make([]result.NodeTime, len(m.Workers))
	for i, w := range m.Workers {
		nodes[i] = result.NodeTime{Busy: w.Busy, Waiting: w.Waiting, Idle: w.Idle}
	}
	run := result.NodesRun(result.Measured, m.Program, m.Makespan, 1, nodes)
	run.Config.Machine = m.Machine
	return run
}
