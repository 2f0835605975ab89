package stage

import (
	"context"
	"path/filepath"

	"github.com/presage-dvm/presage/schema/store"
	"github.com/presage-dvm/presage/schema/stored"
	"github.com/presage-dvm/presage/sim"
	"github.com/presage-dvm/presage/sim/machine"
	"github.com/presage-dvm/presage/sim/network"
	"github.com/presage-dvm/presage/sim/result"
)

// PredictRequest names a stored trace and machine and the configuration to
// predict.
type PredictRequest struct {
	Trace   string        // trace name or id
	Machine string        // machine name or id
	Config  result.Config // grid, network and overrides; the machine fields are filled in
	Options sim.Options
}

// inputs returns the stored trace and machine req names. The machine is
// read before the trace is opened: a trace ingested before packs streams
// from a query that holds a connection.
func inputs(st *store.Store, req PredictRequest) (store.TraceInfo, *machine.Machine, stored.MachineInfo, error) {
	info, err := st.Trace(req.Trace)
	if err != nil {
		return info, nil, stored.MachineInfo{}, err
	}
	m, minfo, err := st.Machine(req.Machine)
	return info, m, minfo, err
}

// StoredPrediction returns the prediction of req stored already outside
// any sweep, nil when there is none (or when req has deviations from the
// original switched on, or no grid, which the lookup does not compare).
func StoredPrediction(ctx context.Context, st *store.Store, req PredictRequest) (*result.Run, error) {
	if len(req.Config.Grid) == 0 || len(req.Options.Names()) > 0 {
		return nil, nil
	}
	info, _, minfo, err := inputs(st, req)
	if err != nil {
		return nil, err
	}
	id, ok, err := predictionLike(ctx, st, store.OutsideSweeps, info.ID, minfo.ID, req.Config, "")
	if err != nil || !ok {
		return nil, err
	}
	return st.Run(id)
}

// predictionLike is store.PredictionLike for a configuration whose
// network may be left to the simulator's default.
func predictionLike(ctx context.Context, st *store.Store, sweep, trace, machine int64, cfg result.Config, opts string) (int64, bool, error) {
	kind, err := network.ParseKind(cfg.Network) // as the simulator names it
	if err != nil {
		return 0, false, err
	}
	cfg.Network = kind.String()
	return st.PredictionLike(ctx, sweep, trace, machine, cfg, opts)
}

// PredictOne predicts req and stores the run in one transaction. The trace
// is streamed from the store into the simulator: memory grows with the
// distinct calls of the trace and the simulated state, not with the
// trace's length.
func PredictOne(ctx context.Context, st *store.Store, req PredictRequest) (*result.Run, error) {
	info, m, minfo, err := inputs(st, req)
	if err != nil {
		return nil, err
	}
	cfg := req.Config
	cfg.Machine, cfg.MachineID = minfo.Name, minfo.ID
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	opt := req.Options
	if opt.TraceFile == "" {
		// Errors name the trace file the user ingested.
		opt.TraceFile = filepath.Base(info.Path)
	}
	tr, err := st.OpenTrace(ctx, info)
	if err != nil {
		return nil, err
	}
	// The run report's per-processor picture is recorded as the run is
	// simulated and stored with it: reading the report simulates nothing.
	sampler := newTimelineSampler(cfg.Procs())
	opt.Recorder, opt.Stop = sampler, ctx.Err
	run, err := sim.Predict(tr.Header, tr, m, cfg, opt)
	tr.Close()
	if err != nil {
		return nil, err
	}
	run.TraceID, run.Program = info.ID, info.Name
	if err := st.SaveRun(ctx, run, store.SaveOptions{Timeline: sampler.Sample()}); err != nil {
		return nil, err
	}
	return run, nil
}
