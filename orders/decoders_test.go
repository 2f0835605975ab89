package orders

import (
	"bytes"
	"encoding/gob"
	"fmt"
	"reflect"
	"sync"
	"testing"
)

type point struct {
	X, Y  float64
	Label string
}

// streams are gob streams as values travel: one value, and several whose
// definitions come between them (a point's after the int's value).
func streams(t testing.TB) map[string][]byte {
	t.Helper()
	one, err := encode1(point{1, 2, "a"})
	if err != nil {
		t.Fatal(err)
	}
	interleaved, err := encode3(7, point{3, 4, "b"}, []string{"x", "y"})
	if err != nil {
		t.Fatal(err)
	}
	return map[string][]byte{"one": one, "interleaved": interleaved}
}

func TestSplitStream(t *testing.T) {
	for name, b := range streams(t) {
		defs, values, ok := splitStream(b)
		if !ok {
			t.Fatalf("%s: not split", name)
		}
		if len(defs)+len(values) != len(b) || len(defs) == 0 || len(values) == 0 {
			t.Errorf("%s: %d bytes of definitions and %d of values from %d", name, len(defs), len(values), len(b))
		}
		again, rest, ok := splitStream(append(append([]byte{}, defs...), values...))
		if !ok || !bytes.Equal(again, defs) || !bytes.Equal(rest, values) {
			t.Errorf("%s: the definitions then the values split into %d and %d bytes (%v)", name, len(again), len(rest), ok)
		}
	}
	for _, bad := range [][]byte{{5, 1}, {0x81}, {0xf0, 1, 2}, {1, 0x80}} {
		if _, _, ok := splitStream(bad); ok {
			t.Errorf("% x split", bad)
		}
	}
}

// A stream's decoder is kept once it has read the stream whole, and the
// next stream of the same definitions is read by it, from its values.
// (sync.Pool drops a quarter of what it is given under the race
// detector: most streams, not all, find a decoder kept.)
func TestDecodersKept(t *testing.T) {
	const streams = 20
	kept := 0
	for i := range streams {
		b, err := encode3(i, point{float64(i), -1, fmt.Sprint(i)}, []string{"x"})
		if err != nil {
			t.Fatal(err)
		}
		d := newDecoder(b)
		if d.in.Len() < len(b) { // a kept decoder reads the values alone
			kept++
		}
		n, p, s := take[int](d), take[point](d), take[[]string](d)
		d.done()
		if d.err != nil || n != i || p != (point{float64(i), -1, fmt.Sprint(i)}) || !reflect.DeepEqual(s, []string{"x"}) {
			t.Fatalf("stream %d: %v %v %v, %v", i, n, p, s, d.err)
		}
	}
	if kept < streams/2 {
		t.Errorf("%d of %d streams read by a decoder kept from the ones before, want most", kept, streams)
	}
}

// A stream that fails to decode leaves no decoder kept, and the next
// stream of its definitions decodes right.
func TestFailedDecoderNotKept(t *testing.T) {
	good, err := encode1(point{5, 6, "c"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := decode1[point](good); err != nil {
		t.Fatal(err)
	}
	defs, _, _ := splitStream(good)
	// The same definitions, then a value of a type they do not define.
	bad := append(append([]byte{}, defs...), 3, 0x7e, 1, 2)
	if _, err := decode1[point](bad); err == nil {
		t.Fatal("a value of an undefined type decoded")
	}
	for range 2 {
		if p, err := decode1[point](good); err != nil || p != (point{5, 6, "c"}) {
			t.Errorf("after a failed stream: %v, %v", p, err)
		}
	}
}

// Decoders kept are shared by goroutines decoding at once (run with
// -race).
func TestDecodersKeptAtOnce(t *testing.T) {
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 200 {
				want := point{float64(g), float64(i), fmt.Sprint(g, i)}
				b, err := encode1(want)
				if err != nil {
					t.Error(err)
					return
				}
				if got, err := decode1[point](b); err != nil || got != want {
					t.Errorf("%v, %v; want %v", got, err, want)
					return
				}
			}
		})
	}
	wg.Wait()
}

func FuzzSplitStream(f *testing.F) {
	for _, b := range streams(f) {
		f.Add(b)
	}
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		defs, values, ok := splitStream(b)
		if !ok {
			return
		}
		if len(defs)+len(values) != len(b) {
			t.Fatalf("%d bytes of definitions and %d of values from %d", len(defs), len(values), len(b))
		}
		again, rest, ok := splitStream(append(append([]byte{}, defs...), values...))
		if !ok || !bytes.Equal(again, defs) || !bytes.Equal(rest, values) {
			t.Fatalf("the parts split again differently (whole: %v)", ok)
		}
	})
}

// BenchmarkDecode1 decodes a small struct as a worker process decodes an
// order's arguments: with the decoders kept, and with a new gob.Decoder
// for each stream as before.
func BenchmarkDecode1(b *testing.B) {
	s, err := encode1(point{1, 2, "a"})
	if err != nil {
		b.Fatal(err)
	}
	b.Run("kept", func(b *testing.B) {
		for b.Loop() {
			if _, err := decode1[point](s); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("new", func(b *testing.B) {
		for b.Loop() {
			var v box[point]
			if err := gob.NewDecoder(bytes.NewReader(s)).Decode(&v); err != nil {
				b.Fatal(err)
			}
		}
	})
}
