package sts_test

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/ingest/sts"
	"github.com/presage-dvm/presage/internal/golden"
	"github.com/presage-dvm/presage/internal/ststest"
)

func gzipped(b []byte) []byte {
	var out bytes.Buffer
	zw := gzip.NewWriter(&out)
	zw.Write(b)
	zw.Close()
	return out.Bytes()
}

func TestDecodeLayouts(t *testing.T) {
	le := ststest.Simple(2)
	be := ststest.Simple(2)
	be.Order = binary.BigEndian
	narrow := ststest.Simple(2)
	narrow.SizeLong, narrow.SizePtr = 4, 4
	for _, tc := range []struct {
		name   string
		data   []byte
		layout string
	}{
		{"gz+", le.GzPlus(), "gz+"},
		{"plain", le.Plain(), "plain"},
		{"gzip of gz+", gzipped(le.GzPlus()), "gz+"},
		{"big endian", be.GzPlus(), "gz+"},
		{"4-byte longs and pointers", narrow.GzPlus(), "gz+"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := sts.Decode(bytes.NewReader(tc.data), "x.sts")
			if err != nil {
				t.Fatal(err)
			}
			if f.Layout != tc.layout || len(f.Procs) != 2 {
				t.Fatalf("layout %s with %d processors, want %s with 2", f.Layout, len(f.Procs), tc.layout)
			}
			p := f.Procs[1]
			h := p.Header
			if h.ProcName != "node" || h.Version != "5.0" || h.ProcTime != 0.16 || h.QFrag != 2 || h.DVMH.Threads != 1 {
				t.Errorf("header %+v", h)
			}
			if len(p.Intervals) != 2 {
				t.Fatalf("%d intervals, want 2", len(p.Intervals))
			}
			root, loop := p.Intervals[0], p.Intervals[1]
			if root.Down != 2 || root.Up != 0 || loop.Up != 1 || loop.Next != 0 || loop.Level != 1 || loop.Type != sts.TypePar {
				t.Errorf("links root %d/%d loop %d/%d level %d type %d", root.Up, root.Down, loop.Up, loop.Next, loop.Level, loop.Type)
			}
			if loop.Times[3][1].Lost != 0.006 || loop.Times[0][3].Count != 5 || loop.Enter != 5 || loop.File != "jac.fdv" {
				t.Errorf("loop matrix or fields wrong: %+v %+v", loop.Times[3][1], loop.Times[0][3])
			}
			if prod, lost := loop.GPUTimes(); prod != 0 || lost != 0 {
				t.Errorf("GPU times %v %v of unused GPUs, want 0", prod, lost)
			}
			if len(p.Times) != 15 || p.Times[0].Item != 26 || p.Times[1].Item != 7 || p.Times[1].Time != 1000.001 || p.Times[1].Group != 0xabc0 {
				t.Errorf("time records in wrong order: %+v", p.Times[:2])
			}
		})
	}
}

// corrupt rebuilds a gz+ file of spec after changing processor 0's buffer.
func corrupt(spec ststest.Spec, change func(b []byte)) []byte {
	b := spec.Buffer(0)
	change(b)
	out := []byte(fmt.Sprintf("%d\x00%d\x00", len(b), len(spec.Procs)))
	out = append(out, ststest.Compress(b)...)
	for p := 1; p < len(spec.Procs); p++ {
		out = append(out, ststest.Compress(spec.Buffer(p))...)
	}
	return out
}

// truncatedZlib returns a one-processor file whose zlib stream stops
// halfway while its block size agrees with what is there.
func truncatedZlib(spec ststest.Spec) []byte {
	block := ststest.Compress(spec.Buffer(0))
	z := block[11:] // after the "%.10d\x00" size
	z = z[:len(z)/2]
	return []byte(fmt.Sprintf("%d\x001\x00%.10d\x00%s", len(spec.Buffer(0)), len(z), z))
}

// Header offsets of the longs in a buffer with 2-byte shorts.
const (
	offQFrag  = 18 + 8*3
	offLInter = 18 + 8*5
)

// withGrid is spec with the processor grid its headers state.
func withGrid(spec ststest.Spec, grid ...int64) []byte {
	spec.Grid = grid
	return spec.GzPlus()
}

func TestDecodeErrors(t *testing.T) {
	spec := ststest.Simple(2)
	good := spec.GzPlus()
	le := binary.LittleEndian
	rec := spec.RecordsOffset(0)
	recLen := 2*2 + 7*8 + 4*8 + 7*8 + 3*28*28*8 + 11272 + 16 + len("jac.fdv") + 1
	ptr, _ := os.ReadFile(filepath.Join(golden.Dir(t), "data", "traces", "jac1d.ptr"))
	for _, tc := range []struct {
		name string
		data []byte
		proc int
		want string
	}{
		{"ptr trace", ptr, -1, "not a statistics file"},
		{"empty", nil, -1, "not a statistics file"},
		{"truncated preamble", good[:5], -1, "truncated"},
		{"truncated file", good[:40], -1, "truncated: the file ends 21 bytes into the"},
		{"truncated zlib stream", truncatedZlib(spec), 0, "truncated: the buffer ends inside"},
		{"truncated last block", good[:len(good)-10], -1, "compressed bytes of processor 1"},
		{"bad marker", corrupt(spec, func(b []byte) { b[0], b[1] = 7, 7 }), 0, "byte-order marker"},
		{"short size 4", corrupt(spec, func(b []byte) { le.PutUint16(b[2:], 4) }), 0, "bad header sizes"},
		{"double size 4", corrupt(spec, func(b []byte) { le.PutUint16(b[8:], 4) }), 0, "bad header sizes"},
		{"long size 99", corrupt(spec, func(b []byte) { le.PutUint16(b[4:], 99) }), 0, "bad header sizes"},
		{"records past the end", corrupt(spec, func(b []byte) { le.PutUint64(b[offQFrag:], 3) }), 0, "runs past the end"},
		{"interval bytes past the buffer", corrupt(spec, func(b []byte) { le.PutUint64(b[offLInter:], 1<<40) }), 0, "exceed the buffer size"},
		{"unknown interval type", corrupt(spec, func(b []byte) { le.PutUint16(b[rec+recLen+2:], 99) }), 0, "unknown interval type 99"},
		{"more ends than starts", corrupt(spec, func(b []byte) { le.PutUint16(b[rec+recLen:], 0) }), 0, "more interval ends than starts"},
		{"broken link", corrupt(spec, func(b []byte) { le.PutUint64(b[rec+recLen+4+56:], 0x1234) }), 0, "broken up link"},
		{"bad time item", corrupt(spec, func(b []byte) { le.PutUint16(b[len(b)-26:], 77) }), 0, "operation item 77"},
		{"grid of other processors", withGrid(spec, 3, 3), 0, "processor grid 3x3 for 2 processors"},
		{"grid size 0", withGrid(spec, 0, 2), 0, "processor grid 0x2 for 2 processors"},
		{"negative grid", withGrid(spec, -2, -1), 0, "processor grid -2x-1 for 2 processors"},
		{"overflowing grid", withGrid(spec, 1<<62, 4), 0, "processor grid 4611686018427387904x4 for 2 processors"},
		{"zeros after the file", append(slices.Clone(good), make([]byte, 1<<20)...), -1, "data after the last processor's buffer"},
		{"zeros after a plain file", append(spec.Plain(), make([]byte, 100)...), -1, "data after the last processor's buffer"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := sts.Decode(bytes.NewReader(tc.data), "bad.sts.gz+")
			var se *sts.Error
			if !errors.As(err, &se) {
				t.Fatalf("error %v, want *sts.Error", err)
			}
			if se.File != "bad.sts.gz+" || se.Proc != tc.proc || !strings.Contains(se.Msg, tc.want) {
				t.Errorf("error %q (processor %d), want processor %d and %q", err, se.Proc, tc.proc, tc.want)
			}
		})
	}
}

func TestReadRealFiles(t *testing.T) {
	f, err := sts.Read(golden.Path(t, "sts", "jac_e4.1x2.sts.gz+"))
	if err != nil {
		t.Fatal(err)
	}
	h := f.Procs[0].Header
	// Values stated in FORMATS-observed.md (d) for this file.
	if len(f.Procs) != 2 || h.QFrag != 5 || h.LSynchro != 4368 || len(f.Procs[0].Times) != 168 ||
		math.Abs(h.ProcTime-0.2959) > 5e-5 || h.DVMH.IntervalConstPart != 11272 {
		t.Errorf("jac_e4.1x2: %d procs, header %+v", len(f.Procs), h)
	}
	want := []struct{ level, typ, line, end int }{{0, 21, 8, 46}, {1, 22, 10, 21}, {1, 21, 22, 39}, {2, 22, 24, 30}, {2, 22, 31, 38}}
	for k, w := range want {
		iv := f.Procs[0].Intervals[k]
		if iv.Level != w.level || iv.Type != w.typ || iv.Line != int64(w.line) || iv.LineEnd != int64(w.end) {
			t.Errorf("interval %d: level %d type %d lines %d..%d, want %+v", k+1, iv.Level, iv.Type, iv.Line, iv.LineEnd, w)
		}
	}
}

func FuzzRead(f *testing.F) {
	spec := ststest.Simple(2)
	f.Add(spec.GzPlus())
	f.Add(spec.Plain()[:4096])
	f.Add([]byte("65536\x001\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := sts.Decode(bytes.NewReader(data), "fuzz")
		if err != nil {
			var se *sts.Error
			if !errors.As(err, &se) {
				t.Fatalf("error %v is not an *sts.Error", err)
			}
			return
		}
		for _, p := range file.Procs {
			for k, iv := range p.Intervals {
				if iv.Num != k+1 || iv.Up > len(p.Intervals) || iv.Down > len(p.Intervals) || iv.Next > len(p.Intervals) {
					t.Fatalf("interval %d has links out of range: %+v", k+1, iv)
				}
			}
		}
	})
}

func BenchmarkRead(b *testing.B) {
	path := golden.Path(b, "sts", "jac_e4.2x2.sts.gz+")
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	f, err := sts.Decode(bytes.NewReader(data), path)
	if err != nil {
		b.Fatal(err)
	}
	// Throughput counts the uncompressed buffers the reader inflates.
	b.SetBytes(f.Procs[0].Header.LBuf * int64(len(f.Procs)))
	b.ResetTimer()
	for b.Loop() {
		if _, err := sts.Decode(bytes.NewReader(data), path); err != nil {
			b.Fatal(err)
		}
	}
}
