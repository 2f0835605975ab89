package stage

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"strconv"

	"github.com/presage-dvm/presage/schema/store"
	"github.com/presage-dvm/presage/sim"
	"github.com/presage-dvm/presage/sim/events"
	"github.com/presage-dvm/presage/sim/result"
)

// Replay simulates stored run run (as store.Run loads it) again, with its
// stored trace, machine and configuration, reporting every state and
// message to rec. Runs are stored without events; the simulation is
// deterministic, so the replay is the stored run — Replay checks that
// every interval's Execution_time is the stored one, bit for bit, and
// fails otherwise (the trace or the model changed since the run was made).
func Replay(ctx context.Context, st *store.Store, run *result.Run, rec events.Recorder) error {
	runID := run.ID
	if run.Kind != result.Predicted || run.TraceID == 0 || run.Config.MachineID == 0 {
		what := string(run.Kind)
		if run.Kind == result.Predicted {
			what = "an orders simulation, or a prediction whose trace or machine is not stored"
		}
		return fmt.Errorf("run %d: a timeline needs a run predicted from a stored Lib-DVM trace on a stored machine (this one is %s)", runID, what)
	}
	opt, err := sim.OptionsFromNames(run.Config.Options)
	if err != nil {
		return fmt.Errorf("run %d: %w", runID, err)
	}
	info, err := st.Trace(strconv.FormatInt(run.TraceID, 10))
	if err != nil {
		return err
	}
	m, _, err := st.Machine(strconv.FormatInt(run.Config.MachineID, 10))
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	opt.TraceFile, opt.Recorder, opt.Stop = filepath.Base(info.Path), rec, ctx.Err
	cfg := run.Config
	cfg.Used = result.MachineValues{}
	tr, err := st.OpenTrace(ctx, info)
	if err != nil {
		return err
	}
	again, err := sim.Predict(tr.Header, tr, m, cfg, opt)
	tr.Close()
	if err != nil {
		return fmt.Errorf("run %d: replay: %w", runID, refuseOnDefect(ctx, st, info, err))
	}
	if err := sameTimes(run, again); err != nil {
		return fmt.Errorf("run %d: replay does not reproduce the stored run (%v): the trace or the model changed since", runID, err)
	}
	return nil
}

// sameTimes compares the Execution_time of every interval of two runs.
func sameTimes(stored, again *result.Run) error {
	if len(stored.Intervals) != len(again.Intervals) {
		return fmt.Errorf("%d intervals, stored %d", len(again.Intervals), len(stored.Intervals))
	}
	for i, iv := range stored.Intervals {
		a, b := iv.Values[result.ExecutionTime], again.Intervals[i].Values[result.ExecutionTime]
		if math.Float64bits(a) != math.Float64bits(b) {
			return fmt.Errorf("interval %d: Execution_time %v, stored %v", iv.ID, b, a)
		}
	}
	return nil
}

// StoreTimeline gives stored run run (as store.Run loads it) the
// per-processor picture that a run of a sweep is stored without, by
// replaying it, and returns it; a run that has one already is not
// replayed.
func StoreTimeline(ctx context.Context, st *store.Store, run *result.Run) (*events.Sample, error) {
	if sm, err := st.RunTimeline(ctx, run.ID); sm != nil || err != nil {
		return sm, err
	}
	sampler := events.NewPictureSampler(run.Config.Procs())
	if err := Replay(ctx, st, run, sampler); err != nil {
		return nil, err
	}
	sm := sampler.Sample()
	return sm, st.SaveRunTimeline(ctx, run.ID, sm)
}
