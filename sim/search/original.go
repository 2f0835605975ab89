package search

import (
	"context"
	"fmt"
	"strconv"
	"strings"
)

// Evaluator predicts grids and returns the execution time of each (the
// search objective E). A batch may be evaluated concurrently.
type Evaluator func(ctx context.Context, grids [][]int) ([]float64, error)

// Result is the outcome of the original's search.
type Result struct {
	Best     []int
	BestE    float64
	Checked  int // evaluations of the last pass (mode 5: of its mode-2 pass)
	Variants int // grids generated
	NotBad   int // grids with a non-zero mark
	Log      []string
}

// state is the best configuration so far and the log.
type state struct {
	best    []int
	bestE   float64
	checked int
	log     []string
	cache   map[string]float64
	eval    Evaluator
}

// evaluate predicts the grids (those not evaluated before, as a batch) and
// updates the best in order, logging one iter= line per grid like the
// original.
func (s *state) evaluate(ctx context.Context, grids [][]int) ([]float64, error) {
	var todo [][]int
	for _, g := range grids {
		if _, ok := s.cache[key(g)]; !ok {
			todo = append(todo, g)
		}
	}
	if len(todo) > 0 {
		es, err := s.eval(ctx, todo)
		if err != nil {
			return nil, err
		}
		for i, g := range todo {
			s.cache[key(g)] = es[i]
		}
	}
	out := make([]float64, len(grids))
	for i, g := range grids {
		e := s.cache[key(g)]
		out[i] = e
		s.checked++
		s.log = append(s.log, fmt.Sprintf("iter=%d best: %s - %f; check proc_set(%d): %s - %f",
			s.checked, dims(s.best), s.bestE, procs(g), dims(g), e))
		if e < s.bestE {
			s.best, s.bestE = g, e
		}
	}
	return out, nil
}

// Original runs the original's search in the given mode (docs/model.md §1.7)
// from the first run's grid and execution time. numproc is the number of
// processors of the machine.
func Original(ctx context.Context, mode int, numproc int, ms [MaxRank]int, first []int, firstE float64, eval Evaluator) (*Result, error) {
	rank := Rank(ms)
	if mode == 0 || rank == 0 {
		return nil, fmt.Errorf("search: mode %d with grid rank %d: nothing to search (the trace distributes no template)", mode, rank)
	}
	kept, variants, notBad := Candidates(numproc, ms, mode == 3)
	s := &state{best: first, bestE: firstE, cache: map[string]float64{key(first): firstE}, eval: eval}
	var err error
	switch mode {
	case 1:
		err = s.heuristic(ctx, kept, ms, rank)
	case 5:
		if err = s.heuristic(ctx, kept, ms, rank); err == nil {
			s.log = append(s.log, s.summary(numproc, variants, notBad)...)
			// The second pass starts again from the first run, whose time
			// the original keeps in single precision.
			s.checked, s.best, s.bestE = 0, first, float64(float32(firstE))
			err = s.full(ctx, kept)
		}
	default: // 2, 3 and any other non-zero mode
		err = s.full(ctx, kept)
	}
	if err != nil {
		return nil, err
	}
	s.log = append(s.log, s.summary(numproc, variants, notBad)...)
	return &Result{Best: s.best, BestE: s.bestE, Checked: s.checked, Variants: variants, NotBad: notBad, Log: s.log}, nil
}

func (s *state) summary(numproc, variants, notBad int) []string {
	return []string{
		fmt.Sprintf("Best set of processors (for cluster with %d processors) = %s", numproc, dims(s.best)),
		fmt.Sprintf("Checked variants : %d of %d (not-bad %d)", s.checked, variants, notBad),
	}
}

// full evaluates every kept configuration in generation order (modes 2, 3).
func (s *state) full(ctx context.Context, kept []Candidate) error {
	grids := make([][]int, len(kept))
	for i, c := range kept {
		grids[i] = c.Grid
	}
	_, err := s.evaluate(ctx, grids)
	return err
}

func key(g []int) string { return dims(g) }

func dims(g []int) string {
	parts := make([]string, len(g))
	for i, d := range g {
		parts[i] = strconv.Itoa(d)
	}
	return strings.Join(parts, " ")
}

func procs(g []int) int {
	n := 1
	for _, d := range g {
		n *= d
	}
	return n
}
