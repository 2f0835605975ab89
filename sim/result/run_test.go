package result

import (
	"math"
	"reflect"
	"testing"
)

func TestParseGrid(t *testing.T) {
	tests := []struct {
		in   string
		want []int
		err  bool
	}{
		{"4", []int{4}, false},
		{"2x2", []int{2, 2}, false},
		{" 2X2x2 ", []int{2, 2, 2}, false},
		{"1x1x1x2", []int{1, 1, 1, 2}, false},
		{"2x2x2x2x2", nil, true}, // rank 5
		{"2x0", nil, true},
		{"two", nil, true},
		{"", nil, true},
		{"2x", nil, true},
	}
	for _, tt := range tests {
		got, err := ParseGrid(tt.in)
		if (err != nil) != tt.err || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ParseGrid(%q) = %v, %v; want %v, error %v", tt.in, got, err, tt.want, tt.err)
		}
		if err == nil && GridString(got) == "" {
			t.Errorf("GridString(%v) is empty", got)
		}
	}
}

func TestComparatives(t *testing.T) {
	iv := &Interval{}
	if _, ok := iv.Comparatives(); ok {
		t.Fatal("Comparatives of an interval without processors reported ok")
	}
	// The analyzer's rules: the first processor with the smallest value,
	// the last one with the largest.
	for p, v := range []float64{3, 1, 5, 1, 5} {
		pv := NewProcValues(p)
		pv.Values[Idle] = v
		iv.Procs = append(iv.Procs, pv)
	}
	stats, ok := iv.Comparatives()
	want := Stat{Min: 1, MinProc: 1, Max: 5, MaxProc: 4, Mean: 3}
	if !ok || stats[Idle] != want {
		t.Errorf("Comparatives()[Idle] = %+v, want %+v", stats[Idle], want)
	}
	// A characteristic equal everywhere: the first processor is the
	// lowest, the last the highest.
	if want := (Stat{MinProc: 0, MaxProc: 4}); stats[Efficiency] != want {
		t.Errorf("Comparatives()[Efficiency] = %+v, want %+v", stats[Efficiency], want)
	}
}

func TestCharNames(t *testing.T) {
	for c := Char(0); c < NumChars; c++ {
		got, ok := CharByName(c.String())
		if !ok || got != c {
			t.Errorf("CharByName(%q) = %v, %v", c, got, ok)
		}
	}
	if OpChar(OpShadow, OpComm).String() != "Wait_shadow" || OpChar(OpRedistribution, OpOverlap).String() != "Redistribution_overlap" {
		t.Error("per-class characteristic names are out of order")
	}
}

func TestNonFinite(t *testing.T) {
	last := Char(NumChars - 1)
	tests := []struct {
		name string
		at   Char
		v    float64
		want bool
	}{
		{"finite extremes", ExecutionTime, math.MaxFloat64, false},
		{"negative zero", Efficiency, math.Copysign(0, -1), false},
		{"NaN first", 0, math.NaN(), true},
		{"+Inf last", last, math.Inf(1), true},
		{"-Inf inside", Idle, math.Inf(-1), true},
	}
	for _, tc := range tests {
		iv := &Interval{}
		for p := range 3 {
			iv.Procs = append(iv.Procs, NewProcValues(p))
			for c := range iv.Procs[p].Values {
				iv.Procs[p].Values[c] = -float64(c) * 1e300
			}
		}
		iv.Procs[2].Values[tc.at] = tc.v
		c, v, ok := iv.NonFinite()
		if ok != tc.want {
			t.Errorf("%s: NonFinite reports %v, want %v", tc.name, ok, tc.want)
			continue
		}
		if ok && (c != tc.at || math.Float64bits(v) != math.Float64bits(tc.v)) {
			t.Errorf("%s: NonFinite = %v, %v; want %v, %v", tc.name, c, v, tc.at, tc.v)
		}
	}
}

// TestComparativesOfSharedValues compares the statistics of processors
// that share their values (a simulation's classes) with those of the
// same values each held apart.
func TestComparativesOfSharedValues(t *testing.T) {
	classes := []Values{{}, {}, {}}
	for k := range classes {
		for c := range classes[k] {
			classes[k][c] = float64((k*7+c*3)%5) * 0.1 // ties across classes
		}
	}
	shared, apart := &Interval{}, &Interval{}
	for p, k := range []int{0, 0, 1, 1, 1, 2, 0, 2, 2, 1} {
		shared.Procs = append(shared.Procs, ProcValues{Proc: p, Values: &classes[k]})
		own := classes[k]
		apart.Procs = append(apart.Procs, ProcValues{Proc: p, Values: &own})
	}
	got, _ := shared.Comparatives()
	want, _ := apart.Comparatives()
	if got != want {
		t.Errorf("shared values give %+v, values apart %+v", got, want)
	}
}

// TestAddTo compares AddTo with adding every value, zeros included, once
// per time, from sums of either sign.
func TestAddTo(t *testing.T) {
	var vs, start Values
	for c := range vs {
		switch c % 4 {
		case 0:
			vs[c] = 0
		case 1:
			vs[c] = math.Copysign(0, -1)
		case 2:
			vs[c] = 0.1 * float64(c)
		default:
			vs[c] = -1e-3 / float64(c)
		}
		start[c] = float64(c%3-1) * 1e-7 // +0 stays +0: AddTo's premise
	}
	for _, times := range []int{0, 1, 2, 7, 1000} {
		got, want := start, start
		vs.AddTo(&got, times)
		for range times {
			for c, v := range vs {
				want[c] += v
			}
		}
		for c := range got {
			if math.Float64bits(got[c]) != math.Float64bits(want[c]) {
				t.Errorf("times %d, %v: %v, want %v", times, Char(c), got[c], want[c])
			}
		}
	}
}
