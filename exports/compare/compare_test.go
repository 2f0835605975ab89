package compare

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/sim/result"
)

// pairs lists the matches as "predicted=measured/method".
func pairs(c *Comparison) string {
	var out []string
	for _, m := range c.Matches {
		out = append(out, fmt.Sprintf("%d=%d/%s", m.Predicted.ID, m.Measured.ID, m.By))
	}
	return strings.Join(out, " ")
}

func ids(refs []Ref) string {
	var out []string
	for _, r := range refs {
		out = append(out, fmt.Sprint(r.ID))
	}
	return strings.Join(out, " ")
}

func TestMatching(t *testing.T) {
	const (
		M = result.Main
		S = result.Seq
		P = result.Par
		U = result.User
	)
	meas := func(root int, ivs ...iv) *result.Run { return newRun(result.Measured, []int{2}, root, ivs...) }
	pred := func(root int, ivs ...iv) *result.Run { return newRun(result.Predicted, []int{2}, root, ivs...) }
	tests := []struct {
		name                string
		measured, predicted *result.Run
		want                string // pairs
		wantUnM, wantUnP    string // unmatched IDs
		wantOutM, wantOutP  string // outside the report trees
	}{
		{
			name: "same tree",
			measured: meas(1, iv{1, 0, M, "a.fdv", 1, nil, 4}, iv{2, 1, P, "a.fdv", 5, nil, 1},
				iv{3, 1, S, "a.fdv", 9, nil, 2}, iv{4, 3, P, "a.fdv", 10, nil, 1}),
			predicted: pred(1, iv{1, 0, M, "a.fdv", 1, nil, 4}, iv{2, 1, P, "a.fdv", 5, nil, 1},
				iv{3, 1, S, "a.fdv", 9, nil, 2}, iv{4, 3, P, "a.fdv", 10, nil, 1}),
			want: "1=1/root 2=2/path 3=3/path 4=4/path",
		},
		{
			name: "unmatched on both sides",
			measured: meas(1, iv{1, 0, M, "a.fdv", 1, nil, 4}, iv{2, 1, P, "a.fdv", 5, nil, 1},
				iv{3, 1, P, "a.fdv", 7, nil, 1}, iv{4, 3, S, "a.fdv", 8, nil, 1}),
			predicted: pred(0, iv{1, 0, M, "a.fdv", 1, nil, 4}, iv{2, 1, P, "a.fdv", 5, nil, 1},
				iv{3, 1, P, "a.fdv", 6, nil, 1}),
			want: "1=1/root 2=2/path", wantUnM: "3 4", wantUnP: "3",
		},
		{
			name:      "different roots",
			measured:  jacMeasured(5, 1, 4, 2, 2),
			predicted: jacPredicted(5, 1, 4, 2, 2),
			want:      "2=1/root 3=2/path 4=3/path 5=4/path 6=5/path", wantOutP: "1",
		},
		{
			name: "anchor on the other tree's interval with the root's key",
			measured: meas(1, iv{1, 0, M, "a.fdv", 1, nil, 4}, iv{2, 1, S, "a.fdv", 3, nil, 3},
				iv{3, 2, P, "a.fdv", 5, nil, 1}),
			predicted: pred(2, iv{1, 0, M, "a.fdv", 1, nil, 4}, iv{2, 1, S, "a.fdv", 3, nil, 3},
				iv{3, 2, P, "a.fdv", 5, nil, 1}),
			want: "2=2/root 3=3/path", wantUnM: "1", wantOutP: "1",
		},
		{
			name: "anchor in the predicted tree",
			measured: meas(2, iv{1, 0, M, "a.fdv", 1, nil, 4}, iv{2, 1, S, "a.fdv", 3, nil, 3},
				iv{3, 2, P, "a.fdv", 5, nil, 1}),
			predicted: pred(0, iv{1, 0, M, "a.fdv", 2, nil, 4}, iv{2, 1, S, "a.fdv", 3, nil, 3},
				iv{3, 2, P, "a.fdv", 5, nil, 1}),
			want: "2=2/root 3=3/path", wantUnP: "1", wantOutM: "1",
		},
		{
			name: "key fallback below an extra level, then path",
			measured: meas(1, iv{1, 0, M, "a.fdv", 1, nil, 4}, iv{2, 1, S, "a.fdv", 9, nil, 2},
				iv{3, 2, P, "a.fdv", 10, nil, 1}),
			predicted: pred(1, iv{1, 0, M, "a.fdv", 1, nil, 4}, iv{2, 1, U, "a.fdv", 2, ex(1), 3},
				iv{3, 2, S, "a.fdv", 9, nil, 2}, iv{4, 3, P, "a.fdv", 10, nil, 1}),
			want: "1=1/root 3=2/key 4=3/path", wantUnP: "2",
		},
		{
			name:     "no key fallback for a repeated key",
			measured: meas(1, iv{1, 0, M, "a.fdv", 1, nil, 4}, iv{2, 1, P, "a.fdv", 10, nil, 1}),
			predicted: pred(1, iv{1, 0, M, "a.fdv", 1, nil, 4},
				iv{2, 1, S, "a.fdv", 3, nil, 1}, iv{3, 2, P, "a.fdv", 10, nil, 1},
				iv{4, 1, S, "a.fdv", 4, nil, 1}, iv{5, 4, P, "a.fdv", 10, nil, 1}),
			want: "1=1/root", wantUnM: "2", wantUnP: "2 3 4 5",
		},
		{
			name: "expression is part of the key; equal siblings pair in order",
			measured: meas(1, iv{1, 0, M, "a.fdv", 1, nil, 4}, iv{2, 1, U, "a.fdv", 3, ex(2), 1},
				iv{3, 1, U, "a.fdv", 3, ex(1), 1}, iv{4, 1, P, "a.fdv", 7, nil, 1}, iv{5, 1, P, "a.fdv", 7, nil, 1}),
			predicted: pred(1, iv{1, 0, M, "a.fdv", 1, nil, 4}, iv{2, 1, U, "a.fdv", 3, ex(1), 1},
				iv{3, 1, U, "a.fdv", 3, nil, 1}, iv{4, 1, P, "a.fdv", 7, nil, 1}, iv{5, 1, P, "a.fdv", 7, nil, 1}),
			want: "1=1/root 2=3/path 4=4/path 5=5/path", wantUnM: "2", wantUnP: "3",
		},
		{
			name:     "files compared by base name",
			measured: meas(1, iv{1, 0, M, `C:\src\a.fdv`, 1, nil, 4}, iv{2, 1, P, "/home/u/a.fdv", 5, nil, 1}),
			predicted: pred(1, iv{1, 0, M, "a.fdv", 1, nil, 4}, iv{2, 1, P, "a.fdv", 5, nil, 1},
				iv{3, 1, P, "b.fdv", 5, nil, 1}),
			want: "1=1/root 2=2/path", wantUnP: "3",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Compare(tt.measured, tt.predicted)
			if err != nil {
				t.Fatal(err)
			}
			if got := pairs(c); got != tt.want {
				t.Errorf("matches %q, want %q", got, tt.want)
			}
			if got := ids(c.UnmatchedMeasured); got != tt.wantUnM {
				t.Errorf("unmatched measured %q, want %q", got, tt.wantUnM)
			}
			if got := ids(c.UnmatchedPredicted); got != tt.wantUnP {
				t.Errorf("unmatched predicted %q, want %q", got, tt.wantUnP)
			}
			if got := ids(c.Measured.Outside); got != tt.wantOutM {
				t.Errorf("measured outside %q, want %q", got, tt.wantOutM)
			}
			if got := ids(c.Predicted.Outside); got != tt.wantOutP {
				t.Errorf("predicted outside %q, want %q", got, tt.wantOutP)
			}
			s := c.Summary
			if s.Matched != len(c.Matches) || s.UnmatchedMeasured != len(c.UnmatchedMeasured) ||
				s.UnmatchedPredicted != len(c.UnmatchedPredicted) {
				t.Errorf("summary %+v disagrees with the lists", s)
			}
			if n := len(c.Matches) + len(c.UnmatchedMeasured); n != c.Measured.Size {
				t.Errorf("measured: %d matched + unmatched, report tree of %d", n, c.Measured.Size)
			}
			if n := len(c.Matches) + len(c.UnmatchedPredicted); n != c.Predicted.Size {
				t.Errorf("predicted: %d matched + unmatched, report tree of %d", n, c.Predicted.Size)
			}
		})
	}
}

func TestDepth(t *testing.T) {
	c := mustCompare(t, jacMeasured(5, 1, 4, 2, 2), jacPredicted(5, 1, 4, 2, 2))
	var got []string
	for _, m := range c.Matches {
		got = append(got, fmt.Sprintf("%d/%d", m.Predicted.Depth, m.Measured.Depth))
	}
	if s := strings.Join(got, " "); s != "0/0 1/1 1/1 2/2 2/2" {
		t.Errorf("depths %s", s)
	}
	if o := c.Predicted.Outside; len(o) != 1 || o[0].Depth != -1 || o[0].Type != result.Main {
		t.Errorf("outside %+v, want Main at depth -1", o)
	}
	if c.Measured.Root.Type != result.Main || c.Predicted.Root.Type != result.Seq || c.Predicted.Root.ID != 2 {
		t.Errorf("roots %v / %v", c.Measured.Root, c.Predicted.Root)
	}
}

func TestValues(t *testing.T) {
	// Measured 8, 2, 0 (zero time in Seq 22), 4, 2; predicted 10, 1, 1, 3, 2.
	c := mustCompare(t, jacMeasured(8, 2, 0, 4, 2), jacPredicted(10, 1, 1, 3, 2))
	if len(c.Matches) != 5 {
		t.Fatalf("%d matches", len(c.Matches))
	}
	for _, m := range c.Matches {
		if len(m.Values) != len(Chars) {
			t.Fatalf("%d values, want %d", len(m.Values), len(Chars))
		}
		for i, v := range m.Values {
			if v.Char != Chars[i] {
				t.Fatalf("value %d is %s, want %s", i, v.Char, Chars[i])
			}
		}
	}
	tests := []struct {
		match                int
		char                 result.Char
		meas, pred, abs, rel float64
	}{
		{0, result.ExecutionTime, 8, 10, 2, 0.25},
		{0, result.TotalTime, 32, 40, 8, 0.25},
		{0, result.LostTime, 24, 30, 6, 0.25},
		{0, result.Efficiency, 0.25, 0.25, 0, 0},
		{1, result.ExecutionTime, 2, 1, -1, -0.5},
		{2, result.ExecutionTime, 0, 1, 1, math.NaN()},
		{2, result.Efficiency, 0, 0.25, 0.25, math.NaN()},
		{3, result.ExecutionTime, 4, 3, -1, -0.25},
		{4, result.Idle, 0, 0, 0, math.NaN()},
	}
	same := func(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }
	for _, tt := range tests {
		v, ok := c.Matches[tt.match].Value(tt.char)
		if !ok {
			t.Fatalf("match %d has no %s", tt.match, tt.char)
		}
		if !same(v.Measured, tt.meas) || !same(v.Predicted, tt.pred) || !same(v.AbsErr, tt.abs) || !same(v.RelErr, tt.rel) {
			t.Errorf("match %d %s: %+v, want meas %v pred %v abs %v rel %v", tt.match, tt.char, v, tt.meas, tt.pred, tt.abs, tt.rel)
		}
	}
	// MAPE over the four intervals with a measured time: (25+50+25+0)/4 %.
	if s := c.Summary; s.MAPECount != 4 || math.Abs(s.MAPE-0.25) > 1e-12 {
		t.Errorf("MAPE %v over %d, want 0.25 over 4", s.MAPE, s.MAPECount)
	}
}

func TestMAPEUndefined(t *testing.T) {
	c := mustCompare(t, jacMeasured(0, 0, 0, 0, 0), jacPredicted(1, 1, 1, 1, 1))
	if s := c.Summary; s.MAPECount != 0 || !math.IsNaN(s.MAPE) {
		t.Errorf("MAPE %v over %d, want NaN over 0", s.MAPE, s.MAPECount)
	}
}

func TestWarnings(t *testing.T) {
	tests := []struct {
		name string
		edit func(m, p *result.Run)
		want []string
	}{
		{"none", func(m, p *result.Run) {}, nil},
		{"grids", func(m, p *result.Run) { p.Config.Grid = []int{4} },
			[]string{"processor grids differ: measured 2x2, predicted 4 (compared anyway)"}},
		{"kinds", func(m, p *result.Run) { m.Kind, m.ID = result.Predicted, 7 },
			[]string{"run 7, given as the measured run, is a predicted run"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, p := jacMeasured(5, 1, 4, 2, 2), jacPredicted(5, 1, 4, 2, 2)
			tt.edit(m, p)
			c, err := Compare(m, p)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(c.Warnings, "|") != strings.Join(tt.want, "|") {
				t.Errorf("warnings %q, want %q", c.Warnings, tt.want)
			}
			if len(c.Matches) != 5 {
				t.Errorf("%d matches: the runs must still be compared", len(c.Matches))
			}
		})
	}
}

func TestCompareErrors(t *testing.T) {
	tests := []struct {
		name     string
		m, p     *result.Run
		contains string
	}{
		{"no measured run", nil, jacPredicted(1, 1, 1, 1, 1), "a run is missing"},
		{"no intervals", &result.Run{ID: 3}, jacPredicted(1, 1, 1, 1, 1), "measured run 3: no intervals"},
		{"report root missing", jacMeasured(1, 1, 1, 1, 1), func() *result.Run {
			r := jacPredicted(1, 1, 1, 1, 1)
			r.ID, r.ReportRoot = 4, 9
			return r
		}(), "predicted run 4: report root 9 is not an interval of the run"},
		{"broken tree", func() *result.Run {
			r := jacMeasured(1, 1, 1, 1, 1)
			r.ID = 5
			r.Intervals[0].Children = append(r.Intervals[0].Children, 42)
			return r
		}(), jacPredicted(1, 1, 1, 1, 1), "interval 1 has child 42"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Compare(tt.m, tt.p)
			if err == nil || c != nil {
				t.Fatalf("got %v, %v; want an error", c, err)
			}
			if !strings.Contains(err.Error(), tt.contains) {
				t.Errorf("error %q, want it to contain %q", err, tt.contains)
			}
		})
	}
}
