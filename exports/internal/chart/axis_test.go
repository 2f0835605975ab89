package chart

import (
	"math"
	"slices"
	"testing"
)

func TestTickLabel(t *testing.T) {
	tests := []struct {
		v    float64
		want string
	}{
		{0, "0"}, {math.Copysign(0, -1), "0"}, {0.30000000000000004, "0.3"}, {1024, "1024"}, {1.5e6, "1.5e6"}, {123.456, "123"}, {16, "16"},
		{1e-5, "1e-5"}, {2.5, "2.5"}, {0.001, "0.001"}, {1e6, "1e6"}, {-0.25, "-0.25"},
		{2e5, "2e5"}, {5e5, "5e5"}, {131072, "131072"}, {99000, "99000"}, {1048576, "1.05e6"},
	}
	for _, tt := range tests {
		if got := TickLabel(tt.v); got != tt.want {
			t.Errorf("TickLabel(%g) = %q, want %q", tt.v, got, tt.want)
		}
	}
}

func TestPowerLabel(t *testing.T) {
	tests := []struct {
		v    float64
		want string
	}{
		{1.0 / 128, "1/128"}, {0.5, "1/2"}, {1, "1"}, {64, "64"}, {0.3, "0.3"}, {0, "0"},
	}
	for _, tt := range tests {
		if got := PowerLabel(tt.v); got != tt.want {
			t.Errorf("PowerLabel(%g) = %q, want %q", tt.v, got, tt.want)
		}
	}
	a := Axis{Scale: Scale{Lo: 0.25, Hi: 4, Base: 2}}
	if got := a.tickLabel(0.25); got != "1/4" {
		t.Errorf("a log2 axis labels 0.25 %q, want 1/4", got)
	}
	a.Format = func(v float64) string { return "×" + PowerLabel(v) }
	if got := a.tickLabel(0.25); got != "×1/4" {
		t.Errorf("an axis with its own format labels 0.25 %q, want ×1/4", got)
	}
}

// TestSpreadTicks: ticks closer than their labels' width are dropped, the
// first one is kept.
func TestSpreadTicks(t *testing.T) {
	all := []float64{1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024}
	tests := []struct {
		name string
		a    Axis
		ts   []float64
		want []float64
	}{
		// 10 px per doubling: 256 is 20 px from 64, closer than "64" and "256" need.
		{"narrow", Axis{Scale: Scale{Lo: 1, Hi: 1024, P0: 0, P1: 100, Base: 2}}, all, []float64{1, 4, 16, 64, 512}},
		{"wide keeps all", Axis{Scale: Scale{Lo: 1, Hi: 32, P0: 0, P1: 500, Base: 2}}, all[:6], all[:6]},
		{"reversed pixels", Axis{Scale: Scale{Lo: 1, Hi: 1024, P0: 100, P1: 0, Base: 2}}, all, []float64{1, 4, 16, 64, 512}},
		{"long labels need more room", Axis{Scale: Scale{Lo: 0, Hi: 4, P0: 0, P1: 200}, Format: func(v float64) string { return "longer label" }},
			[]float64{0, 1, 2, 3, 4}, []float64{0, 2, 4}},
	}
	for _, tt := range tests {
		if got := SpreadTicks(tt.a, tt.ts); !closeAll(got, tt.want) {
			t.Errorf("%s: SpreadTicks = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestStackTicks: vertical tick labels keep 16 px apart.
func TestStackTicks(t *testing.T) {
	ts := []float64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	tests := []struct {
		height float64
		want   []float64
	}{
		{240, ts},                           // 24 px apart
		{100, []float64{0, 2, 4, 6, 8, 10}}, // 20 px apart
		{60, []float64{0, 3, 6, 9}},         // every second is 12 px apart, every third 20
		{0, []float64{0}},
	}
	for _, tt := range tests {
		got := StackTicks(ts, tt.height)
		if !closeAll(got, tt.want) {
			t.Errorf("StackTicks(height %g) = %v, want %v", tt.height, got, tt.want)
		}
	}
}

func TestSpread(t *testing.T) {
	ten := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
	tests := []struct {
		n    int
		want []int
	}{
		{4, []int{0, 3, 6, 9}}, {2, []int{0, 9}}, {10, ten}, {20, ten}, {1, ten}, {5, []int{0, 2, 5, 7, 9}},
	}
	for _, tt := range tests {
		if got := Spread(ten, tt.n); !slices.Equal(got, tt.want) {
			t.Errorf("Spread(0..9, %d) = %v, want %v", tt.n, got, tt.want)
		}
	}
}
