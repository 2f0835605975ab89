package main

import (
	"math"
	"reflect"
	"testing"

	"github.com/presage-dvm/presage/sim/result"
)

func TestParseInts(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []int
		bad  bool
	}{
		{in: "1,2,4", want: []int{1, 2, 4}},
		{in: "3..6", want: []int{3, 4, 5, 6}},
		{in: "2..9:3", want: []int{2, 5, 8}},
		{in: "1..64:*4", want: []int{1, 4, 16, 64}},
		{in: "1, 5..6", want: []int{1, 5, 6}},
		{in: "0", bad: true},
		{in: "6..3", bad: true},
		{in: "1..8:*1", bad: true},
		{in: "a", bad: true},
		{in: "", bad: true},
	} {
		got, err := parseInts(tc.in)
		if (err != nil) != tc.bad {
			t.Errorf("parseInts(%q): error %v, want error %v", tc.in, err, tc.bad)
			continue
		}
		if !tc.bad && !reflect.DeepEqual(got, tc.want) {
			t.Errorf("parseInts(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

func TestParseFloats(t *testing.T) {
	for _, tc := range []struct {
		in   string
		per  float64
		want []float64
		bad  bool
	}{
		{in: "1,2.5", per: 1, want: []float64{1, 2.5}},
		{in: "10,20", per: 1e6, want: []float64{10e-6, 20e-6}},
		{in: "0.1..0.3:0.1", per: 1, want: []float64{0.1, 0.2, 0.30000000000000004}},
		{in: "1..2", per: 1, bad: true}, // a float range needs a step
		{in: "-1", per: 1, bad: true},
		{in: "x", per: 1, bad: true},
		{in: "0", per: 1, bad: true}, // 0 would mean the machine file's value
		{in: "NaN", per: 1, bad: true},
		{in: "Inf", per: 1, bad: true},
		{in: "0..1:0.5", per: 1, bad: true},
		{in: "1..Inf:1", per: 1, bad: true},
		{in: "1..NaN:1", per: 1, bad: true},
	} {
		got, err := parseFloats(tc.in, tc.per)
		if (err != nil) != tc.bad {
			t.Errorf("parseFloats(%q): error %v, want error %v", tc.in, err, tc.bad)
			continue
		}
		if !tc.bad && !reflect.DeepEqual(got, tc.want) {
			t.Errorf("parseFloats(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

func TestParseGridsAndRange(t *testing.T) {
	g, err := parseGrids("2x2, 8,1x2x3")
	if err != nil || !reflect.DeepEqual(g, [][]int{{2, 2}, {8}, {1, 2, 3}}) {
		t.Errorf("parseGrids = %v, %v", g, err)
	}
	if _, err := parseGrids("2x0"); err == nil {
		t.Error("parseGrids(2x0): no error")
	}
	lo, hi, err := parseRange("1..1024")
	if err != nil || lo != 1 || hi != 1024 {
		t.Errorf("parseRange = %d, %d, %v", lo, hi, err)
	}
	if _, _, err := parseRange("4..2"); err == nil {
		t.Error("parseRange(4..2): no error")
	}
}

// FuzzFlagLists: the parsers of grid, count and number flags never panic
// or hang, and what they accept is valid: grids pass result.CheckGrid,
// counts are positive, numbers positive and finite, ranges ordered.
func FuzzFlagLists(f *testing.F) {
	for _, s := range []string{"2x2,4x4", "1..1024:*2", "0.1..0.3:0.1", "4294967296x4294967296", "2x9223372036854775807",
		"1..2000000", "NaN", "1e308", "-1", "1..8:*1", "3/16"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if grids, err := parseGrids(s); err == nil {
			for _, g := range grids {
				if err := result.CheckGrid(g); err != nil {
					t.Errorf("parseGrids(%q) accepted %v: %v", s, g, err)
				}
			}
		}
		if ns, err := parseInts(s); err == nil {
			for _, n := range ns {
				if n < 1 {
					t.Errorf("parseInts(%q) accepted %d", s, n)
				}
			}
		}
		if vs, err := parseFloats(s, 1e6); err == nil {
			for _, v := range vs {
				if !(v > 0) || math.IsInf(v, 0) {
					t.Errorf("parseFloats(%q) accepted %v", s, v)
				}
			}
		}
		if lo, hi, err := parseRange(s); err == nil && (lo < 1 || hi < lo) {
			t.Errorf("parseRange(%q) = %d..%d", s, lo, hi)
		}
		if i, n, err := parseShard(s); err == nil && s != "" && (n < 1 || i < 0 || i >= n) {
			t.Errorf("parseShard(%q) = %d/%d", s, i, n)
		}
	})
}
