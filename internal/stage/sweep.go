package stage

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/presage-dvm/presage/schema/store"
	"github.com/presage-dvm/presage/schema/stored"
	"github.com/presage-dvm/presage/sim"
	"github.com/presage-dvm/presage/sim/result"
	"github.com/presage-dvm/presage/sim/sweep"
)

// SweepRequest names what to sweep in terms of the store.
type SweepRequest struct {
	Kind     string   // sweep.KindSweep (default) or sweep.KindSearch
	Trace    string   // stored trace, name or id
	Machines []string // stored machines, names or ids
	Grids    [][]int
	// Procs, when Hi > 0, asks for every grid of rank 1..MaxRank whose
	// processor count is in Lo..Hi, instead of Grids; counts above the
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
}

// ProcRange is a range of processor counts with the largest grid rank.
// Grids with trailing dimensions of size 1, equivalent to shorter ones
// (sweep.Distinct), are left out unless AllGrids.
type ProcRange struct {
	Lo, Hi, MaxRank int
	AllGrids        bool
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
	if r := req.Procs; r.Hi > 0 {
		most := 0
		for _, m := range machines {
			most = max(most, m.Machine.Processors())
		}
		if r.Lo > most {
			return nil, fmt.Errorf("sweep: processors %d..%d: the machines have at most %d", r.Lo, r.Hi, most)
		}
		if r.Hi > most {
			above = most
		}
		def.Grids = sweep.GridsInRange(r.Lo, min(r.Hi, most), r.MaxRank)
		if !r.AllGrids {
			def.Grids = sweep.Distinct(def.Grids)
		}
	}
	opt := req.Options
	opt.Trace = tr.Info.Name
	p, err := sweep.NewPlan(def, tr.Program, machines, opt)
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
}

// SweepSummary says what a run of a plan did.
type SweepSummary struct {
	SweepID  int64
	Selected int   // configurations of the shard
	Existing int   // already stored, skipped
	Ran      int   // simulated and stored now
	Calls    int64 // traced calls simulated
	Elapsed  time.Duration
}

// Sweep predicts the plan's configurations (of the shard opt selects) that
// the store lacks and stores each in its own transaction. Cancelling ctx
// stops it: runs being simulated or waiting to be written are dropped,
// stored ones stay, and running the same plan again completes the sweep.
func Sweep(ctx context.Context, st *store.Store, p *SweepPlan, opt SweepOptions) (SweepSummary, error) {
	if opt.Shards > 1 && (opt.Shard < 0 || opt.Shard >= opt.Shards) {
		return SweepSummary{}, fmt.Errorf("shard %d/%d: expected 0 <= I < N", opt.Shard, opt.Shards)
	}
	return SweepConfigs(ctx, st, p, sweep.Shard(p.Configs, opt.Shard, opt.Shards), opt)
}

// SweepConfigs is Sweep for a chosen subset of the plan's configurations
// (the searches evaluate theirs round by round); opt's shard is ignored.
func SweepConfigs(ctx context.Context, st *store.Store, p *SweepPlan, selected []sweep.Config, opt SweepOptions) (SweepSummary, error) {
	start := time.Now()
	var sum SweepSummary
	id, err := ensureSweep(ctx, st, p, opt.Command)
	if err != nil {
		return sum, err
	}
	sum.SweepID = id
	done, err := st.SweepDone(ctx, id)
	if err != nil {
		return sum, err
	}
	sum.Selected = len(selected)
	var todo []sweep.Config
	for _, c := range selected {
		if done[c.Index] {
			sum.Existing++
			continue
		}
		todo = append(todo, c)
	}
	save := store.SaveOptions{PerProcMax: p.Def.PerProcMax}
	err = sweep.Execute(ctx, todo, opt.Workers, p.Simulate, func(c sweep.Config, run *result.Run) error {
		run.SweepID, run.TraceID, run.Program = id, p.Trace.Info.ID, p.Trace.Info.Name
		stored, err := st.SaveSweepRun(ctx, run, c.Index, save)
		if err != nil {
			return fmt.Errorf("store configuration %d (%s): %w", c.Index, p.Describe(c), err)
		}
		if !stored { // another process running the same sweep was first
			sum.Existing++
			return nil
		}
		sum.Ran++
		sum.Calls += int64(p.Program.Calls())
		if opt.Progress != nil {
			opt.Progress(Progress{Done: sum.Ran, Total: len(todo), Calls: sum.Calls, Elapsed: time.Since(start)})
		}
		return nil
	})
	sum.Elapsed = time.Since(start)
	return sum, err
}

// ensureSweep returns the id of the plan's sweep, creating its row when
// the store has none.
func ensureSweep(ctx context.Context, st *store.Store, p *SweepPlan, command string) (int64, error) {
	def, err := json.Marshal(p.Def)
	if err != nil {
		return 0, err
	}
	return st.EnsureSweep(ctx, stored.Sweep{TraceID: p.Trace.Info.ID, Kind: p.Def.Kind, Command: command,
		Hash: p.Def.Hash(), Definition: string(def), Configs: len(p.Configs), Skipped: p.Skipped})
}
