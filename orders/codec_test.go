package orders

import (
	"bytes"
	"encoding/gob"
	"sync/atomic"
	"testing"

	"github.com/presage-dvm/presage/orders/calibration"
)

// counted is a value that counts how often gob encodes and decodes it.
type counted struct{ N int }

var encodes, decodes atomic.Int64

func (v counted) GobEncode() ([]byte, error) {
	encodes.Add(1)
	var b bytes.Buffer
	err := gob.NewEncoder(&b).Encode(v.N)
	return b.Bytes(), err
}

func (v *counted) GobDecode(b []byte) error {
	decodes.Add(1)
	return gob.NewDecoder(bytes.NewReader(b)).Decode(&v.N)
}

var codecLeaf = Proc("codec-leaf", func(c *Ctx, v counted) (counted, error) { return counted{v.N + 1}, nil })

// codecMain makes two leaves and requests the first twice, the second
// once.
var codecMain = Proc("codec-main", func(c *Ctx, n int) (int, error) {
	a, b := Make(c, codecLeaf, counted{n}), Make(c, codecLeaf, counted{n + 1})
	total := 0
	for _, h := range []*Handle[counted]{a, a, b} {
		v, err := h.Get(c)
		if err != nil {
			return 0, err
		}
		total += v.N
	}
	return total, nil
})

// Recording with Codec encodes and decodes what a run in worker
// processes does, as it does: each leaf's arguments encoded by main and
// decoded by the leaf, each result encoded by its leaf and decoded by
// main once per handle however often it asks; without Codec, nothing.
// The answer is the same, and so are the trace's orders and bytes, but
// main's arguments: with Codec they are the bytes the coordinator sends
// main's worker.
func TestRecordCodecEncodesAsWorkersDo(t *testing.T) {
	ignoreProcsDeclaredTwice(t)
	traces := map[bool]*bytes.Buffer{}
	for _, codec := range []bool{false, true} {
		encodes.Store(0)
		decodes.Store(0)
		traces[codec] = &bytes.Buffer{}
		got, _, err := Main(Config{Mode: ModeRecord, Codec: codec, Constants: calibration.Constants{}, Output: traces[codec]}, codecMain, 1)
		if err != nil || got != 2+2+3 {
			t.Fatalf("codec %v: %d, %v; want 7", codec, got, err)
		}
		want := int64(0)
		if codec {
			want = 4 // 2 arguments and 2 results, each way
		}
		if encodes.Load() != want || decodes.Load() != want {
			t.Errorf("codec %v: %d encodings and %d decodings, want %d of each", codec, encodes.Load(), decodes.Load(), want)
		}
	}
	plain, coded := readTrace(t, traces[false].Bytes()), readTrace(t, traces[true].Bytes())
	if len(plain) != 3 || len(coded) != 3 {
		t.Fatalf("%d and %d orders, want 3", len(plain), len(coded))
	}
	if main, err := encode1(1); err != nil || plain[0].ArgBytes != 0 || coded[0].ArgBytes != int64(len(main)) {
		t.Errorf("main's arguments: %d bytes, with Codec %d; want 0, and %d encoded (%v)", plain[0].ArgBytes, coded[0].ArgBytes, len(main), err)
	}
	for i := range plain {
		if i > 0 && plain[i].ArgBytes != coded[i].ArgBytes || plain[i].Results[0].Bytes != coded[i].Results[0].Bytes {
			t.Errorf("order %d: %+v and %+v, want the same bytes", i+1, plain[i], coded[i])
		}
	}
}

// ignoreProcsDeclaredTwice hides from a test the procedures declared more
// than once so far, and gives them back when it ends. A program declares
// its procedures once, at package level; many tests here declare theirs
// inside the test, under names other tests use too, so that a run with
// Codec (which refuses such names, as a worker would) fails or passes by
// the order the tests ran in, and always fails the second time under
// go test -count 2.
func ignoreProcsDeclaredTwice(t *testing.T) {
	registry.Lock()
	hidden := registry.twice
	registry.twice = nil
	registry.Unlock()
	t.Cleanup(func() {
		registry.Lock()
		registry.twice = append(hidden, registry.twice...)
		registry.Unlock()
	})
}
