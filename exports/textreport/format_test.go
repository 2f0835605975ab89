package textreport

import (
	"reflect"
	"testing"
)

func TestJSONFloat(t *testing.T) {
	for _, tc := range []struct {
		v    float64
		want string
	}{
		{0, "0.0"},
		{1, "1.0"},
		{2000, "2000.0"},
		{0.003962301208318506, "0.003962301208318506"},
		{9.298324584960938e-06, "9.298324584960938e-06"},
		{1795344795.224889, "1795344795.224889"},
		{-3.720662080975345e-103, "-3.720662080975345e-103"},
		{1.5e-323, "1.5e-323"},
		{1e16, "1e+16"},
		// Ties between two shortest candidates go up, as in the original.
		{7.2956085205078125e-05, "7.295608520507813e-05"},
		{2.50339508056640625e-06, "2.5033950805664063e-06"},
		{0.5, "0.5"},
		{123456789012345.0, "123456789012345.0"},
	} {
		if got := jsonFloat(tc.v); got != tc.want {
			t.Errorf("jsonFloat(%v) = %s, want %s", tc.v, got, tc.want)
		}
	}
}

func TestParseProcs(t *testing.T) {
	for _, tc := range []struct {
		list string
		want map[int]bool
		err  bool
	}{
		{"", nil, false},
		{"0", map[int]bool{}, false},
		{"1-2", map[int]bool{1: true, 2: true}, false},
		{"1,3-4", map[int]bool{1: true, 3: true, 4: true}, false},
		{"2-9", map[int]bool{2: true, 3: true, 4: true}, false},
		{"3-1", nil, true},
		{"x", nil, true},
	} {
		got, err := ParseProcs(tc.list, 4)
		if (err != nil) != tc.err || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ParseProcs(%q) = %v, %v; want %v (error %v)", tc.list, got, err, tc.want, tc.err)
		}
	}
}
