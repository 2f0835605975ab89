package reality

import (
	"strings"
	"testing"
)

// fig is a synthetic figure of program at size on workers, predicted off
// by err.
func fig(program string, size, workers int, err float64) Figure {
	return Figure{Program: program, Size: size, Workers: workers, Measured: 1, Predicted: 1 + err}
}

// TestJudge checks the verdict on synthetic figures: a fixed bound at 1
// and 2 workers that no spread widens, too few figures counted failing,
// the known gaps against their own bounds, and the summary line.
func TestJudge(t *testing.T) {
	gaps := map[string]Gap{"fine n=9": {Reason: "made up front", Bound: 0.4}}
	rule := Rule{Bound: 0.1, BoundedWorkers: 2, MinChecks: 2, MinCounted: 2, Gaps: gaps}
	spread := func(f Figure) Figure { f.Spread, f.Calibrated.Spread = 0.5, 0.5; return f }
	tests := []struct {
		name     string
		checks   [][]Figure
		fails    []string // substrings of the failures, in order; none: it holds
		summary  string
		notes    int
		mediansW []float64
	}{
		{
			name: "every figure within",
			checks: [][]Figure{
				{fig("a", 1, 1, 0.05), fig("a", 1, 1, -0.02), fig("a", 1, 1, 0.3)},
				{fig("a", 1, 2, -0.09), fig("a", 1, 2, -0.1), fig("a", 1, 2, 0.5)},
			},
			summary:  "within 10%: 2 of 2 figures (0 dropped)",
			mediansW: []float64{0.05, -0.09},
		},
		{
			name: "the bound is not widened by the spreads",
			checks: [][]Figure{
				{spread(fig("a", 1, 1, 0.12)), spread(fig("a", 1, 1, 0.15)), spread(fig("a", 1, 1, 0.11))},
				{fig("a", 1, 2, 0), fig("a", 1, 2, 0)},
			},
			fails:   []string{"a n=1, 1 workers"},
			summary: "within 10%: 1 of 2 figures (0 dropped)",
		},
		{
			name: "0 of 0 fails",
			checks: [][]Figure{
				{fig("a", 1, 1, 0)}, // one check of the two needed
				nil,
			},
			fails:   []string{"only 0 figures counted (2 dropped"},
			summary: "within 10%: 0 of 0 figures (2 dropped)",
		},
		{
			name: "fewer counted than the minimum fails even when all are within",
			checks: [][]Figure{
				{fig("a", 1, 1, 0), fig("a", 1, 1, 0)},
				{fig("a", 1, 2, 0)},
			},
			fails:   []string{"only 1 figures counted (1 dropped"},
			summary: "within 10%: 1 of 1 figures (1 dropped)",
		},
		{
			name: "a known gap within its own bound holds",
			checks: [][]Figure{
				{fig("fine", 9, 1, -0.35), fig("fine", 9, 1, -0.3)},
				{fig("a", 1, 1, 0), fig("a", 1, 1, 0)},
			},
			summary: "within 10%: 1 of 2 figures (0 dropped)",
			notes:   1,
		},
		{
			name: "a known gap beyond its own bound fails",
			checks: [][]Figure{
				{fig("fine", 9, 1, -0.45), fig("fine", 9, 1, -0.5)},
				{fig("a", 1, 1, 0), fig("a", 1, 1, 0)},
			},
			fails:   []string{"known gap (made up front)"},
			summary: "within 10%: 1 of 2 figures (0 dropped)",
		},
		{
			name: "a gap of the same program at another size is bounded by 10%",
			checks: [][]Figure{
				{fig("fine", 8, 1, -0.3), fig("fine", 8, 1, -0.3)},
				{fig("a", 1, 1, 0), fig("a", 1, 1, 0)},
			},
			fails:   []string{"fine n=8, 1 workers"},
			summary: "within 10%: 1 of 2 figures (0 dropped)",
		},
		{
			name: "beyond the bounded workers a figure is shown, not bounded",
			checks: [][]Figure{
				{fig("a", 1, 4, 0.3), fig("a", 1, 4, 0.3)},
				{fig("a", 1, 1, 0), fig("a", 1, 1, 0)},
			},
			summary: "within 10%: 1 of 2 figures (0 dropped)",
			notes:   1,
		},
		{
			name: "the median check is judged, not the best",
			checks: [][]Figure{
				{fig("a", 1, 1, 0.01), fig("a", 1, 1, 0.2), fig("a", 1, 1, 0.3)},
				{fig("a", 1, 1, 0), fig("a", 1, 1, 0)},
			},
			fails:    []string{"+20.0%"},
			summary:  "within 10%: 1 of 2 figures (0 dropped)",
			mediansW: []float64{0.2, 0},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := rule
			v := Judge(tt.checks, r)
			if len(v.Failures) != len(tt.fails) {
				t.Fatalf("failures %q, want %d matching %q", v.Failures, len(tt.fails), tt.fails)
			}
			for i, want := range tt.fails {
				if !strings.Contains(v.Failures[i], want) {
					t.Errorf("failure %d %q, want it to contain %q", i, v.Failures[i], want)
				}
			}
			// The misses (beyond a bound) and the hard failures split
			// the failures: a miss says "off by more than".
			if len(v.Misses)+len(v.Hard()) != len(v.Failures) {
				t.Errorf("misses %q and hard failures %q do not split the failures %q", v.Misses, v.Hard(), v.Failures)
			}
			for _, m := range v.Misses {
				if !strings.Contains(m, "off by more than") {
					t.Errorf("miss %q is not a figure beyond a bound", m)
				}
			}
			if got := v.Summary(r.Bound); got != tt.summary {
				t.Errorf("summary %q, want %q", got, tt.summary)
			}
			if len(v.Notes) != tt.notes {
				t.Errorf("notes %q, want %d", v.Notes, tt.notes)
			}
			for i, want := range tt.mediansW {
				if got := v.Medians[i].Error(); got < want-1e-9 || got > want+1e-9 {
					t.Errorf("median %d error %+.3f, want %+.3f", i, got, want)
				}
			}
		})
	}
}

// TestRealityRule: the rule of the real check bounds 1 and 2 workers at
// 10%, counts a figure with two of three checks, and needs three
// quarters of the figures.
func TestRealityRule(t *testing.T) {
	r := realityRule(40, 3)
	if r.Bound != 0.1 || r.BoundedWorkers != 2 || r.MinChecks != 2 || r.MinCounted != 30 {
		t.Errorf("rule %+v, want bound 0.1 on 2 workers, 2 checks, 30 of 40 figures", r)
	}
	for name, g := range r.Gaps {
		if g.Bound <= r.Bound || g.Reason == "" {
			t.Errorf("gap %s: bound %v with reason %q, want a reason and a bound above %v", name, g.Bound, g.Reason, r.Bound)
		}
	}
}
