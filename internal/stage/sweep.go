package stage

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/presage-dvm/presage/schema/store"
	"github.com/presage-dvm/presage/schema/stored"
	"github.com/presage-dvm/presage/sim"
	"github.com/presage-dvm/presage/sim/engine"
	"github.com/presage-dvm/presage/sim/result"
	"github.com/presage-dvm/presage/sim/sweep"
)

// SweepRequest names what to sweep in terms of the store.
type SweepRequest struct {
	Kind     string   // sweep.KindSweep (default) or sweep.KindSearch
	Trace    string   // stored trace, name or id
	Machines []string // stored machines, names or ids
	Grids    [][]int
	// Procs, when it has counts, asks for every grid of rank 1..MaxRank
	// of each of its processor counts, instead of Grids; counts above the
	// largest machine's processors are left out before enumerating.
	Procs    ProcRange
	Networks []string  // default: the simulator's default network
	TStart   []float64 // seconds; default: the file's
	TByte    []float64 // seconds; default: the file's
	Power    []float64 // default: the file's
	// PerProcMax limits the per-processor rows to runs of at most this many
	// processors (0: always written).
	PerProcMax int
	Options    sim.Options
	Extra      string // see sweep.Definition.Extra
	// CountOnly plans a dry run: the configurations are counted by group
	// (sweep.NewCountedPlan), not listed, so that a product of millions
	// takes no memory; the plan cannot be run.
	CountOnly bool
}

// ProcRange is processor counts — the range Lo..Hi when Hi > 0, else
// the list Counts (a geometric range such as 1..1024:*2, any list) — with
// the largest grid rank. A range is kept as its bounds so that one far
// beyond the machines (1..2000000) costs nothing. Grids with trailing
// dimensions of size 1, equivalent to shorter ones (sweep.Distinct), are
// left out unless AllGrids.
type ProcRange struct {
	Lo, Hi   int
	Counts   []int
	MaxRank  int
	AllGrids bool
}

func (r ProcRange) String() string {
	if r.Hi > 0 {
		return fmt.Sprintf("%d..%d", r.Lo, r.Hi)
	}
	return strings.Trim(fmt.Sprint(r.Counts), "[]")
}

// grids returns the grids of r's counts up to most, and whether some
// counts were above.
func (r ProcRange) grids(most int) (grids [][]int, above bool) {
	if r.Hi > 0 {
		return sweep.GridsInRange(r.Lo, min(r.Hi, most), r.MaxRank), r.Hi > most
	}
	var counts []int
	for _, n := range r.Counts {
		if n <= most {
			counts = append(counts, n)
		} else {
			above = true
		}
	}
	return sweep.GridsOf(counts, r.MaxRank), above
}

// SweepPlan is a sweep plan with the stored trace it simulates.
type SweepPlan struct {
	*sweep.Plan
	Trace *CompiledTrace
	// ProcsAbove is the largest machine's processor count when
	// SweepRequest.Procs went beyond it (the counts above were left
	// out), else 0.
	ProcsAbove int
}

// PlanSweep loads and compiles the trace (once, for all configurations),
// loads the machines and enumerates the configurations.
func PlanSweep(ctx context.Context, st *store.Store, req SweepRequest) (*SweepPlan, error) {
	tr, err := CompileTrace(ctx, st, req.Trace, nil)
	if err != nil {
		return nil, err
	}
	return planFor(st, tr, req)
}

// planFor is PlanSweep for a trace compiled already (req.Trace is ignored).
func planFor(st *store.Store, tr *CompiledTrace, req SweepRequest) (*SweepPlan, error) {
	def := sweep.Definition{
		Kind: req.Kind, Trace: tr.Info.Name, Grids: req.Grids, Networks: req.Networks,
		TStart: req.TStart, TByte: req.TByte, Power: req.Power, PerProcMax: req.PerProcMax, Extra: req.Extra,
	}
	if tr.Info.SHA256 != "" {
		def.TraceSHA = tr.Info.SHA256
	} else {
		def.TraceXXH3 = tr.Info.XXH3
	}
	var machines []sweep.Machine
	for _, name := range req.Machines {
		m, info, err := st.Machine(name)
		if err != nil {
			return nil, err
		}
		machines = append(machines, sweep.Machine{Name: info.Name, ID: info.ID, SHA256: info.SHA256, Machine: m})
	}
	above := 0
	if r := req.Procs; r.Hi > 0 || len(r.Counts) > 0 {
		most := 0
		for _, m := range machines {
			most = max(most, m.Machine.Processors())
		}
		grids, beyond := r.grids(most)
		if len(grids) == 0 {
			return nil, fmt.Errorf("sweep: processors %s: the machines have at most %d", r, most)
		}
		if beyond {
			above = most
		}
		def.Grids = grids
		if !r.AllGrids {
			def.Grids = sweep.Distinct(def.Grids)
		}
	}
	opt := req.Options
	opt.TraceFile = filepath.Base(tr.Info.Path) // a defect names the file, as PredictOne's do
	newPlan := sweep.NewPlan
	if req.CountOnly {
		newPlan = sweep.NewCountedPlan
	}
	p, err := newPlan(def, tr.Program, machines, opt)
	if err != nil {
		return nil, err
	}
	return &SweepPlan{Plan: p, Trace: tr, ProcsAbove: above}, nil
}

// SweepOptions control how a plan is run.
type SweepOptions struct {
	// Workers simulate configurations concurrently; 0 means GOMAXPROCS.
	Workers int
	// Shard and Shards select the configurations whose index is Shard
	// modulo Shards; Shards 0 or 1 runs all.
	Shard, Shards int
	// Command is recorded with a new sweep row.
	Command string
	// Progress, when set, is called after each stored configuration.
	Progress func(Progress)
}

// Progress reports a running sweep.
type Progress struct {
	Done, Total int   // configurations stored by this run / to run
	Calls       int64 // traced calls simulated by this run
	Elapsed     time.Duration
	// Left estimates the time the rest needs, 0 when unknown: from each
	// configuration's expected cost, whose per-unit weights are refitted
	// to the measured times after every configuration (see estimator),
	// since sweeps run their costliest configurations first.
	Left time.Duration
}

// SweepSummary says what a run of a plan did.
type SweepSummary struct {
	SweepID  int64
	Selected int   // configurations of the shard
	Existing int   // already stored, skipped
	Reused   int   // predicted already outside the sweep: copied into it
	Ran      int   // simulated and stored now
	Calls    int64 // traced calls simulated
	Elapsed  time.Duration
	// Failed are the configurations that needed more than a limit of the
	// simulator (engine.Error.Limit): the sweep went on without them, and
	// running it again tries them again.
	Failed []Failure
}

// Failure is a configuration of a sweep that could not be simulated.
type Failure struct {
	Config string // as the plan describes it
	Err    error
}

// Sweep predicts the plan's configurations (of the shard opt selects) that
// the store lacks and stores each in its own transaction. Cancelling ctx
// stops it: runs being simulated or waiting to be written are dropped,
// stored ones stay, and running the same plan again completes the sweep.
func Sweep(ctx context.Context, st *store.Store, p *SweepPlan, opt SweepOptions) (SweepSummary, error) {
	selected, err := sweep.Shard(p.Configs, opt.Shard, opt.Shards)
	if err != nil {
		return SweepSummary{}, err
	}
	return SweepConfigs(ctx, st, p, selected, opt)
}

// SweepConfigs is Sweep for a chosen subset of the plan's configurations
// (the searches evaluate theirs round by round); opt's shard is ignored.
func SweepConfigs(ctx context.Context, st *store.Store, p *SweepPlan, selected []sweep.Config, opt SweepOptions) (SweepSummary, error) {
	save := store.SaveOptions{PerProcMax: p.Def.PerProcMax}
	return resume(ctx, st, resumable[sweep.Config, *result.Run]{
		row: stored.Sweep{TraceID: p.Trace.Info.ID, Kind: p.Def.Kind, Configs: len(p.Configs), Skipped: p.Skipped},
		def: p.Def, hash: p.Def.Hash(), calls: int64(p.Program.Calls()),
		simulate: func(ctx context.Context, c sweep.Config) (*result.Run, error) {
			run, err := p.Simulate(ctx, c)
			return run, p.Trace.Verdict(ctx, err)
		},
		reuse: func(ctx context.Context, id int64, c sweep.Config) (bool, error) {
			cfg := result.Config{Grid: c.Grid, Network: c.Network, TStart: c.TStart, TByte: c.TByte, Power: c.Power}
			from, ok, err := predictionLike(ctx, st, id, p.Trace.Info.ID, p.Machines[c.Machine].ID, cfg, strings.Join(p.Options.Names(), ","))
			if err != nil || !ok {
				return false, err
			}
			return st.CopySweepRun(ctx, from, id, c.Index, save)
		},
		cost:     func(c sweep.Config) Cost { return dvmCost(int64(p.Program.Calls()), c.Procs()) },
		describe: p.Describe,
		save: func(id int64, c sweep.Config, run *result.Run) (bool, error) {
			run.SweepID, run.TraceID, run.Program = id, p.Trace.Info.ID, p.Trace.Info.Name
			saved, err := st.SaveSweepRun(ctx, run, c.Index, save)
			if err != nil {
				return false, fmt.Errorf("store configuration %d (%s): %w", c.Index, p.Describe(c), err)
			}
			return saved, nil
		},
	}, selected, opt)
}

// overLimit reports whether err is a configuration needing more than a
// limit of the simulator, which a sweep skips.
func overLimit(err error) bool {
	var e *engine.Error
	return errors.As(err, &e) && e.Limit
}

// resumable is a sweep as the resume loop sees it, whatever its engine:
// C is its configuration, R what simulating one gives.
type resumable[C sweep.Positioned, R any] struct {
	// row is the sweep's row without its hash and definition (def and
	// hash), which identify it; the command is opt's.
	row  stored.Sweep
	def  any
	hash string
	// calls is the traced calls one configuration simulates (0: not counted).
	calls    int64
	simulate func(context.Context, C) (R, error)
	// reuse, when set, copies into sweep id at c's position a run of the
	// store predicted already outside the sweep with c's configuration,
	// and reports whether it did: c then needs no simulation.
	reuse func(ctx context.Context, id int64, c C) (bool, error)
	// cost is a configuration's expected cost, for Progress.Left.
	cost func(C) Cost
	// describe names a configuration in a Failure.
	describe func(C) string
	// save stores a finished configuration of sweep id at its position;
	// saved is false when another process had stored that position first.
	save func(id int64, c C, r R) (saved bool, err error)
}

// resume is the loop every kind of sweep runs: it finds the sweep's row
// by its hash (creating it the first time), leaves out the selected
// configurations whose positions the store holds, simulates the others
// in their order on opt.Workers workers (sweep.Execute) and saves each as
// it finishes, in its own transaction, reporting progress. So a sweep
// cancelled, killed or split into shards ends with the same rows as one
// run straight through. A row it created is removed again when the sweep
// fails before any configuration is stored (dropIfNothingStored).
func resume[C sweep.Positioned, R any](ctx context.Context, st *store.Store, sw resumable[C, R], selected []C, opt SweepOptions) (sum SweepSummary, err error) {
	start := time.Now()
	def, err := json.Marshal(sw.def)
	if err != nil {
		return sum, err
	}
	row := sw.row
	row.Hash, row.Definition, row.Command = sw.hash, string(def), opt.Command
	created := false
	if sum.SweepID, created, err = st.EnsureSweepCreated(ctx, row); err != nil {
		return sum, err
	}
	if created {
		defer func() { dropIfNothingStored(ctx, st, &sum, err) }()
	}
	done, err := st.SweepDone(ctx, sum.SweepID)
	if err != nil {
		return sum, err
	}
	sum.Selected = len(selected)
	var todo []C
	for _, c := range selected {
		if done[c.Position()] {
			sum.Existing++
			continue
		}
		todo = append(todo, c)
	}
	if sw.reuse != nil {
		left := todo[:0]
		for _, c := range todo {
			copied, err := sw.reuse(ctx, sum.SweepID, c)
			if err != nil {
				return sum, err
			}
			if copied {
				sum.Reused++
			} else {
				left = append(left, c)
			}
		}
		todo = left
	}
	var total Cost
	for _, c := range todo {
		total = total.add(sw.cost(c))
	}
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	eta := newEstimator(total, len(todo), workers)
	// Each simulation is timed by itself: with concurrent workers the
	// times between finishes say little of a configuration's cost.
	type timed struct {
		r      R
		took   time.Duration
		failed error // over a limit of the simulator: a Failure, not the sweep's end
	}
	simulate := func(ctx context.Context, c C) (timed, error) {
		t0 := time.Now()
		r, err := sw.simulate(ctx, c)
		if overLimit(err) {
			return timed{took: time.Since(t0), failed: err}, nil
		}
		return timed{r: r, took: time.Since(t0)}, err
	}
	err = sweep.Execute(ctx, todo, opt.Workers, simulate, func(c C, t timed) error {
		if t.failed != nil {
			sum.Failed = append(sum.Failed, Failure{Config: sw.describe(c), Err: t.failed})
			eta.finished(sw.cost(c), t.took)
			return nil
		}
		saved, err := sw.save(sum.SweepID, c, t.r)
		if err != nil {
			return err
		}
		// Run here or by another process, it is work no longer left.
		eta.finished(sw.cost(c), t.took)
		if !saved { // another process running the same sweep was first
			sum.Existing++
			return nil
		}
		sum.Ran++
		sum.Calls += sw.calls
		if opt.Progress != nil {
			opt.Progress(Progress{Done: sum.Ran, Total: len(todo), Calls: sum.Calls, Elapsed: time.Since(start), Left: eta.remaining()})
		}
		return nil
	})
	sum.Elapsed = time.Since(start)
	return sum, err
}

// dropIfNothingStored removes the row of a sweep that resume created when
// the sweep failed (err, or every configuration over a limit) before any
// configuration was stored, by this process or another: a failed sweep
// leaves no empty sweep behind, and running it again creates the row
// anew. sum.SweepID is then 0.
func dropIfNothingStored(ctx context.Context, st *store.Store, sum *SweepSummary, err error) {
	if err == nil && len(sum.Failed) == 0 {
		return
	}
	if dropped, _ := st.DropEmptySweep(ctx, sum.SweepID); dropped {
		sum.SweepID = 0
	}
}
