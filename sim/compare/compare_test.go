package compare_test

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/internal/comparetest"
	"github.com/presage-dvm/presage/sim/compare"
	"github.com/presage-dvm/presage/sim/result"
)

// iv is an interval of a test run (comparetest.Iv).
var iv = comparetest.Iv

// pairs lists the matches as "predicted=measured/method".
func pairs(c *compare.Comparison) string {
	var out []string
	for _, m := range c.Matches {
		out = append(out, fmt.Sprintf("%d=%d/%s", m.Predicted.ID, m.Measured.ID, m.By))
	}
	return strings.Join(out, " ")
}

func ids(refs []compare.Ref) string {
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
	meas := func(root int, ivs ...comparetest.IV) *result.Run {
		return comparetest.NewRun(result.Measured, []int{2}, root, ivs...)
	}
	pred := func(root int, ivs ...comparetest.IV) *result.Run {
		return comparetest.NewRun(result.Predicted, []int{2}, root, ivs...)
	}
	tests := []struct {
		name                string
		measured, predicted *result.Run
		force               bool   // the runs are not of one program
		want                string // pairs
		wantUnM, wantUnP    string // unmatched IDs
	}{
		{
			name: "same tree",
			measured: meas(1, iv(1, 0, M, "a.fdv", 1, nil, 4), iv(2, 1, P, "a.fdv", 5, nil, 1),
				iv(3, 1, S, "a.fdv", 9, nil, 2), iv(4, 3, P, "a.fdv", 10, nil, 1)),
			predicted: pred(1, iv(1, 0, M, "a.fdv", 1, nil, 4), iv(2, 1, P, "a.fdv", 5, nil, 1),
				iv(3, 1, S, "a.fdv", 9, nil, 2), iv(4, 3, P, "a.fdv", 10, nil, 1)),
			want: "1=1/main 2=2/path 3=3/path 4=4/path",
		},
		{
			name: "unmatched on both sides",
			measured: meas(1, iv(1, 0, M, "a.fdv", 1, nil, 4), iv(2, 1, P, "a.fdv", 5, nil, 1),
				iv(3, 1, P, "a.fdv", 7, nil, 1), iv(4, 3, S, "a.fdv", 8, nil, 1)),
			predicted: pred(0, iv(1, 0, M, "a.fdv", 1, nil, 4), iv(2, 1, P, "a.fdv", 5, nil, 1),
				iv(3, 1, P, "a.fdv", 6, nil, 1)),
			force: true,
			want:  "1=1/main 2=2/path", wantUnM: "3 4", wantUnP: "3",
		},
		{
			name:      "program-level loop of an -e4 trace, whatever the report roots",
			measured:  comparetest.JacMeasured(5, 1, 4, 2, 2),
			predicted: comparetest.JacPredicted(5, 1, 4, 2, 2),
			want:      "2=1/main 3=2/path 4=3/path 5=4/path 6=5/path", wantUnP: "1",
		},
		{
			name: "a Seq at Main's line beside other children is an interval like any other",
			measured: meas(1, iv(1, 0, M, "a.fdv", 1, nil, 4), iv(2, 1, S, "a.fdv", 1, nil, 3),
				iv(3, 1, P, "a.fdv", 5, nil, 1)),
			predicted: pred(2, iv(1, 0, M, "a.fdv", 1, nil, 4), iv(2, 1, S, "a.fdv", 1, nil, 3),
				iv(3, 1, P, "a.fdv", 5, nil, 1)),
			want: "1=1/main 2=2/path 3=3/path",
		},
		{
			name: "an identity at another level is no match",
			measured: meas(1, iv(1, 0, M, "a.fdv", 1, nil, 4), iv(2, 1, S, "a.fdv", 9, nil, 2),
				iv(3, 2, P, "a.fdv", 10, nil, 1)),
			predicted: pred(1, iv(1, 0, M, "a.fdv", 1, nil, 4), iv(2, 1, U, "a.fdv", 2, comparetest.Ex(1), 3),
				iv(3, 2, S, "a.fdv", 9, nil, 2), iv(4, 3, P, "a.fdv", 10, nil, 1)),
			force: true,
			want:  "1=1/main", wantUnM: "2 3", wantUnP: "2 3 4",
		},
		{
			name: "expression is part of the key; equal siblings pair in order",
			measured: meas(1, iv(1, 0, M, "a.fdv", 1, nil, 4), iv(2, 1, U, "a.fdv", 3, comparetest.Ex(2), 1),
				iv(3, 1, U, "a.fdv", 3, comparetest.Ex(1), 1), iv(4, 1, P, "a.fdv", 7, nil, 1), iv(5, 1, P, "a.fdv", 7, nil, 1)),
			predicted: pred(1, iv(1, 0, M, "a.fdv", 1, nil, 4), iv(2, 1, U, "a.fdv", 3, comparetest.Ex(1), 1),
				iv(3, 1, U, "a.fdv", 3, nil, 1), iv(4, 1, P, "a.fdv", 7, nil, 1), iv(5, 1, P, "a.fdv", 7, nil, 1)),
			force: true,
			want:  "1=1/main 2=3/path 4=4/path 5=5/path", wantUnM: "2", wantUnP: "3",
		},
		{
			name:      "files compared by base name; the prediction may have fewer intervals",
			measured:  meas(1, iv(1, 0, M, `C:\src\a.fdv`, 1, nil, 4), iv(2, 1, P, "/home/u/a.fdv", 5, nil, 1)),
			predicted: pred(1, iv(1, 0, M, "a.fdv", 1, nil, 4)),
			want:      "1=1/main", wantUnM: "2",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := compare.Compare(tt.measured, tt.predicted, compare.Options{}); (err != nil) != tt.force {
				t.Fatalf("without --force: error %v, want one: %v", err, tt.force)
			}
			c, err := compare.Compare(tt.measured, tt.predicted, compare.Options{Force: true})
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
			for _, r := range append(c.UnmatchedMeasured, c.UnmatchedPredicted...) {
				if r.Reason == "" {
					t.Errorf("unmatched %s (interval %d) has no reason", r, r.ID)
				}
			}
			if forced := len(c.Warnings) > 0 && strings.HasPrefix(c.Warnings[0], "compared with --force"); forced != tt.force {
				t.Errorf("warnings %q: forced %v, want %v", c.Warnings, forced, tt.force)
			}
			s := c.Summary
			if s.Matched != len(c.Matches) || s.UnmatchedMeasured != len(c.UnmatchedMeasured) ||
				s.UnmatchedPredicted != len(c.UnmatchedPredicted) {
				t.Errorf("summary %+v disagrees with the lists", s)
			}
			if n := len(c.Matches) + len(c.UnmatchedMeasured); n != c.Measured.Size {
				t.Errorf("measured: %d matched + unmatched, %d intervals", n, c.Measured.Size)
			}
			if n := len(c.Matches) + len(c.UnmatchedPredicted); n != c.Predicted.Size {
				t.Errorf("predicted: %d matched + unmatched, %d intervals", n, c.Predicted.Size)
			}
		})
	}
}

func TestReasons(t *testing.T) {
	m := comparetest.JacMeasured(5, 1, 4, 2, 2)
	p := comparetest.NewRun(result.Predicted, []int{2, 2}, 1, iv(1, 0, result.Main, "jac.fdv", 8, nil, 5))
	c := comparetest.MustCompare(t, m, p)
	want := []string{
		"2 the predicted run has Main only (a trace or statistics without intervals)",
		"3 the predicted run has Main only (a trace or statistics without intervals)",
		"4 its parent Seq jac.fdv:22 is unmatched",
		"5 its parent Seq jac.fdv:22 is unmatched",
	}
	var got []string
	for _, r := range c.UnmatchedMeasured {
		got = append(got, fmt.Sprintf("%d %s", r.ID, r.Reason))
	}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("reasons\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	c = comparetest.MustCompare(t, m, comparetest.JacPredicted(5, 1, 4, 2, 2))
	if r := c.UnmatchedPredicted; len(r) != 1 || !strings.Contains(r[0].Reason, "program-level loop") {
		t.Errorf("unmatched predicted %+v, want the program-level loop", r)
	}
}

func TestNotComparable(t *testing.T) {
	jac := comparetest.JacMeasured(5, 1, 4, 2, 2)
	other := comparetest.NewRun(result.Predicted, []int{2, 2}, 1, iv(1, 0, result.Main, "jac1d.cdv", 25, nil, 5))
	other.Program = "jac1d"
	_, err := compare.Compare(jac, other, compare.Options{})
	var nc *compare.NotComparableError
	if !errors.As(err, &nc) || !strings.Contains(err.Error(), "source files are jac.fdv, the prediction's jac1d.cdv") {
		t.Fatalf("error %v, want a compare.NotComparableError naming the files", err)
	}
	moved := comparetest.JacPredicted(5, 1, 4, 2, 2)
	moved.Intervals[3].Line = 23
	if _, err := compare.Compare(jac, moved, compare.Options{}); !errors.As(err, &nc) || !strings.Contains(nc.Reason, "Seq jac.fdv:22") {
		t.Errorf("error %v, want the missing Seq jac.fdv:22 named", err)
	}
	c, err := compare.Compare(jac, other, compare.Options{Force: true})
	if err != nil || len(c.Warnings) == 0 || !strings.Contains(c.Warnings[0], "--force") {
		t.Fatalf("forced: %v, %v", c, err)
	}
}

func TestDepth(t *testing.T) {
	c := comparetest.MustCompare(t, comparetest.JacMeasured(5, 1, 4, 2, 2), comparetest.JacPredicted(5, 1, 4, 2, 2))
	var got []string
	for _, m := range c.Matches {
		got = append(got, fmt.Sprintf("%d/%d", m.Predicted.Depth, m.Measured.Depth))
	}
	if s := strings.Join(got, " "); s != "0/0 1/1 1/1 2/2 2/2" {
		t.Errorf("depths %s", s)
	}
	if c.Measured.Root.Type != result.Main || c.Predicted.Root.Type != result.Seq || c.Predicted.Root.ID != 2 {
		t.Errorf("roots %v / %v", c.Measured.Root, c.Predicted.Root)
	}
}

func TestValues(t *testing.T) {
	// Measured 8, 2, 0 (zero time in Seq 22), 4, 2; predicted 10, 1, 1, 3, 2.
	c := comparetest.MustCompare(t, comparetest.JacMeasured(8, 2, 0, 4, 2), comparetest.JacPredicted(10, 1, 1, 3, 2))
	if len(c.Matches) != 5 {
		t.Fatalf("%d matches", len(c.Matches))
	}
	for _, m := range c.Matches {
		if len(m.Values) != len(compare.Chars) {
			t.Fatalf("%d values, want %d", len(m.Values), len(compare.Chars))
		}
		for i, v := range m.Values {
			if v.Char != compare.Chars[i] {
				t.Fatalf("value %d is %s, want %s", i, v.Char, compare.Chars[i])
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
	c := comparetest.MustCompare(t, comparetest.JacMeasured(0, 0, 0, 0, 0), comparetest.JacPredicted(1, 1, 1, 1, 1))
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
			m, p := comparetest.JacMeasured(5, 1, 4, 2, 2), comparetest.JacPredicted(5, 1, 4, 2, 2)
			tt.edit(m, p)
			c, err := compare.Compare(m, p, compare.Options{})
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
		{"no measured run", nil, comparetest.JacPredicted(1, 1, 1, 1, 1), "a run is missing"},
		{"no intervals", &result.Run{ID: 3}, comparetest.JacPredicted(1, 1, 1, 1, 1), "measured run 3: no intervals"},
		{"report root missing", comparetest.JacMeasured(1, 1, 1, 1, 1), func() *result.Run {
			r := comparetest.JacPredicted(1, 1, 1, 1, 1)
			r.ID, r.ReportRoot = 4, 9
			return r
		}(), "predicted run 4: report root 9 is not an interval of the run"},
		{"broken tree", func() *result.Run {
			r := comparetest.JacMeasured(1, 1, 1, 1, 1)
			r.ID = 5
			r.Intervals[0].Children = append(r.Intervals[0].Children, 42)
			return r
		}(), comparetest.JacPredicted(1, 1, 1, 1, 1), "interval 1 has child 42"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := compare.Compare(tt.m, tt.p, compare.Options{})
			if err == nil || c != nil {
				t.Fatalf("got %v, %v; want an error", c, err)
			}
			if !strings.Contains(err.Error(), tt.contains) {
				t.Errorf("error %q, want it to contain %q", err, tt.contains)
			}
		})
	}
}
