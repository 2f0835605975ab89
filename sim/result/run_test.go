package result

import (
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
		pv := ProcValues{Proc: p}
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
