package store

import (
	"math"
	"reflect"
	"testing"
)

// TestEmitProcValues unfolds stored arrays as the view
// interval_proc_values does: by class, and by processor for intervals
// stored before classes.
func TestEmitProcValues(t *testing.T) {
	tests := []struct {
		name    string
		classes string // "" for none: indexed by processor
		series  map[int64]string
		want    []procValue
	}{
		{
			name: "by class", classes: "[0,1,null,0]",
			series: map[int64]string{0: "[0.5,0.25]", 3: "[null,9e999]"},
			want: []procValue{
				{7, 0, 0, 0.5}, {7, 1, 0, 0.25}, {7, 1, 3, math.Inf(1)}, {7, 3, 0, 0.5},
			},
		},
		{
			name:   "by processor",
			series: map[int64]string{0: "[0.5, 0.25, null]", 3: "[null,null,1e-300,7]"},
			want: []procValue{
				{7, 0, 0, 0.5}, {7, 1, 0, 0.25}, {7, 2, 3, 1e-300}, {7, 3, 3, 7},
			},
		},
		{name: "empty", classes: "[]", series: map[int64]string{0: "[]"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var classes []int32
			if tc.classes != "" {
				var err error
				if classes, err = decodeClasses([]byte(tc.classes)); err != nil {
					t.Fatal(err)
				}
			}
			var series []charSeries
			for char := range int64(4) {
				if text, ok := tc.series[char]; ok {
					vals, err := decodeSeries([]byte(text))
					if err != nil {
						t.Fatal(err)
					}
					series = append(series, charSeries{char: char, vals: vals})
				}
			}
			var got []procValue
			if err := emitProcValues(7, classes, series, func(v procValue) error { got = append(got, v); return nil }); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

func TestDecodeErrors(t *testing.T) {
	for _, text := range []string{"", "[", "{}", "[1,x]", "[-1]"} {
		if _, err := decodeClasses([]byte(text)); err == nil {
			t.Errorf("decodeClasses(%q) succeeded", text)
		}
	}
	for _, text := range []string{"", "[1,x]", "[0x10]", "1"} {
		if _, err := decodeSeries([]byte(text)); err == nil {
			t.Errorf("decodeSeries(%q) succeeded", text)
		}
	}
}
