package stage

import (
	"context"
	"errors"
	"path/filepath"

	"github.com/presage-dvm/presage/ingest"
	"github.com/presage-dvm/presage/schema/store"
	"github.com/presage-dvm/presage/schema/stored"
	"github.com/presage-dvm/presage/sim"
	"github.com/presage-dvm/presage/sim/engine"
	"github.com/presage-dvm/presage/sim/events"
	"github.com/presage-dvm/presage/sim/machine"
	"github.com/presage-dvm/presage/sim/network"
	"github.com/presage-dvm/presage/sim/result"
	"github.com/presage-dvm/presage/sim/trace"
)

// PredictRequest names a stored trace and machine and the configuration to
// predict.
type PredictRequest struct {
	Trace   string        // trace name or id
	Machine string        // machine name or id
	Config  result.Config // grid, network and overrides; the machine fields are filled in
	Options sim.Options
}

// inputs returns the stored trace and machine req names, refusing a
// trace an earlier prediction refused (refusal). The machine is
// read before the trace is opened: a trace ingested before packs streams
// from a query that holds a connection.
func inputs(st *store.Store, req PredictRequest) (store.TraceInfo, *machine.Machine, stored.MachineInfo, error) {
	info, err := st.Trace(req.Trace)
	if err != nil {
		return info, nil, stored.MachineInfo{}, err
	}
	if err := refusal(info); err != nil {
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
// trace's length. A defect of the trace the prediction finds marks the
// trace refused (refuseOnDefect), and nothing is stored.
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
	sampler := events.NewPictureSampler(cfg.Procs())
	opt.Recorder, opt.Stop = sampler, ctx.Err
	run, err := sim.Predict(tr.Header, tr, m, cfg, opt)
	tr.Close()
	if err != nil {
		return nil, refuseOnDefect(ctx, st, info, err)
	}
	run.TraceID, run.Program = info.ID, info.Name
	if err := st.SaveRun(ctx, run, store.SaveOptions{Timeline: sampler.Sample()}); err != nil {
		return nil, err
	}
	return run, nil
}

// PredictFile ingests the trace file at path (ingest.TraceWith with opt)
// and, when it is new, predicts req in the same pass: the prediction is
// the check of the trace's meaning ingest makes (a defect refuses the
// trace with its file and line, and nothing is stored), so the trace is
// parsed and simulated once, not simulated twice. The run is stored as
// PredictOne stores it, with its picture, and returned. It returns no run,
// and the trace's info, when the trace was stored already, when the
// machine is not stored, or when the configuration cannot be simulated:
// PredictOne (or the stored prediction) then answers, as for a stored
// trace.
func PredictFile(ctx context.Context, st *store.Store, path string, req PredictRequest, opt ingest.TraceOptions) (store.TraceInfo, *result.Run, error) {
	m, minfo, err := st.Machine(req.Machine)
	if err != nil {
		info, err := ingest.TraceWith(ctx, st, path, opt)
		return info, nil, err
	}
	cfg := req.Config
	cfg.Machine, cfg.MachineID = minfo.Name, minfo.ID
	sampler := events.NewPictureSampler(cfg.Procs())
	var run *result.Run
	opt.Check = func(h *trace.Header, name string) ingest.CallCheck {
		sopt := req.Options
		if sopt.TraceFile == "" {
			sopt.TraceFile = name // the check's errors name the file so
		}
		sopt.Recorder, sopt.Stop = sampler, ctx.Err
		s, err := sim.NewStream(h, m, cfg, sopt)
		if err != nil { // PredictOne says why, after the check
			return sim.NewChecker(h, name)
		}
		return streamCheck{s, &run}
	}
	info, err := ingest.TraceWith(ctx, st, path, opt)
	if errors.Is(err, errNotTheTrace) {
		// The configuration failed, not the trace: the trace is stored
		// after the check alone, and PredictOne says what failed.
		opt.Check, opt.CheckMeaning = nil, true
		info, err = ingest.TraceWith(ctx, st, path, opt)
		return info, nil, err
	}
	if err != nil || run == nil {
		return info, nil, err
	}
	run.TraceID, run.Program = info.ID, info.Name
	if err := st.SaveRun(ctx, run, store.SaveOptions{Timeline: sampler.Sample()}); err != nil {
		return info, nil, err
	}
	return info, run, nil
}

// streamCheck is a prediction made as the check of a trace being
// ingested: its run is kept at the end. A failure that is no defect of the
// trace (a limit of the simulator the configuration needs more than, a
// run whose times overflow, a stop) is errNotTheTrace: the check alone
// decides then.
type streamCheck struct {
	s   *sim.Stream
	run **result.Run
}

// errNotTheTrace is a prediction made as a trace's check failing for its
// configuration, not for the trace.
var errNotTheTrace = errors.New("stage: the configuration, not the trace, failed")

func (c streamCheck) Add(call *trace.Call) error {
	if err := c.s.Add(call); err != nil {
		return checkFailure(err)
	}
	return nil
}

// checkFailure is err, a failure of the check's prediction, when the trace
// is at fault (an engine error that is no limit), else errNotTheTrace. It
// is out of streamCheck.Add so that the error's variable, which
// errors.As takes the address of, is not allocated at every call.
func checkFailure(err error) error {
	if ee := (*engine.Error)(nil); errors.As(err, &ee) && !ee.Limit {
		return err
	}
	return errNotTheTrace
}

func (c streamCheck) End() error {
	run, err := c.s.End()
	if err != nil { // finish's: times that overflow
		return errNotTheTrace
	}
	*c.run = run
	return nil
}
