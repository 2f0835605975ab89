package chart

import (
	"math"
	"slices"
	"testing"
)

func TestScalePos(t *testing.T) {
	tests := []struct {
		name string
		s    Scale
		v    float64
		want float64
	}{
		{"linear start", Scale{Lo: 0, Hi: 10, P0: 50, P1: 550}, 0, 50},
		{"linear middle", Scale{Lo: 0, Hi: 10, P0: 50, P1: 550}, 5, 300},
		{"linear end", Scale{Lo: 0, Hi: 10, P0: 50, P1: 550}, 10, 550},
		{"linear inverted (y axis)", Scale{Lo: 0, Hi: 1, P0: 254, P1: 14}, 0.25, 194},
		{"log2 processors", Scale{Lo: 1, Hi: 1024, P0: 0, P1: 500, Base: 2}, 32, 250},
		{"log2 of a sweep's axis", Scale{Lo: 1, Hi: 32, P0: 64, P1: 542, Base: 2}, 4, 255.2},
		{"log10 seconds", Scale{Lo: 0.01, Hi: 100, P0: 254, P1: 14, Base: 10}, 1, 134},
		{"log base does not change positions", Scale{Lo: 0.01, Hi: 100, P0: 254, P1: 14, Base: 2}, 1, 134},
		{"log2 ratio: exact in the middle", Scale{Lo: 1.0 / 8, Hi: 8, P0: 100, P1: 700, Base: 2}, 1, 400},
		{"log2 ratio: a factor 4 too slow", Scale{Lo: 1.0 / 8, Hi: 8, P0: 100, P1: 700, Base: 2}, 0.25, 200},
		{"degenerate domain", Scale{Lo: 3, Hi: 3, P0: 0, P1: 100}, 3, 50},
		{"extrapolates", Scale{Lo: 0, Hi: 10, P0: 0, P1: 100}, 20, 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.s.Pos(tt.v); math.Abs(got-tt.want) > 1e-9 {
				t.Errorf("Pos(%g) = %g, want %g", tt.v, got, tt.want)
			}
		})
	}
}

func TestScaleValidClamp(t *testing.T) {
	lin, log := Scale{Lo: 0, Hi: 1}, Scale{Lo: 1, Hi: 2, Base: 2}
	tests := []struct {
		s     Scale
		v     float64
		valid bool
		clamp float64
	}{
		{lin, 0, true, 0}, {lin, -1, true, 0}, {lin, 3, true, 1}, {lin, math.Inf(1), false, 1},
		{log, 1.5, true, 1.5}, {log, 0, false, 1}, {log, -1, false, 1}, {log, 9, true, 2},
	}
	for _, tt := range tests {
		if got := tt.s.Valid(tt.v); got != tt.valid {
			t.Errorf("%+v.Valid(%g) = %v, want %v", tt.s, tt.v, got, tt.valid)
		}
		if got := tt.s.Clamp(tt.v); got != tt.clamp {
			t.Errorf("%+v.Clamp(%g) = %g, want %g", tt.s, tt.v, got, tt.clamp)
		}
	}
	if v := lin.Valid(math.NaN()); v {
		t.Error("NaN is valid on a linear scale")
	}
}

func TestTicks(t *testing.T) {
	tests := []struct {
		name string
		s    Scale
		want []float64
	}{
		{"linear 0..1", Scale{Lo: 0, Hi: 1}, []float64{0, 0.2, 0.4, 0.6, 0.8, 1}},
		{"linear 0..2.5", Scale{Lo: 0, Hi: 2.5}, []float64{0, 0.5, 1, 1.5, 2, 2.5}},
		{"linear 0..12", Scale{Lo: 0, Hi: 12}, []float64{0, 2.5, 5, 7.5, 10}},
		{"linear negative", Scale{Lo: -1, Hi: 1}, []float64{-1, -0.5, 0, 0.5, 1}},
		{"linear, not ending on a tick", Scale{Lo: 0, Hi: 0.31}, []float64{0, 0.1, 0.2, 0.3}},
		{"linear, 850 pixels wide: 8 parts", Scale{Lo: 0, Hi: 0.31, P0: 60, P1: 910}, []float64{0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3}},
		{"log2 1..32", Scale{Lo: 1, Hi: 32, Base: 2}, []float64{1, 2, 4, 8, 16, 32}},
		{"log2 1..1024", Scale{Lo: 1, Hi: 1024, Base: 2}, []float64{1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024}},
		{"log2 1..4096 thinned", Scale{Lo: 1, Hi: 4096, Base: 2}, []float64{1, 4, 16, 64, 256, 1024, 4096}},
		{"log2 thinned keeps 1", Scale{Lo: 1.0 / 128, Hi: 128, Base: 2}, []float64{1.0 / 64, 1.0 / 16, 0.25, 1, 4, 16, 64}},
		{"log2 1/2..2", Scale{Lo: 0.5, Hi: 2, Base: 2}, []float64{0.5, 1, 2}},
		{"log2 short range uses 1-2-5", Scale{Lo: 1, Hi: 3, Base: 2}, []float64{1, 2}},
		{"log10 0.2..20", Scale{Lo: 0.2, Hi: 20, Base: 10}, []float64{0.2, 0.5, 1, 2, 5, 10, 20}},
		{"log10 1e-5..10", Scale{Lo: 1e-5, Hi: 10, Base: 10}, []float64{1e-5, 1e-4, 1e-3, 0.01, 0.1, 1, 10}},
		{"log10 within a decade", Scale{Lo: 2, Hi: 5, Base: 10}, []float64{2, 5}},
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
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Abs(a[i]-b[i]) > 1e-9*math.Max(1, math.Abs(b[i])) {
			return false
		}
	}
	return true
}

func TestNiceStep(t *testing.T) {
	tests := []struct {
		span float64
		n    int
		want float64
	}{
		{1, 5, 0.2}, {10, 5, 2}, {12, 5, 2.5}, {3, 5, 1}, {7, 5, 2}, {0.03, 5, 0.01}, {0, 5, 1}, {100, 4, 25}, {1, 0, 1},
	}
	for _, tt := range tests {
		if got := NiceStep(tt.span, tt.n); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("NiceStep(%g, %d) = %g, want %g", tt.span, tt.n, got, tt.want)
		}
	}
}

func TestNiceCeil(t *testing.T) {
	tests := []struct{ v, want float64 }{{2.05, 2.5}, {0.83, 1}, {10, 10}, {13, 15}, {0, 1}, {-3, 1}, {math.NaN(), 1}}
	for _, tt := range tests {
		if got := NiceCeil(tt.v); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("NiceCeil(%g) = %g, want %g", tt.v, got, tt.want)
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
		{1, 1, 2, 0.5, 2},   // widened around a single value
		{1, 1, 10, 0.1, 10}, // likewise on a log10 axis
		{2e5, 2e5, 10, 2e4, 2e6},
	}
	for _, tt := range tests {
		lo, hi := LogDomain(tt.lo, tt.hi, tt.base)
		if math.Abs(lo-tt.wantLo) > 1e-12*tt.wantLo || math.Abs(hi-tt.wantHi) > 1e-12*tt.wantHi {
			t.Errorf("LogDomain(%g, %g, %g) = %g, %g, want %g, %g", tt.lo, tt.hi, tt.base, lo, hi, tt.wantLo, tt.wantHi)
		}
	}
}

func TestLogScale(t *testing.T) {
	tests := []struct {
		name           string
		base           float64
		vs             []float64
		wantLo, wantHi float64
	}{
		{"speedups with 1", 2, []float64{1, 7.84, 15.5, 16}, 1, 16},
		{"non-positive and NaN values are left out", 10, []float64{0, -3, math.NaN(), 0.004, 0.02}, 0.002, 0.02},
		{"nothing positive", 2, []float64{0, math.NaN()}, 1, 2},
	}
	for _, tt := range tests {
		s := LogScale(tt.base, tt.vs...)
		if s.Base != tt.base || math.Abs(s.Lo-tt.wantLo) > 1e-12 || math.Abs(s.Hi-tt.wantHi) > 1e-12 {
			t.Errorf("%s: LogScale = base %g [%g, %g], want base %g [%g, %g]", tt.name, s.Base, s.Lo, s.Hi, tt.base, tt.wantLo, tt.wantHi)
		}
	}
}

func TestCountScale(t *testing.T) {
	tests := []struct {
		name           string
		counts         []int
		wantLo, wantHi float64
		ticks          []float64
	}{
		{"few counts are the ticks", []int{8, 1, 2, 4, 16, 2}, 1, 16, []float64{1, 2, 4, 8, 16}},
		{"one count is widened", []int{4}, 2, 8, []float64{4}},
		{"many counts: the scale's ticks", seq(1, 64), 1, 64, nil},
		{"none", nil, 1, 2, nil},
	}
	for _, tt := range tests {
		s, ticks := CountScale(tt.counts)
		if s.Base != 2 || s.Lo != tt.wantLo || s.Hi != tt.wantHi || !slices.Equal(ticks, tt.ticks) {
			t.Errorf("%s: CountScale = base %g [%g, %g] ticks %v, want log2 [%g, %g] ticks %v", tt.name, s.Base, s.Lo, s.Hi, ticks, tt.wantLo, tt.wantHi, tt.ticks)
		}
	}
}

func seq(from, to int) []int {
	var out []int
	for i := from; i <= to; i++ {
		out = append(out, i)
	}
	return out
}
