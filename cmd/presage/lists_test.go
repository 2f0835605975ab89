package main

import (
	"reflect"
	"testing"
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
