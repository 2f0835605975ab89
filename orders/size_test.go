package orders

import "testing"

type sized struct{}

func (sized) Bytes() int64 { return 42 }

func TestSizeOf(t *testing.T) {
	type pair struct {
		A []float64
		B int
	}
	type withHandle struct {
		H *Handle[int]
		X [3]int32
	}
	var nilMatrix *pair
	tests := []struct {
		name string
		v    any
		want int64
	}{
		{"float64", 1.5, 8},
		{"floats", []float64{1, 2, 3}, 24},
		{"int32 array", [4]int32{}, 16},
		{"int", 7, 8},
		{"string", "héllo", 6},
		{"Sizer", sized{}, 42},
		{"struct of slice and int", pair{A: make([]float64, 10), B: 1}, 88},
		{"pointer", &pair{A: make([]float64, 2)}, 24},
		{"nil pointer", nilMatrix, 0},
		{"nested slices", [][]float64{{1, 2}, {3}}, 24},
		{"handle inside", withHandle{H: &Handle[int]{o: &order{}}}, 12},
		{"ready value inside", withHandle{H: Ready(5)}, 20},
		{"nil handle inside", withHandle{}, 12},
		{"map", map[int]int{1: 1}, 0},
		{"Sizers in a slice", []sized{{}, {}}, 84},
	}
	for _, tt := range tests {
		if got := SizeOf(tt.v); got != tt.want {
			t.Errorf("%s: SizeOf = %d, want %d", tt.name, got, tt.want)
		}
	}
}
