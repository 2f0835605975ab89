package store_test

import (
	"context"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/presage-dvm/presage/ingest/ptr"
	"github.com/presage-dvm/presage/internal/golden"
	"github.com/presage-dvm/presage/internal/storetest"
	"github.com/presage-dvm/presage/schema/store"
)

// bigTrace is the 200 MB trace, left out of -short runs.
const bigTrace = "jac1d_x40000.ptr.gz"

// sameAsFile streams s and the trace file at path side by side and
// reports the first call that differs in any field, times bit for bit.
func sameAsFile(t *testing.T, s *store.TraceStream, path string) {
	t.Helper()
	r, err := ptr.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if !reflect.DeepEqual(s.Header, r.Header()) {
		t.Errorf("%s: header %+v, want %+v", path, s.Header, r.Header())
	}
	for i := 0; ; i++ {
		want, werr := r.Next()
		got, gerr := s.Next()
		if werr == io.EOF && gerr == io.EOF {
			return
		}
		if werr != nil || gerr != nil {
			t.Fatalf("%s: call %d: stream %v, file %v", path, i, gerr, werr)
		}
		if got.Shape <= 0 && s.Packed {
			t.Fatalf("%s: call %d: shape %d from a pack", path, i, got.Shape)
		}
		g := *got
		g.Shape = 0 // the pack's numbering, which a file has not
		got = &g
		if !reflect.DeepEqual(got, want) || math.Float64bits(got.CallTime) != math.Float64bits(want.CallTime) ||
			math.Float64bits(got.RetTime) != math.Float64bits(want.RetTime) {
			t.Fatalf("%s: call %d:\n got %+v\nwant %+v", path, i, got, want)
		}
	}
}

func traceFiles(t *testing.T) []string {
	dir := filepath.Dir(golden.Path(t, "traces", "jac1d.ptr"))
	var paths []string
	for _, pat := range []string{"*.ptr", "*.ptr.gz"} {
		m, err := filepath.Glob(filepath.Join(dir, pat))
		if err != nil {
			t.Fatal(err)
		}
		paths = append(paths, m...)
	}
	if len(paths) < 20 {
		t.Fatalf("%d traces in %s", len(paths), dir)
	}
	return paths
}

// openTrace opens the stored trace info for streaming; the stream is
// closed when the test ends.
func openTrace(t *testing.T, st *store.Store, info store.TraceInfo) *store.TraceStream {
	t.Helper()
	s, err := st.OpenTrace(context.Background(), info)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// packChunks returns the calls and data of each chunk of the pack of trace
// id, in order.
type packChunk struct {
	Chunk int    `db:"chunk"`
	Calls int    `db:"calls"`
	Data  []byte `db:"data"`
}

func packChunks(t *testing.T, st *store.Store, id int64) []packChunk {
	t.Helper()
	var chunks []packChunk
	if err := st.Select(&chunks, `SELECT chunk, calls, data FROM trace_packs WHERE trace_id = ? ORDER BY chunk`, id); err != nil {
		t.Fatal(err)
	}
	return chunks
}

// TestPackRoundTrip ingests every reference trace and streams it back
// from its pack: every call equals the parsed one. Chunks are made small
// so that every trace spans several.
func TestPackRoundTrip(t *testing.T) {
	store.SetPackChunkCalls(t, 1000)
	st := storetest.Open(t)
	for _, path := range traceFiles(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			if filepath.Base(path) == bigTrace {
				if testing.Short() {
					t.Skip("200 MB of text in -short")
				}
				store.SetPackChunkCalls(t, 1<<16)
			}
			info := ingestTrace(t, st, path)
			s := openTrace(t, st, info)
			if !s.Packed {
				t.Fatal("ingested trace streams from the calls table")
			}
			sameAsFile(t, s, path)
			calls, chunks, size := 0, packChunks(t, st, info.ID), store.PackChunkCalls()
			for _, c := range chunks {
				calls += c.Calls
			}
			if calls != info.Calls || len(chunks) != max(1, (info.Calls+size-1)/size) {
				t.Errorf("%d calls in %d chunks, want %d calls in chunks of %d", calls, len(chunks), info.Calls, size)
			}
		})
	}
}

// TestPackRawTimes ingests a trace with times that 8 decimals do not
// give: they are stored raw and come back bit for bit.
func TestPackRawTimes(t *testing.T) {
	data, err := os.ReadFile(golden.Path(t, "traces", "jac1d.ptr"))
	if err != nil {
		t.Fatal(err)
	}
	odd := map[string]string{
		"TIME=0.00000314": "TIME=0.000003141592653589793",
		"TIME=0.00000126": "TIME=1e-300",
	}
	for from, to := range odd {
		if !strings.Contains(string(data), from) {
			t.Fatalf("jac1d.ptr has no %s", from)
		}
		data = []byte(strings.ReplaceAll(string(data), from, to))
	}
	path := filepath.Join(t.TempDir(), "odd.ptr")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	st := storetest.Open(t)
	info := ingestTrace(t, st, path)
	sameAsFile(t, openTrace(t, st, info), path)
	raw := 0
	for _, c := range packChunks(t, st, info.ID) {
		n, err := store.RawPackTimes(c.Data)
		if err != nil {
			t.Fatal(err)
		}
		raw += n
	}
	if raw < 2 {
		t.Errorf("%d raw times in the pack, want at least 2", raw)
	}
}

// dropPack deletes the pack of a trace, as a trace ingested before packs
// has none.
func dropPack(t *testing.T, st *store.Store, id int64) {
	t.Helper()
	for _, table := range []string{"trace_packs", "trace_shapes"} {
		if err := st.Exec(`DELETE FROM `+table+` WHERE trace_id = ?`, id); err != nil {
			t.Fatal(err)
		}
	}
}

// TestUnpackedTrace streams a trace without a pack from the calls table,
// then packs it with BuildPack, which must write what the ingest wrote.
func TestUnpackedTrace(t *testing.T) {
	path := golden.Path(t, "traces", "jac_e4.ptr")
	st := storetest.Open(t)
	info := ingestTrace(t, st, path)
	packed := packChunks(t, st, info.ID)
	dropPack(t, st, info.ID)

	s, err := st.OpenTrace(context.Background(), info)
	if err != nil {
		t.Fatal(err)
	}
	if s.Packed {
		t.Error("Packed without a pack")
	}
	sameAsFile(t, s, path)
	s.Close()

	if err := st.BuildPack(context.Background(), info.ID); err != nil {
		t.Fatal(err)
	}
	if rebuilt := packChunks(t, st, info.ID); len(packed) == 0 || !reflect.DeepEqual(rebuilt, packed) {
		t.Errorf("BuildPack wrote %d chunks unlike the ingest's %d", len(rebuilt), len(packed))
	}
	if err := st.BuildPack(context.Background(), info.ID); err != nil {
		t.Errorf("BuildPack of a packed trace: %v", err)
	}
	s = openTrace(t, st, info)
	if !s.Packed {
		t.Error("not Packed after BuildPack")
	}
	sameAsFile(t, s, path)
}

// TestDamagedPack reads packs damaged in the store: each gives an error
// naming the trace and the chunk, never a panic or wrong calls.
func TestDamagedPack(t *testing.T) {
	store.SetPackChunkCalls(t, 100)
	st := storetest.Open(t)
	info := ingestTrace(t, st, golden.Path(t, "traces", "jac1d.ptr"))
	for _, tt := range []struct {
		name   string
		damage func() // of trace info's pack
		msg    string
	}{
		{"truncated chunk", damageChunk(t, st, info.ID, 1, func(b []byte) []byte { return b[:len(b)-1] }),
			"pack chunk 1: byte "},
		{"extra bytes", damageChunk(t, st, info.ID, 2, func(b []byte) []byte { return append(b, 0) }),
			"pack chunk 2: 1 bytes after the last call"},
		{"unknown shape", damageChunk(t, st, info.ID, 0, func(b []byte) []byte { return append([]byte{0xff, 0xff, 3, 0, 0, 0, 0}, b...) }),
			"pack chunk 0: shape 65535: the trace has"},
		{"truncated compression", damageSQL(t, st, info.ID, `UPDATE trace_packs SET data = substr(data, 1, length(data) - 1) WHERE chunk = 1`),
			"pack chunk 1: unexpected EOF"},
		{"missing chunk", damageSQL(t, st, info.ID, `DELETE FROM trace_packs WHERE chunk = 2`),
			"load trace jac1d: 200 calls stored, the trace row says 258"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tt.damage()
			defer func() { // restore the pack from the calls table
				dropPack(t, st, info.ID)
				if err := st.BuildPack(context.Background(), info.ID); err != nil {
					t.Fatal(err)
				}
			}()
			_, err := st.LoadTrace("jac1d")
			if err == nil || !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("LoadTrace: %v, want an error with %q", err, tt.msg)
			}
		})
	}
}

// damageChunk damages the calls of chunk k of trace id's pack.
func damageChunk(t *testing.T, st *store.Store, id int64, k int, damage func([]byte) []byte) func() {
	return func() { st.DamagePackChunk(t, id, k, damage) }
}

// damageSQL damages trace id's pack with an SQL statement of trace_packs
// (a WHERE clause that the trace's id is added to).
func damageSQL(t *testing.T, st *store.Store, id int64, stmt string) func() {
	return func() {
		if err := st.Exec(stmt+` AND trace_id = ?`, id); err != nil {
			t.Fatal(err)
		}
	}
}

// TestStreamCancelClose stops streams early, by Close and by the context.
func TestStreamCancelClose(t *testing.T) {
	store.SetPackChunkCalls(t, 1000)
	st := storetest.Open(t)
	info := ingestTrace(t, st, golden.Path(t, "traces", "jac1d_x1000.ptr.gz"))
	s := openTrace(t, st, info)
	if c, err := s.Next(); err != nil || c.Func != "getam_" {
		t.Fatalf("first call %+v, %v", c, err)
	}
	s.Close()
	if c, err := s.Next(); c != nil || err == nil {
		t.Errorf("Next after Close = %v, %v", c, err)
	}

	for _, packed := range []bool{true, false} {
		if !packed {
			dropPack(t, st, info.ID)
		}
		ctx, cancel := context.WithCancel(context.Background())
		s, err := st.OpenTrace(ctx, info)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for ; n < 5000; n++ {
			if _, err := s.Next(); err != nil {
				t.Fatal(err)
			}
		}
		cancel()
		for err == nil {
			_, err = s.Next()
			n++
		}
		if !errors.Is(err, context.Canceled) || n > 10000 {
			t.Errorf("packed %v: after cancel: %v at call %d", packed, err, n)
		}
		s.Close()
	}
}

// TestUnpackedStreamClose stops a stream from the calls table early: the
// store's only connection must be free again.
func TestUnpackedStreamClose(t *testing.T) {
	st := storetest.Open(t)
	info := ingestTrace(t, st, golden.Path(t, "traces", "jac1d_x1000.ptr.gz"))
	dropPack(t, st, info.ID)
	st.SetMaxOpenConns(1)
	s, err := st.OpenTrace(context.Background(), info)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		c, err := s.Next()
		if err != nil || c.Func != "getam_" && i == 0 {
			t.Fatalf("call %d: %+v, %v", i, c, err)
		}
	}
	s.Close()
	if c, err := s.Next(); c != nil || err == nil {
		t.Errorf("Next after Close = %v, %v", c, err)
	}
	type count struct {
		n   int
		err error
	}
	done := make(chan count, 1)
	go func() {
		n, err := st.CountRows("calls")
		done <- count{n, err}
	}()
	select {
	case c := <-done:
		if c.n != 22236 || c.err != nil {
			t.Errorf("after Close: %d calls, %v; want 22236", c.n, c.err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the stream still holds the connection after Close")
	}
}

// TestUncompressedPacksCompressed: a store of schema 24, whose trace
// packs are uncompressed, has them compressed once when this build opens
// it (migration 25's step): every chunk smaller than it was, and every
// trace streaming back the calls of its file.
func TestUncompressedPacksCompressed(t *testing.T) {
	store.SetPackChunkCalls(t, 100)
	path := filepath.Join(t.TempDir(), "old.db")
	st, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	files := map[int64]string{}
	for _, name := range []string{"jac1d.ptr", "jac_e4.ptr"} {
		file := golden.Path(t, "traces", name)
		files[ingestTrace(t, st, file).ID] = file
	}
	st.UncompressPacks(t)
	was := map[int64][]packChunk{}
	for id := range files {
		was[id] = packChunks(t, st, id)
	}
	st.Close()

	if st, err = store.Open(path); err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	infos, err := st.Traces()
	if err != nil || len(infos) != len(files) {
		t.Fatalf("%d traces after the migration (%v), want %d", len(infos), err, len(files))
	}
	for _, info := range infos {
		old, now := was[info.ID], packChunks(t, st, info.ID)
		if len(old) < 2 || len(now) != len(old) {
			t.Fatalf("%s: %d chunks, %d before the migration", info.Name, len(now), len(old))
		}
		oldBytes, nowBytes := 0, 0
		for i := range now {
			if now[i].Calls != old[i].Calls {
				t.Errorf("%s chunk %d: %d calls, was %d", info.Name, i, now[i].Calls, old[i].Calls)
			}
			oldBytes += len(old[i].Data)
			nowBytes += len(now[i].Data)
		}
		// jac1d repeats its loop's calls; jac_e4's chunks of 100 calls
		// hardly repeat, and gain nothing.
		if info.Name == "jac1d" && nowBytes >= oldBytes {
			t.Errorf("jac1d: a pack of %d bytes, %d uncompressed: want it smaller", nowBytes, oldBytes)
		}
		sameAsFile(t, openTrace(t, st, info), files[info.ID])
	}
}
