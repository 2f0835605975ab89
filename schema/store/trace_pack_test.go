package store

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// TestTimeRoundTrip encodes times of both kinds and checks that they
// decode bit for bit and take the expected form.
func TestTimeRoundTrip(t *testing.T) {
	parse := func(s string) float64 {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, tt := range []struct {
		name string
		t    float64
		raw  bool
	}{
		{"zero", 0, false},
		{"8 decimals", parse("0.00000314"), false},
		{"one tick", parse("0.00000001"), false},
		{"seconds", parse("12345.67891234"), false},
		{"negative", parse("-0.50000001"), false},
		{"largest ticks", float64(maxTicks-1) / tickScale, false},
		{"negative zero", math.Copysign(0, -1), true},
		{"9 decimals", parse("0.000000005"), true},
		{"a third", 1.0 / 3, true},
		{"huge", 1e300, true},
		{"beyond ticks", float64(maxTicks) / tickScale * 2, true},
		{"infinity", math.Inf(1), true},
		{"NaN", math.NaN(), true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b := appendTime(nil, tt.t)
			if raw := b[0] == rawTime; raw != tt.raw || (raw && len(b) != 9) {
				t.Errorf("encoded as % x: raw %v, want %v", b, raw, tt.raw)
			}
			d := chunkDecoder{data: b}
			got, err := d.time()
			if err != nil || math.Float64bits(got) != math.Float64bits(tt.t) || !d.done() {
				t.Errorf("decoded %v (%#x), %v; want %v (%#x)", got, math.Float64bits(got), err, tt.t, math.Float64bits(tt.t))
			}
		})
	}
}

// TestTraceTimesAreTicks checks that every time written with 8 decimals,
// as traces write them, is stored as ticks and read back as strconv reads
// the text.
func TestTraceTimesAreTicks(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 200000 {
		ticks := r.Int64N(1 << uint(1+i%45))
		s := strconv.FormatInt(ticks, 10)
		s = strings.Repeat("0", max(0, 9-len(s))) + s
		text := s[:len(s)-8] + "." + s[len(s)-8:]
		want, err := strconv.ParseFloat(text, 64)
		if err != nil {
			t.Fatal(err)
		}
		b := appendTime(nil, want)
		d := chunkDecoder{data: b}
		got, err := d.time()
		if b[0] == rawTime || err != nil || math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("%s: encoded % x, decoded %v, %v", text, b, got, err)
		}
	}
}

// TestChunkRoundTrip packs calls into a chunk and decodes them, then
// decodes every truncation of the chunk, which must fail, not panic.
func TestChunkRoundTrip(t *testing.T) {
	calls := []packedCall{
		{shape: 0, callTime: 0.00000314, retTime: 0.00000201, traceLine: 12},
		{shape: 300, callTime: 1.0 / 3, retTime: 0, traceLine: 15},
		{shape: 2, callTime: 7, retTime: math.Copysign(0, -1), traceLine: 14}, // lines need not grow
		{shape: 1 << 40, callTime: 1e-8, retTime: 123.45678901, traceLine: 1 << 30},
	}
	var b []byte
	prev := 0
	ends := map[int]bool{0: true} // chunk lengths that end after a call
	for _, c := range calls {
		b = appendCall(b, c, prev)
		prev = c.traceLine
		ends[len(b)] = true
	}
	var d chunkDecoder
	d.reset(b)
	for i, want := range calls {
		got, err := d.next()
		if err != nil || !sameCall(got, want) {
			t.Errorf("call %d = %+v, %v; want %+v", i, got, err, want)
		}
	}
	if !d.done() {
		t.Errorf("%d bytes left", len(b)-d.off)
	}
	for n := range len(b) {
		d.reset(b[:n])
		var err error
		for err == nil && !d.done() {
			_, err = d.next()
		}
		if (err == nil) != ends[n] {
			t.Errorf("truncated to %d bytes: error %v", n, err)
		}
	}
	d.reset([]byte{0, 3}) // shape 0, then an odd time tag other than raw
	if _, err := d.next(); err == nil || !strings.Contains(err.Error(), "bad time tag") {
		t.Errorf("bad tag: %v", err)
	}
}

// FuzzChunkDecoder decodes arbitrary bytes as a chunk: the decoder must
// fail, saying at which byte, or succeed without panicking, and the calls
// it decodes must survive encoding and decoding again bit for bit (the
// bytes need not: a decoder accepts longer varints than the encoder
// writes).
func FuzzChunkDecoder(f *testing.F) {
	var seed []byte
	prev := 0
	for _, c := range []packedCall{
		{shape: 0, callTime: 0.00000314, retTime: 0.00000201, traceLine: 12},
		{shape: 300, callTime: 1.0 / 3, retTime: 0, traceLine: 15},
		{shape: 2, callTime: 7, retTime: math.NaN(), traceLine: 14},
	} {
		seed = appendCall(seed, c, prev)
		prev = c.traceLine
	}
	f.Add(seed)
	f.Add([]byte{0, 3})
	f.Add([]byte{0, rawTime, 1, 2})
	f.Fuzz(func(t *testing.T, data []byte) {
		calls, err := decodeChunk(data)
		if err != nil && !strings.HasPrefix(err.Error(), "byte ") {
			t.Fatalf("error %q does not say where", err)
		}
		var again []byte
		prev := 0
		for _, c := range calls {
			again = appendCall(again, c, prev)
			prev = c.traceLine
		}
		back, err := decodeChunk(again)
		if err != nil || len(back) != len(calls) {
			t.Fatalf("%d calls encode to % x, which decodes to %d calls, %v", len(calls), again, len(back), err)
		}
		for i, c := range calls {
			if !sameCall(back[i], c) {
				t.Fatalf("call %d: %+v comes back as %+v", i, c, back[i])
			}
		}
	})
}

// decodeChunk decodes the calls of data up to the end or the first error.
func decodeChunk(data []byte) ([]packedCall, error) {
	var d chunkDecoder
	d.reset(data)
	var calls []packedCall
	for !d.done() {
		c, err := d.next()
		if err != nil {
			return calls, err
		}
		calls = append(calls, c)
	}
	return calls, nil
}

func sameCall(a, b packedCall) bool {
	return a.shape == b.shape && a.traceLine == b.traceLine &&
		math.Float64bits(a.callTime) == math.Float64bits(b.callTime) &&
		math.Float64bits(a.retTime) == math.Float64bits(b.retTime)
}
