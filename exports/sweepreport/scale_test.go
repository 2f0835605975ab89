package sweepreport

import (
	"math"
	"slices"
	"testing"
)

func TestScalePos(t *testing.T) {
	tests := []struct {
		name string
		s    scale
		v    float64
		want float64
	}{
		{"linear start", scale{Lo: 0, Hi: 10, P0: 50, P1: 550}, 0, 50},
		{"linear middle", scale{Lo: 0, Hi: 10, P0: 50, P1: 550}, 5, 300},
		{"linear end", scale{Lo: 0, Hi: 10, P0: 50, P1: 550}, 10, 550},
		{"linear inverted (y axis)", scale{Lo: 0, Hi: 1, P0: 254, P1: 14}, 0.25, 194},
		{"log2 processors", scale{Lo: 1, Hi: 1024, P0: 0, P1: 500, Base: 2}, 32, 250},
		{"log2 of the fixture's axis", scale{Lo: 1, Hi: 32, P0: 64, P1: 542, Base: 2}, 4, 255.2},
		{"log10 seconds", scale{Lo: 0.01, Hi: 100, P0: 254, P1: 14, Base: 10}, 1, 134},
		{"log base does not change positions", scale{Lo: 0.01, Hi: 100, P0: 254, P1: 14, Base: 2}, 1, 134},
		{"degenerate domain", scale{Lo: 3, Hi: 3, P0: 0, P1: 100}, 3, 50},
		{"extrapolates", scale{Lo: 0, Hi: 10, P0: 0, P1: 100}, 20, 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.s.Pos(tt.v); math.Abs(got-tt.want) > 1e-9 {
				t.Errorf("Pos(%g) = %g, want %g", tt.v, got, tt.want)
			}
		})
	}
}

func TestScaleValid(t *testing.T) {
	lin, log := scale{Lo: 0, Hi: 1}, scale{Lo: 1, Hi: 2, Base: 2}
	tests := []struct {
		s    scale
		v    float64
		want bool
	}{
		{lin, 0, true}, {lin, -1, true}, {lin, math.NaN(), false}, {lin, math.Inf(1), false},
		{log, 1, true}, {log, 0, false}, {log, -1, false}, {log, math.NaN(), false},
	}
	for _, tt := range tests {
		if got := tt.s.Valid(tt.v); got != tt.want {
			t.Errorf("%+v.Valid(%g) = %v, want %v", tt.s, tt.v, got, tt.want)
		}
	}
}

func TestTicks(t *testing.T) {
	tests := []struct {
		name string
		s    scale
		want []float64
	}{
		{"linear 0..1", scale{Lo: 0, Hi: 1}, []float64{0, 0.2, 0.4, 0.6, 0.8, 1}},
		{"linear 0..2.5", scale{Lo: 0, Hi: 2.5}, []float64{0, 0.5, 1, 1.5, 2, 2.5}},
		{"linear 0..12", scale{Lo: 0, Hi: 12}, []float64{0, 2.5, 5, 7.5, 10}},
		{"linear negative", scale{Lo: -1, Hi: 1}, []float64{-1, -0.5, 0, 0.5, 1}},
		{"log2 1..32", scale{Lo: 1, Hi: 32, Base: 2}, []float64{1, 2, 4, 8, 16, 32}},
		{"log2 1..1024", scale{Lo: 1, Hi: 1024, Base: 2}, []float64{1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024}},
		{"log2 1..4096 thinned", scale{Lo: 1, Hi: 4096, Base: 2}, []float64{1, 4, 16, 64, 256, 1024, 4096}},
		{"log2 short range uses 1-2-5", scale{Lo: 1, Hi: 3, Base: 2}, []float64{1, 2}},
		{"log10 0.2..20", scale{Lo: 0.2, Hi: 20, Base: 10}, []float64{0.2, 0.5, 1, 2, 5, 10, 20}},
		{"log10 1e-5..10", scale{Lo: 1e-5, Hi: 10, Base: 10}, []float64{1e-5, 1e-4, 1e-3, 0.01, 0.1, 1, 10}},
		{"log10 within a decade", scale{Lo: 2, Hi: 5, Base: 10}, []float64{2, 5}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.s.Ticks()
			if !closeAll(got, tt.want) {
				t.Errorf("Ticks() = %v, want %v", got, tt.want)
			}
			for _, v := range got {
				if v < tt.s.Lo-1e-9*math.Abs(tt.s.Lo) || v > tt.s.Hi+1e-9*math.Abs(tt.s.Hi) {
					t.Errorf("tick %g outside [%g, %g]", v, tt.s.Lo, tt.s.Hi)
				}
			}
		})
	}
}

func closeAll(a, b []float64) bool {
	return len(a) == len(b) && !slices.ContainsFunc(a, func(v float64) bool {
		i := slices.Index(a, v)
		return math.Abs(v-b[i]) > 1e-9*math.Max(1, math.Abs(b[i]))
	})
}

func TestNiceStep(t *testing.T) {
	tests := []struct {
		span float64
		n    int
		want float64
	}{
		{1, 5, 0.2}, {10, 5, 2}, {12, 5, 2.5}, {3, 5, 1}, {7, 5, 2}, {0.03, 5, 0.01}, {0, 5, 1}, {100, 4, 25},
	}
	for _, tt := range tests {
		if got := niceStep(tt.span, tt.n); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("niceStep(%g, %d) = %g, want %g", tt.span, tt.n, got, tt.want)
		}
	}
}

func TestNiceCeil(t *testing.T) {
	tests := []struct{ v, want float64 }{{2.05, 2.5}, {0.83, 1}, {10, 10}, {13, 15}, {0, 1}, {-3, 1}}
	for _, tt := range tests {
		if got := niceCeil(tt.v); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("niceCeil(%g) = %g, want %g", tt.v, got, tt.want)
		}
	}
}

func TestLogDomain(t *testing.T) {
	tests := []struct {
		lo, hi, base   float64
		wantLo, wantHi float64
	}{
		{0.37, 10.05, 10, 0.2, 20},
		{1, 10, 10, 1, 10},
		{0.003, 0.004, 10, 0.002, 0.005},
		{1, 30.2, 2, 1, 32},
		{0.7, 5, 2, 0.5, 8},
		{1, 1, 2, 0.5, 2}, // widened around a single value
	}
	for _, tt := range tests {
		lo, hi := logDomain(tt.lo, tt.hi, tt.base)
		if math.Abs(lo-tt.wantLo) > 1e-12 || math.Abs(hi-tt.wantHi) > 1e-12 {
			t.Errorf("logDomain(%g, %g, %g) = %g, %g, want %g, %g", tt.lo, tt.hi, tt.base, lo, hi, tt.wantLo, tt.wantHi)
		}
	}
}

func TestTickLabel(t *testing.T) {
	tests := []struct {
		v    float64
		want string
	}{
		{0, "0"}, {math.Copysign(0, -1), "0"}, {0.30000000000000004, "0.3"}, {1024, "1024"}, {1.5e6, "1.5e6"}, {123.456, "123"}, {16, "16"},
		{1e-5, "1e-5"}, {2.5, "2.5"}, {0.001, "0.001"}, {1e6, "1e6"},
	}
	for _, tt := range tests {
		if got := tickLabel(tt.v); got != tt.want {
			t.Errorf("tickLabel(%g) = %q, want %q", tt.v, got, tt.want)
		}
	}
}

// TestSpreadTicks: ticks closer than their labels' width are dropped, the
// first one is kept.
func TestSpreadTicks(t *testing.T) {
	s := scale{Lo: 1, Hi: 1024, P0: 0, P1: 100, Base: 2} // 10 px per doubling
	got := spreadTicks(s, []float64{1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024})
	want := []float64{1, 4, 16, 64, 512} // 256 is 20 px from 64, closer than "64" and "256" need
	if !closeAll(got, want) {
		t.Errorf("spreadTicks = %v, want %v", got, want)
	}
	wide := scale{Lo: 1, Hi: 32, P0: 0, P1: 500, Base: 2}
	all := []float64{1, 2, 4, 8, 16, 32}
	if got := spreadTicks(wide, all); !closeAll(got, all) {
		t.Errorf("spreadTicks on a wide axis = %v, want all of %v", got, all)
	}
}

func TestTruncate(t *testing.T) {
	tests := []struct {
		s    string
		n    int
		want string
	}{
		{"abc", 5, "abc"}, {"abcdef", 4, "abc…"}, {"µµµµµ", 3, "µµ…"}, {"abc", 1, "abc"},
	}
	for _, tt := range tests {
		if got := truncate(tt.s, tt.n); got != tt.want {
			t.Errorf("truncate(%q, %d) = %q, want %q", tt.s, tt.n, got, tt.want)
		}
	}
}
