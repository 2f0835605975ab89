package tracedb

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

	"github.com/jmoiron/sqlx"

	"github.com/presage-dvm/presage/ingest/golden"
	"github.com/presage-dvm/presage/ingest/ptr"
	"github.com/presage-dvm/presage/ingest/storetest"
)

// bigTrace is the 200 MB trace, left out of -short runs.
const bigTrace = "jac1d_x40000.ptr.gz"

// sameAsFile streams s and the trace file at path side by side and
// reports the first call that differs in any field, times bit for bit.
func sameAsFile(t *testing.T, s *Stream, path string) {
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

// TestPackRoundTrip ingests every reference trace and streams it back
// from its pack: every call equals the parsed one. Chunks are made small
// so that every trace spans several.
func TestPackRoundTrip(t *testing.T) {
	defer func(n int) { packChunkCalls = n }(packChunkCalls)
	packChunkCalls = 1000
	db := storetest.Open(t)
	for _, path := range traceFiles(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			if filepath.Base(path) == bigTrace {
				if testing.Short() {
					t.Skip("200 MB of text in -short")
				}
				packChunkCalls = 1 << 16
				defer func() { packChunkCalls = 1000 }()
			}
			info, s := ingestAndOpen(t, db, path)
			if !s.Packed {
				t.Fatal("ingested trace streams from the calls table")
			}
			sameAsFile(t, s, path)
			var chunks, calls int
			if err := db.QueryRow(`SELECT count(*), sum(calls) FROM trace_packs WHERE trace_id = ?`, info.ID).Scan(&chunks, &calls); err != nil {
				t.Fatal(err)
			}
			if calls != info.Calls || chunks != (info.Calls+packChunkCalls-1)/packChunkCalls {
				t.Errorf("%d calls in %d chunks, want %d calls in chunks of %d", calls, chunks, info.Calls, packChunkCalls)
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
	db := storetest.Open(t)
	info, s := ingestAndOpen(t, db, path)
	sameAsFile(t, s, path)
	if n := rawTimes(t, db, info.ID); n < 2 {
		t.Errorf("%d raw times in the pack, want at least 2", n)
	}
}

// rawTimes counts the times of a trace's pack stored as raw float64s.
func rawTimes(t *testing.T, db *sqlx.DB, id int64) int {
	var chunks [][]byte
	if err := db.Select(&chunks, `SELECT data FROM trace_packs WHERE trace_id = ? ORDER BY chunk`, id); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, data := range chunks {
		var d chunkDecoder
		d.reset(data)
		for !d.done() {
			before := d.off
			c, err := d.next()
			if err != nil {
				t.Fatal(err)
			}
			// A call of two tick times is shorter than one with a raw time.
			if d.off-before >= 9 && (math.Round(c.callTime*tickScale)/tickScale != c.callTime ||
				math.Round(c.retTime*tickScale)/tickScale != c.retTime) {
				n++
			}
		}
	}
	return n
}

// dropPack deletes the pack of a trace, as a trace ingested before packs
// has none.
func dropPack(t *testing.T, db *sqlx.DB, id int64) {
	t.Helper()
	for _, table := range []string{"trace_packs", "trace_shapes"} {
		if _, err := db.Exec(`DELETE FROM `+table+` WHERE trace_id = ?`, id); err != nil {
			t.Fatal(err)
		}
	}
}

// TestUnpackedTrace streams a trace without a pack from the calls table,
// then packs it with BuildPack, which must write what the ingest wrote.
func TestUnpackedTrace(t *testing.T) {
	path := golden.Path(t, "traces", "jac_e4.ptr")
	db := storetest.Open(t)
	info, err := Ingest(context.Background(), db, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		Chunk int    `db:"chunk"`
		Calls int    `db:"calls"`
		Data  []byte `db:"data"`
	}
	var packed []row
	if err := db.Select(&packed, `SELECT chunk, calls, data FROM trace_packs WHERE trace_id = ? ORDER BY chunk`, info.ID); err != nil {
		t.Fatal(err)
	}
	dropPack(t, db, info.ID)

	s, err := Open(context.Background(), db, "jac_e4")
	if err != nil {
		t.Fatal(err)
	}
	if s.Packed {
		t.Error("Packed without a pack")
	}
	sameAsFile(t, s, path)
	s.Close()

	if err := BuildPack(context.Background(), db, info.ID); err != nil {
		t.Fatal(err)
	}
	var rebuilt []row
	if err := db.Select(&rebuilt, `SELECT chunk, calls, data FROM trace_packs WHERE trace_id = ? ORDER BY chunk`, info.ID); err != nil {
		t.Fatal(err)
	}
	if len(packed) == 0 || !reflect.DeepEqual(rebuilt, packed) {
		t.Errorf("BuildPack wrote %d chunks unlike the ingest's %d", len(rebuilt), len(packed))
	}
	if err := BuildPack(context.Background(), db, info.ID); err != nil {
		t.Errorf("BuildPack of a packed trace: %v", err)
	}
	s, err = Open(context.Background(), db, "jac_e4")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if !s.Packed {
		t.Error("not Packed after BuildPack")
	}
	sameAsFile(t, s, path)
}

// TestDamagedPack reads packs damaged in the store: each gives an error
// naming the trace and the chunk, never a panic or wrong calls.
func TestDamagedPack(t *testing.T) {
	defer func(n int) { packChunkCalls = n }(packChunkCalls)
	packChunkCalls = 100
	db := storetest.Open(t)
	info, err := Ingest(context.Background(), db, golden.Path(t, "traces", "jac1d.ptr"), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, damage, msg string
	}{
		{"truncated chunk", `UPDATE trace_packs SET data = substr(data, 1, length(data) - 1) WHERE chunk = 1`,
			"pack chunk 1: byte "},
		{"extra bytes", `UPDATE trace_packs SET data = CAST(data || x'00' AS BLOB) WHERE chunk = 2`,
			"pack chunk 2: 1 bytes after the last call"},
		{"unknown shape", `UPDATE trace_packs SET data = CAST(x'ffff0300000000' || data AS BLOB) WHERE chunk = 0`,
			"pack chunk 0: shape 65535: the trace has"},
		{"missing chunk", `DELETE FROM trace_packs WHERE chunk = 2`,
			"load trace jac1d: 200 calls stored, the trace row says 258"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tx, err := db.Beginx()
			if err != nil {
				t.Fatal(err)
			}
			defer tx.Rollback()
			if _, err := tx.Exec(tt.damage+` AND trace_id = ?`, info.ID); err != nil {
				t.Fatal(err)
			}
			// The stream reads with other connections: commit, and
			// restore the pack afterwards from the calls table.
			if err := tx.Commit(); err != nil {
				t.Fatal(err)
			}
			defer func() {
				dropPack(t, db, info.ID)
				if err := BuildPack(context.Background(), db, info.ID); err != nil {
					t.Fatal(err)
				}
			}()
			_, err = Load(db, "jac1d")
			if err == nil || !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("Load: %v, want an error with %q", err, tt.msg)
			}
		})
	}
}

// TestStreamCancelClose stops streams early, by Close and by the context.
func TestStreamCancelClose(t *testing.T) {
	defer func(n int) { packChunkCalls = n }(packChunkCalls)
	packChunkCalls = 1000
	db := storetest.Open(t)
	info, err := Ingest(context.Background(), db, golden.Path(t, "traces", "jac1d_x1000.ptr.gz"), nil)
	if err != nil {
		t.Fatal(err)
	}
	s, err := Open(context.Background(), db, "jac1d_x1000")
	if err != nil {
		t.Fatal(err)
	}
	if c, err := s.Next(); err != nil || c.Func != "getam_" {
		t.Fatalf("first call %+v, %v", c, err)
	}
	s.Close()
	if c, err := s.Next(); c != nil || err == nil {
		t.Errorf("Next after Close = %v, %v", c, err)
	}

	for _, packed := range []bool{true, false} {
		if !packed {
			dropPack(t, db, info.ID)
		}
		ctx, cancel := context.WithCancel(context.Background())
		s, err := OpenTrace(ctx, db, info)
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

// ingestAndOpen ingests the trace at path and opens it for streaming; the
// stream is closed when the test ends.
func ingestAndOpen(t *testing.T, db *sqlx.DB, path string) (Info, *Stream) {
	t.Helper()
	info, err := Ingest(context.Background(), db, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	s, err := OpenTrace(context.Background(), db, info)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return info, s
}
