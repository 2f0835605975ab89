package ptr

import (
	"bytes"
	"io"
	"reflect"
	"testing"

	"github.com/presage-dvm/presage/sim/trace"
)

// readAll returns copies of every call of r with their parameters left
// out (TextOnly readers have none) and the text size.
func readAll(t *testing.T, r *Reader) ([]trace.Call, int64) {
	t.Helper()
	var calls []trace.Call
	for {
		c, err := r.Next()
		if err == io.EOF {
			return calls, r.TextBytes()
		}
		if err != nil {
			t.Fatal(err)
		}
		cp := *c
		cp.In, cp.Out = nil, nil
		calls = append(calls, cp)
	}
}

// TestConcurrentTextOnly reads a gzip trace of several read-ahead blocks
// with the inflater and TextOnly: the same calls and size as NewReader's.
func TestConcurrentTextOnly(t *testing.T) {
	data := readGolden(t, "jac1d_x1000.ptr.gz")
	plain, err := NewReader(bytes.NewReader(data), "x")
	if err != nil {
		t.Fatal(err)
	}
	want, wantBytes := readAll(t, plain)
	r, err := NewConcurrentReader(bytes.NewReader(data), "x")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	r.TextOnly()
	got, gotBytes := readAll(t, r)
	if gotBytes != wantBytes || gotBytes <= 2*aheadSize {
		t.Errorf("text bytes %d, want %d (more than two read-ahead blocks)", gotBytes, wantBytes)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("concurrent text-only reader: %d calls differ from NewReader's %d", len(got), len(want))
	}
}

// TestConcurrentCloseEarly closes a concurrent reader after one call: the
// inflating goroutine, blocked on its full queue, must stop, and Close
// must not wait for the rest of the file.
func TestConcurrentCloseEarly(t *testing.T) {
	r, err := NewConcurrentReader(bytes.NewReader(readGolden(t, "jac1d_x1000.ptr.gz")), "x")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Next(); err != nil {
		t.Fatal(err)
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
}
