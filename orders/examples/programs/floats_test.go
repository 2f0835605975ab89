package programs

import (
	"bytes"
	"encoding/gob"
	"math"
	"reflect"
	"strings"
	"testing"
)

// roundTrip sends v through gob as the runtime does between processes.
func roundTrip[T any](t *testing.T, v T) T {
	t.Helper()
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(struct{ V T }{v}); err != nil {
		t.Fatal(err)
	}
	var out struct{ V T }
	if err := gob.NewDecoder(&buf).Decode(&out); err != nil {
		t.Fatal(err)
	}
	return out.V
}

func TestMatrixAndItemTravelWhole(t *testing.T) {
	for _, m := range []Matrix{
		{Rows: 2, Cols: 3, Data: []float64{1, -2.5, math.Inf(1), math.SmallestNonzeroFloat64, 0, math.Copysign(0, -1)}},
		{Rows: 0, Cols: 7},
		{},
	} {
		if got := roundTrip(t, m); !reflect.DeepEqual(got, m) {
			t.Errorf("matrix %+v arrived as %+v", m, got)
		}
	}
	for _, it := range []Item{{Xs: []float64{3, 1, 4}, State: 1.5}, {State: -2}, {}} {
		if got := roundTrip(t, it); !reflect.DeepEqual(got, it) {
			t.Errorf("item %+v arrived as %+v", it, got)
		}
	}
	for _, xs := range []numbers{{2, 7, 1}, nil} {
		if got := roundTrip(t, xs); !reflect.DeepEqual(got, xs) {
			t.Errorf("numbers %v arrived as %v", xs, got)
		}
	}
	for _, p := range []piece{{Xs: []float64{5, 3}, Cutoff: 1}, {Cutoff: 4}} {
		if got := roundTrip(t, p); !reflect.DeepEqual(got, p) {
			t.Errorf("piece %+v arrived as %+v", p, got)
		}
	}
	// A strips value (matmul's argument) holds matrices: gob encodes
	// them with theirs.
	s := strips{Row: Matrix{Rows: 1, Cols: 2, Data: []float64{1, 2}}, Col: Matrix{Rows: 2, Cols: 1, Data: []float64{3, 4}}}
	if got := roundTrip(t, s); !reflect.DeepEqual(got, s) {
		t.Errorf("strips %+v arrived as %+v", s, got)
	}
}

// The encoding copies the numbers' bits: 8 bytes a number after the
// two sizes.
func TestMatrixEncodingIsTheBits(t *testing.T) {
	m := Matrix{Rows: 3, Cols: 4, Data: make([]float64, 12)}
	b, err := m.MarshalBinary()
	if err != nil || len(b) != 16+8*12 {
		t.Fatalf("%d bytes, %v; want %d", len(b), err, 16+8*12)
	}
}

func TestUnmarshalBinaryRefuses(t *testing.T) {
	for _, c := range []struct {
		name   string
		b      []byte
		decode func([]byte) error
		want   string
	}{
		{"matrix too short", []byte{1, 2, 3}, new(Matrix).UnmarshalBinary, "fewer than 16 bytes"},
		{"matrix too large", append(bytes.Repeat([]byte{0xff}, 8), make([]byte, 8)...), new(Matrix).UnmarshalBinary, "expected sizes below"},
		{"matrix with a number missing", append([]byte{2, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0}, make([]byte, 8)...), new(Matrix).UnmarshalBinary, "8 bytes for 2 numbers"},
		{"matrix with a partial number", append([]byte{1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0}, make([]byte, 9)...), new(Matrix).UnmarshalBinary, "9 bytes for 1 numbers"},
		{"item of no state", nil, new(Item).UnmarshalBinary, "an item of 0 bytes"},
		{"item with a partial number", make([]byte, 12), new(Item).UnmarshalBinary, "an item of 12 bytes"},
		{"numbers with a partial number", make([]byte, 12), new(numbers).UnmarshalBinary, "12 bytes for 1 numbers"},
		{"piece of no cut-off", []byte{1}, new(piece).UnmarshalBinary, "a piece of 1 bytes"},
		{"piece of a huge cut-off", bytes.Repeat([]byte{0xff}, 8), new(piece).UnmarshalBinary, "expected below"},
	} {
		if err := c.decode(c.b); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one saying %q", c.name, err, c.want)
		}
	}
}

// fuzzDecode checks that what decodes encodes again to the same bytes
// (and that nothing makes the decoding panic).
func fuzzDecode[T interface{ MarshalBinary() ([]byte, error) }, P interface {
	*T
	UnmarshalBinary([]byte) error
}](f *testing.F, seeds ...T) {
	for _, v := range seeds {
		b, err := v.MarshalBinary()
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var v T
		if P(&v).UnmarshalBinary(b) != nil {
			return
		}
		again, err := v.MarshalBinary()
		if err != nil || !bytes.Equal(again, b) {
			t.Fatalf("decoded %d bytes and encoded them again as %d bytes (%v)", len(b), len(again), err)
		}
	})
}

func FuzzMatrixUnmarshalBinary(f *testing.F) {
	fuzzDecode(f, Matrix{Rows: 1, Cols: 2, Data: []float64{1, 2}}, Matrix{})
}

func FuzzItemUnmarshalBinary(f *testing.F) {
	fuzzDecode(f, Item{Xs: []float64{1, 2}, State: 3}, Item{})
}

func FuzzNumbersUnmarshalBinary(f *testing.F) { fuzzDecode(f, numbers{1, 2}, numbers{}) }

func FuzzPieceUnmarshalBinary(f *testing.F) {
	fuzzDecode(f, piece{Xs: []float64{1, 2}, Cutoff: 1}, piece{})
}
