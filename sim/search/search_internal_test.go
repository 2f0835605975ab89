package search

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/sim/trace"
)

func TestMark(t *testing.T) {
	ms := [MaxRank]int{8, 8}
	for _, tc := range []struct {
		grid []int
		want int
	}{
		{[]int{1, 1}, 10000},
		{[]int{8, 8}, 10000},
		{[]int{3, 8}, 6666}, // last block 2 of 3: float32(2/3) = 0.6666667
		{[]int{5, 1}, 0},    // blocks of 2: the fifth processor gets nothing
		{[]int{9, 1}, 0},    // more processors than elements
		{[]int{2, 0}, 0},    // not a grid: a zero size fills nothing
		{[]int{1, 1, 1}, 0}, // a dimension the trace does not distribute
	} {
		if got := Mark(tc.grid, ms); got != tc.want {
			t.Errorf("Mark(%v, %v) = %d, want %d", tc.grid, ms, got, tc.want)
		}
	}
	if got := Mark([]int{4}, [MaxRank]int{10}); got != 3333 {
		t.Errorf("Mark([4], [10]) = %d, want 3333 (blocks of 3, last 1)", got)
	}
}

func TestCandidates(t *testing.T) {
	kept, variants, notBad := Candidates(4, [MaxRank]int{4}, false)
	want := []Candidate{{[]int{1}, 1, 10000}, {[]int{2}, 2, 10000}, {[]int{4}, 4, 10000}}
	if !reflect.DeepEqual(kept, want) || variants != 4 || notBad != 3 {
		t.Errorf("Candidates(4, [4]) = %v, %d, %d", kept, variants, notBad)
	}
	all, _, _ := Candidates(4, [MaxRank]int{4}, true)
	if len(all) != 4 || all[2].Mark != 0 {
		t.Errorf("all candidates: %v", all)
	}
	if k, v, _ := Candidates(4, [MaxRank]int{}, false); k != nil || v != 0 {
		t.Errorf("rank 0: %v, %d", k, v)
	}
}

func TestMinSizesHandMade(t *testing.T) {
	call := func(fn, in, out string) *trace.Call {
		c := &trace.Call{Func: fn, TraceLine: 7}
		c.In, _ = trace.ParseParams(in)
		c.Out, _ = trace.ParseParams(out)
		return c
	}
	calls := []*trace.Call{
		call("crtamv_", "Rank=2;\nSizeArray[0]=100; SizeArray[1]=30;", "AMViewRef=a0;"),
		call("crtamv_", "Rank=1;\nSizeArray[0]=50;", "AMViewRef=b0;"),
		// VM dim 0 <- template dim 2 (30), VM dim 1 <- template dim 1 (100).
		call("distr_", "AMViewRef=a0; ParamCount=2;\nAxisArray[0]=2; AxisArray[1]=1;", ""),
		// VM dim 0 <- 50 (larger than 30), dim 1 replicated.
		call("distr_", "AMViewRef=0xb0; ParamCount=2;\nAxisArray[0]=1; AxisArray[1]=0;", ""),
	}
	ms, err := MinSizes("t.ptr", calls)
	if err != nil {
		t.Fatal(err)
	}
	if ms != [MaxRank]int{50, 100} || Rank(ms) != 2 {
		t.Errorf("MinSizes = %v (rank %d), want [50 100 0 0] (rank 2)", ms, Rank(ms))
	}
	_, err = MinSizes("t.ptr", []*trace.Call{call("distr_", "AMViewRef=c0; ParamCount=1;\nAxisArray[0]=1;", "")})
	if err == nil || !strings.Contains(err.Error(), "t.ptr:7") {
		t.Errorf("distr_ of an unknown template: error %v", err)
	}
}

// table is an evaluator over fixed times that counts the predictions.
func table(es map[string]float64, predicted *int) Evaluator {
	return func(_ context.Context, grids [][]int) ([]float64, error) {
		out := make([]float64, len(grids))
		for i, g := range grids {
			out[i] = es[key(g)]
			*predicted++
		}
		return out, nil
	}
}

// TestHeuristicHandTraced follows mode 1 on a one-dimensional case traced
// by hand from docs/model.md §1.7: rounds at K = 2 (median), 1 (LO after a best
// round) and 4 (HI).
func TestHeuristicHandTraced(t *testing.T) {
	es := map[string]float64{"1": 10, "2": 6, "4": 8}
	var predicted int
	res, err := Original(context.Background(), 1, 4, [MaxRank]int{4}, []int{1}, 10, table(es, &predicted))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"Search 3 (1 - 4)   mark=100%",
		"iter=1 best: 1 - 10.000000; check proc_set(2): 2 - 6.000000",
		"Search 2 (1 - 4)   mark=100%",
		"iter=2 best: 2 - 6.000000; check proc_set(1): 1 - 10.000000",
		"Search 1 (4 - 4)   mark=100%",
		"iter=3 best: 2 - 6.000000; check proc_set(4): 4 - 8.000000",
		"Best set of processors (for cluster with 4 processors) = 2",
		"Checked variants : 3 of 4 (not-bad 3)",
	}
	if !reflect.DeepEqual(res.Log, want) {
		t.Errorf("log:\n%s\nwant:\n%s", strings.Join(res.Log, "\n"), strings.Join(want, "\n"))
	}
	if !reflect.DeepEqual(res.Best, []int{2}) || res.BestE != 6 || res.Checked != 3 {
		t.Errorf("result %+v", res)
	}
	// The first run's grid was known: only 2 and 4 were predicted.
	if predicted != 2 {
		t.Errorf("%d predictions, want 2", predicted)
	}
}

func TestClassPruning(t *testing.T) {
	var cs classes
	for _, m := range []member{{[]int{2, 1}, 5}, {[]int{2, 2}, 3}, {[]int{2, 4}, 4}} {
		cs.file(m.grid, m.e)
	}
	list := []Candidate{{Grid: []int{2, 1}}, {Grid: []int{2, 8}}, {Grid: []int{3, 8}}, {Grid: []int{2, 4}}}
	got := cs.prune(list, 3, 2)
	// In the class 2 x *, the best is 2x2 and 2x4 is clearly worse: beyond
	// it, 2x8 goes; 3x8 is of another class.
	want := []Candidate{{Grid: []int{2, 1}}, {Grid: []int{3, 8}}, {Grid: []int{2, 4}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("pruned list %v, want %v", got, want)
	}
}

func TestFullModes(t *testing.T) {
	ms := [MaxRank]int{4, 4}
	es := map[string]float64{}
	kept, _, _ := Candidates(16, ms, true)
	for _, c := range kept {
		// Best at 2x4; 3x1 would be better still but has mark 0.
		d0, d1 := float64(c.Grid[0]-2), float64(c.Grid[1]-4)
		es[key(c.Grid)] = 1 + d0*d0 + d1*d1
	}
	es["3 1"] = 0.5
	es["1"] = 100
	for _, tc := range []struct {
		mode    int
		best    string
		checked int
	}{
		{2, "2 4", 9},  // the marked grids: 1, 2, 4 in each dimension
		{3, "3 1", 50}, // every factorisation of 1..16
		{5, "2 4", 9},
	} {
		var n int
		res, err := Original(context.Background(), tc.mode, 16, ms, []int{1}, 100, table(es, &n))
		if err != nil {
			t.Fatal(err)
		}
		if key(res.Best) != tc.best || res.Checked != tc.checked {
			t.Errorf("mode %d: best %v after %d checks, want %s after %d", tc.mode, res.Best, res.Checked, tc.best, tc.checked)
		}
	}
	var n1 int
	res, err := Original(context.Background(), 1, 16, ms, []int{1}, 100, table(es, &n1))
	if err != nil {
		t.Fatal(err)
	}
	if res.Checked >= 9 || res.BestE >= 100 {
		t.Errorf("mode 1: %d checks, best %v %g: want fewer than the full search and an improvement", res.Checked, res.Best, res.BestE)
	}
}

// MinSizes computes MinSizesOfAM (docs/model.md §1.7) from a trace: for every
// distr_, for each VM dimension i it distributes, the largest size of the
// template (crtamv_) dimension mapped on it. The original collects it
// during its first run; the template sizes and axes do not depend on the
// grid, so the trace alone determines it.
func MinSizes(file string, calls []*trace.Call) ([MaxRank]int, error) {
	s := NewSizer(file)
	for _, c := range calls {
		if err := s.Add(c); err != nil {
			return s.Sizes(), err
		}
	}
	return s.Sizes(), nil
}
