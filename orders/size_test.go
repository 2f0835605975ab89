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

// TestSizeOfScalars: sizeOf, the runtime's way to size arguments and
// results, agrees with SizeOf on every predeclared scalar type and on
// the types it leaves to SizeOf, and sizes the scalars without
// allocating.
func TestSizeOfScalars(t *testing.T) {
	type celsius float64 // a named type: SizeOf's walk, not the switch
	check := func(name string, got, want int64) {
		if got != want {
			t.Errorf("%s: sizeOf = %d, SizeOf = %d", name, got, want)
		}
	}
	check("int", sizeOf(1000), SizeOf(1000))
	check("uint", sizeOf(uint(1000)), SizeOf(uint(1000)))
	check("uintptr", sizeOf(uintptr(1000)), SizeOf(uintptr(1000)))
	check("int64", sizeOf(int64(1000)), SizeOf(int64(1000)))
	check("uint64", sizeOf(uint64(1000)), SizeOf(uint64(1000)))
	check("float64", sizeOf(1.5), SizeOf(1.5))
	check("complex64", sizeOf(complex64(1i)), SizeOf(complex64(1i)))
	check("complex128", sizeOf(2i), SizeOf(2i))
	check("int32", sizeOf(int32(1000)), SizeOf(int32(1000)))
	check("uint32", sizeOf(uint32(1000)), SizeOf(uint32(1000)))
	check("float32", sizeOf(float32(1.5)), SizeOf(float32(1.5)))
	check("int16", sizeOf(int16(1000)), SizeOf(int16(1000)))
	check("uint16", sizeOf(uint16(1000)), SizeOf(uint16(1000)))
	check("int8", sizeOf(int8(100)), SizeOf(int8(100)))
	check("uint8", sizeOf(uint8(200)), SizeOf(uint8(200)))
	check("bool", sizeOf(true), SizeOf(true))
	check("string", sizeOf("héllo"), SizeOf("héllo"))
	check("named float", sizeOf(celsius(1.5)), SizeOf(celsius(1.5)))
	check("Sizer", sizeOf(sized{}), SizeOf(sized{}))
	check("slice", sizeOf([]float64{1, 2}), SizeOf([]float64{1, 2}))
	check("handle", sizeOf(Ready(5)), SizeOf(Ready(5)))
	big := uint64(1 << 40) // not one of the values Go boxes without allocating
	if n := testing.AllocsPerRun(100, func() { big += uint64(sizeOf(big)) }); n != 0 {
		t.Errorf("sizeOf(uint64) allocates %v times", n)
	}
}
