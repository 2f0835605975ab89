package stage

import (
	"context"
	"fmt"
	"slices"

	"github.com/presage-dvm/presage/schema/store"
	"github.com/presage-dvm/presage/schema/stored"
	"github.com/presage-dvm/presage/sim"
	"github.com/presage-dvm/presage/sim/result"
	"github.com/presage-dvm/presage/sim/search"
	"github.com/presage-dvm/presage/sim/sweep"
)

// SearchRequest says what to search.
type SearchRequest struct {
	Trace, Machine string
	// Lo..Hi is the range of processor counts (Hi 0 = the machine's). The
	// original's modes search 1..Hi, as it searches 1..NUMPROC.
	Lo, Hi int
	// AllGrids keeps, in Presage's search, the grids with trailing
	// dimensions of size 1 that sweep.Distinct leaves out.
	AllGrids bool
	// MaxRank bounds the grid ranks of Presage's search; 0 = the rank of
	// the trace's distributions (at least 1).
	MaxRank int
	// Mode 0 is Presage's search; 1, 2, 3 and 5 the original's.
	Mode      int
	Objective search.Objective
	// Overrides of the machine file's start-up time, time per byte and
	// power (result.Config's fields; 0 keeps the file's) apply to every
	// configuration.
	Overrides result.Config
	// Constraints limit the configurations the answers choose from.
	Constraints Constraints
	// First is the grid of the original's first run, the initial best
	// (default [1], the original's without grid arguments).
	First []int
	// IncludeDoubtful answers from the doubtful configurations (outside
	// the model's domain: result.Warning) too; by default they are left
	// out of the answers, and counted in DoubtfulLeftOut.
	IncludeDoubtful bool
	PerProcMax      int
	Workers         int
	Options         sim.Options
	Progress        func(Progress)
	Command         string
}

// SearchReport is the outcome of a search.
type SearchReport struct {
	SweepID  int64
	MinSizes [search.MaxRank]int
	// Answers are the planning questions answered over the evaluated
	// configurations; Answers.Ranked is best first by the objective.
	Answers
	// Stored counts the evaluated configurations the store held before
	// the search (in any sweep or prediction), Simulated those it
	// predicted now; Failed are those over a limit of the simulator, left
	// out of the answers.
	Stored, Simulated int
	Failed            []Failure
	// DoubtfulLeftOut counts the evaluated configurations left out of
	// the answers as doubtful.
	DoubtfulLeftOut int
	Original        *search.Result // the original's modes only
}

// Search performs the search, storing every evaluated configuration as a
// run of a sweep of kind "search" (re-running it reuses them).
func Search(ctx context.Context, st *store.Store, req SearchRequest) (*SearchReport, error) {
	if req.Objective == "" {
		req.Objective = search.Time
	}
	if !slices.Contains([]search.Objective{search.Time, search.Efficiency, search.Cost}, req.Objective) {
		return nil, fmt.Errorf("search: objective %q: expected time, efficiency or cost", req.Objective)
	}
	sizer := search.NewSizer(req.Trace)
	tr, err := CompileTrace(ctx, st, req.Trace, sizer.Add)
	if err != nil {
		return nil, err
	}
	ms := sizer.Sizes()
	m, _, err := st.Machine(req.Machine)
	if err != nil {
		return nil, err
	}
	hi := m.Processors()
	if req.Hi > 0 {
		hi = min(req.Hi, hi)
	}
	rep := &SearchReport{MinSizes: ms}
	grids, extra, err := searchGrids(req, ms, hi)
	if err != nil {
		return nil, err
	}
	plan, err := planFor(st, tr, SweepRequest{Kind: sweep.KindSearch, Machines: []string{req.Machine},
		Grids: grids, PerProcMax: req.PerProcMax, Options: req.Options, Extra: extra,
		TStart: given(req.Overrides.TStart), TByte: given(req.Overrides.TByte), Power: given(req.Overrides.Power)})
	if err != nil {
		return nil, err
	}
	opt := SweepOptions{Workers: req.Workers, Command: req.Command, Progress: req.Progress}
	if req.Mode == 0 {
		sum, err := Sweep(ctx, st, plan, opt)
		if err != nil {
			return nil, err
		}
		if sum.SweepID == 0 && len(sum.Failed) > 0 { // the sweep's row was dropped: nothing to answer from
			return nil, fmt.Errorf("search: all %d configurations failed, over a limit of the simulator, nothing stored: %s: %w", len(sum.Failed), sum.Failed[0].Config, sum.Failed[0].Err)
		}
		rep.count(sum)
	} else {
		eval := evaluator(st, plan, opt, rep)
		first := req.First
		if len(first) == 0 {
			first = []int{1}
		}
		es, err := eval(ctx, [][]int{first})
		if err != nil {
			return nil, err
		}
		if rep.Original, err = search.Original(ctx, req.Mode, hi, ms, first, es[0], eval); err != nil {
			return nil, err
		}
	}
	out, err := st.SweepOutcomes(ctx, rep.SweepID)
	if err != nil {
		return nil, err
	}
	kept := make([]stored.Outcome, 0, len(out))
	for _, o := range out {
		if o.Doubtful && !req.IncludeDoubtful {
			rep.DoubtfulLeftOut++
			continue
		}
		kept = append(kept, o)
	}
	rep.Answers = Answer(kept, req.Constraints, req.Objective)
	return rep, nil
}

// count adds a round of evaluations to the report.
func (rep *SearchReport) count(sum SweepSummary) {
	rep.SweepID = sum.SweepID
	rep.Stored += sum.Existing + sum.Reused
	rep.Simulated += sum.Ran
	rep.Failed = append(rep.Failed, sum.Failed...)
}

// searchGrids returns the grids a search may evaluate and what
// distinguishes its definition from a sweep's.
func searchGrids(req SearchRequest, ms [search.MaxRank]int, hi int) ([][]int, string, error) {
	if req.Mode == 0 {
		r := req.MaxRank
		if r == 0 {
			r = max(1, search.Rank(ms))
		}
		lo := max(req.Lo, 1)
		if lo > hi {
			return nil, "", fmt.Errorf("search: processors %d..%d: the machine has %d", lo, req.Hi, hi)
		}
		grids := sweep.GridsInRange(lo, hi, r)
		if !req.AllGrids {
			grids = sweep.Distinct(grids)
		}
		return grids, "", nil
	}
	kept, _, _ := search.Candidates(hi, ms, req.Mode == 3)
	if search.Rank(ms) == 0 {
		return nil, "", fmt.Errorf("search: mode %d: the trace distributes no template, nothing to search", req.Mode)
	}
	first := req.First
	if len(first) == 0 {
		first = []int{1}
	}
	grids := [][]int{first}
	for _, c := range kept {
		if !slices.Equal(c.Grid, first) {
			grids = append(grids, c.Grid)
		}
	}
	return grids, fmt.Sprintf("mode=%d", req.Mode), nil
}

// evaluator predicts grids of the plan through the sweep runner (stored,
// concurrent, skipping stored ones) and returns their execution times.
func evaluator(st *store.Store, plan *SweepPlan, opt SweepOptions, rep *SearchReport) search.Evaluator {
	byGrid := map[string]sweep.Config{}
	for _, c := range plan.Configs {
		byGrid[result.GridString(c.Grid)] = c
	}
	return func(ctx context.Context, grids [][]int) ([]float64, error) {
		cfgs := make([]sweep.Config, len(grids))
		for i, g := range grids {
			c, ok := byGrid[result.GridString(g)]
			if !ok {
				return nil, fmt.Errorf("search: grid %s is not a configuration of the search", result.GridString(g))
			}
			cfgs[i] = c
		}
		sum, err := SweepConfigs(ctx, st, plan, cfgs, opt)
		if err != nil {
			return nil, err
		}
		rep.count(sum)
		out, err := st.SweepOutcomes(ctx, sum.SweepID)
		if err != nil {
			return nil, err
		}
		es := make([]float64, len(cfgs))
		for i, c := range cfgs {
			o, ok := out[c.Index]
			if !ok && len(sum.Failed) > 0 { // the original's search needs every time it asked for
				return nil, fmt.Errorf("search: %s: %w", sum.Failed[0].Config, sum.Failed[0].Err)
			}
			es[i] = o.Time
		}
		return es, nil
	}
}

// given is the list of one override, empty for the machine file's value.
func given(v float64) []float64 {
	if v == 0 {
		return nil
	}
	return []float64{v}
}
