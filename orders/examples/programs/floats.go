package programs

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// The examples' values that cross processes carry thousands of float64s.
// encoding/gob, which carries the runtime's values, encodes each number
// on its own (about 85 MB/s here, docs/orders.md); a type that encodes
// itself (encoding.BinaryMarshaler, which gob calls) copies their bits
// instead. These are the encodings of Matrix, Item and the merge sort's
// values: a few integers, then the numbers, each 8 bytes little-endian.

// appendFloats appends the bits of xs to b, 8 bytes each.
func appendFloats(b []byte, xs []float64) []byte {
	for _, x := range xs {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(x))
	}
	return b
}

// readFloats reads n numbers from b, which must hold exactly them; none
// is nil, as gob decodes an empty slice.
func readFloats(b []byte, n int) ([]float64, error) {
	if n < 0 || len(b)%8 != 0 || len(b)/8 != n {
		return nil, fmt.Errorf("%d bytes for %d numbers (expected 8 bytes a number)", len(b), n)
	}
	if n == 0 {
		return nil, nil
	}
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:]))
	}
	return xs, nil
}

// MarshalBinary encodes m: its rows and columns, then its numbers.
func (m Matrix) MarshalBinary() ([]byte, error) {
	b := make([]byte, 0, 16+8*len(m.Data))
	b = binary.LittleEndian.AppendUint64(b, uint64(m.Rows))
	b = binary.LittleEndian.AppendUint64(b, uint64(m.Cols))
	return appendFloats(b, m.Data), nil
}

// UnmarshalBinary decodes what MarshalBinary encoded.
func (m *Matrix) UnmarshalBinary(b []byte) error {
	if len(b) < 16 {
		return errors.New("programs: a matrix of fewer than 16 bytes (expected its rows and columns first)")
	}
	rows, cols := binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint64(b[8:])
	if rows > math.MaxInt32 || cols > math.MaxInt32 {
		return fmt.Errorf("programs: a matrix of %d×%d (expected sizes below 2³¹)", rows, cols)
	}
	data, err := readFloats(b[16:], int(rows*cols))
	if err != nil {
		return fmt.Errorf("programs: a %d×%d matrix: %w", rows, cols, err)
	}
	*m = Matrix{Rows: int(rows), Cols: int(cols), Data: data}
	return nil
}

// MarshalBinary encodes it: its state, then its numbers.
func (it Item) MarshalBinary() ([]byte, error) {
	b := make([]byte, 0, 8+8*len(it.Xs))
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(it.State))
	return appendFloats(b, it.Xs), nil
}

// UnmarshalBinary decodes what MarshalBinary encoded.
func (it *Item) UnmarshalBinary(b []byte) error {
	if len(b) < 8 || len(b)%8 != 0 {
		return fmt.Errorf("programs: an item of %d bytes (expected its state, then 8 bytes a number)", len(b))
	}
	xs, err := readFloats(b[8:], len(b)/8-1)
	if err != nil {
		return fmt.Errorf("programs: an item: %w", err)
	}
	*it = Item{Xs: xs, State: math.Float64frombits(binary.LittleEndian.Uint64(b))}
	return nil
}

// numbers are the merge sort's results.
type numbers []float64

// MarshalBinary encodes xs: its numbers.
func (xs numbers) MarshalBinary() ([]byte, error) {
	return appendFloats(make([]byte, 0, 8*len(xs)), xs), nil
}

// UnmarshalBinary decodes what MarshalBinary encoded.
func (xs *numbers) UnmarshalBinary(b []byte) error {
	v, err := readFloats(b, len(b)/8)
	if err != nil {
		return fmt.Errorf("programs: numbers: %w", err)
	}
	*xs = v
	return nil
}

// MarshalBinary encodes p: its cut-off, then its numbers.
func (p piece) MarshalBinary() ([]byte, error) {
	b := make([]byte, 0, 8+8*len(p.Xs))
	b = binary.LittleEndian.AppendUint64(b, uint64(p.Cutoff))
	return appendFloats(b, p.Xs), nil
}

// UnmarshalBinary decodes what MarshalBinary encoded.
func (p *piece) UnmarshalBinary(b []byte) error {
	if len(b) < 8 {
		return fmt.Errorf("programs: a piece of %d bytes (expected its cut-off first)", len(b))
	}
	cutoff := binary.LittleEndian.Uint64(b)
	if cutoff > math.MaxInt32 {
		return fmt.Errorf("programs: a piece's cut-off of %d (expected below 2³¹)", cutoff)
	}
	xs, err := readFloats(b[8:], len(b[8:])/8)
	if err != nil {
		return fmt.Errorf("programs: a piece: %w", err)
	}
	*p = piece{Xs: xs, Cutoff: int(cutoff)}
	return nil
}
