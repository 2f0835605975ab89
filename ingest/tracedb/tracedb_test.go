package tracedb

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/presage-dvm/presage/ingest/golden"
	"github.com/presage-dvm/presage/ingest/ptr"
	"github.com/presage-dvm/presage/ingest/storetest"
)

func parseFile(t testing.TB, path string) (*ptr.Header, []*ptr.Call) {
	t.Helper()
	r, err := ptr.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	calls, err := ptr.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return r.Header(), calls
}

func counts(t *testing.T, db *sqlx.DB) (traces, calls int) {
	t.Helper()
	if err := db.Get(&traces, `SELECT count(*) FROM traces`); err != nil {
		t.Fatal(err)
	}
	if err := db.Get(&calls, `SELECT count(*) FROM calls`); err != nil {
		t.Fatal(err)
	}
	return traces, calls
}

func TestIngestLoad(t *testing.T) {
	path := golden.Path(t, "traces", "jac1d.ptr")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	db := storetest.Open(t)

	var lastDone, lastTotal int64
	info, err := Ingest(context.Background(), db, path, func(done, total int64) { lastDone, lastTotal = done, total })
	if err != nil {
		t.Fatal(err)
	}
	want := Info{ID: info.ID, Name: "jac1d", Path: path, SHA256: hex.EncodeToString(sum[:]), Bytes: int64(len(data)),
		Calls: 258, ProcCount: 1, RootLine: 25, RootFile: "jac1d.cdv", IngestedAt: info.IngestedAt}
	if info != want || info.ID <= 0 || info.IngestedAt == "" {
		t.Errorf("Ingest = %+v\nwant %+v", info, want)
	}
	if lastDone != int64(len(data)) || lastTotal != int64(len(data)) {
		t.Errorf("last progress %d/%d, want %d/%d", lastDone, lastTotal, len(data), len(data))
	}

	// The second ingest of the same bytes writes nothing.
	again, err := Ingest(context.Background(), db, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	info.Existing = true
	if again != info {
		t.Errorf("second Ingest = %+v, want %+v", again, info)
	}
	if nt, nc := counts(t, db); nt != 1 || nc != 258 {
		t.Errorf("after two ingests: %d traces, %d calls; want 1, 258", nt, nc)
	}

	// Loading gives back what parsing the file gives, by name and by id.
	h, calls := parseFile(t, path)
	for _, key := range []string{"jac1d", "1"} {
		tr, err := Load(db, key)
		if err != nil {
			t.Fatal(err)
		}
		info.Existing = false
		if tr.Info != info {
			t.Errorf("Load(%q).Info = %+v, want %+v", key, tr.Info, info)
		}
		if !reflect.DeepEqual(tr.Header, h) {
			t.Errorf("Load(%q).Header = %+v, want %+v", key, tr.Header, h)
		}
		if !reflect.DeepEqual(tr.Calls, calls) {
			t.Errorf("Load(%q): calls differ from the parsed ones", key)
		}
		got, err := ptr.ReadAll(tr.Source())
		if err != nil || len(got) != len(calls) {
			t.Errorf("Source yields %d calls, %v", len(got), err)
		}
	}

	list, err := List(db)
	if err != nil || len(list) != 1 || list[0] != info {
		t.Errorf("List = %+v, %v", list, err)
	}
	if _, err := Load(db, "nope"); err == nil {
		t.Error("Load of a missing trace: no error")
	}
	if _, err := Load(db, "99"); err == nil {
		t.Error("Load of a missing id: no error")
	}
}

// TestLatestNameWins ingests jac1d and a gzipped copy (other bytes, same
// name): loading by name gives the latest.
func TestLatestNameWins(t *testing.T) {
	path := golden.Path(t, "traces", "jac1d.ptr")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write(data)
	w.Close()
	gz := filepath.Join(t.TempDir(), "jac1d.ptr.gz")
	if err := os.WriteFile(gz, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	db := storetest.Open(t)
	first, err := Ingest(context.Background(), db, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	second, err := Ingest(context.Background(), db, gz, nil)
	if err != nil {
		t.Fatal(err)
	}
	if second.Existing || second.ID == first.ID || second.Name != "jac1d" || second.Bytes != first.Bytes || second.Calls != first.Calls {
		t.Errorf("gzip copy ingested as %+v (first %+v)", second, first)
	}
	tr, err := Load(db, "jac1d")
	if err != nil {
		t.Fatal(err)
	}
	if tr.ID != second.ID {
		t.Errorf("Load(jac1d) gave id %d, want the latest %d", tr.ID, second.ID)
	}
	if old, err := Load(db, "1"); err != nil || !reflect.DeepEqual(old.Calls, tr.Calls) {
		t.Errorf("the plain and gzip ingests load different calls (%v)", err)
	}
}

// TestIngestDefective checks that a defective trace leaves the store as it
// was, even when the defect is met after calls have been written.
func TestIngestDefective(t *testing.T) {
	data, err := os.ReadFile(golden.Path(t, "traces", "jac1d.ptr"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cut := filepath.Join(dir, "cut.ptr")
	// At 90 % of the file: more than two batches of calls precede the end.
	if err := os.WriteFile(cut, data[:len(data)*9/10], 0o644); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad.ptr")
	if err := os.WriteFile(bad, bytes.Replace(data, []byte("TIME=0.00000314"), []byte("TIME=zero"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	db := storetest.Open(t)
	for _, tt := range []struct{ path, msg string }{
		{cut, "truncated trace: call_dvm_void_printf at line 1583 has no ret_dvm_void_printf"},
		{bad, `TIME: expected a number, got "zero"`},
	} {
		_, err := Ingest(context.Background(), db, tt.path, nil)
		var pe *ptr.Error
		if !errors.As(err, &pe) || pe.File != tt.path || pe.Msg != tt.msg {
			t.Errorf("Ingest(%s) error %v, want a *ptr.Error %q", tt.path, err, tt.msg)
		}
		if nt, nc := counts(t, db); nt != 0 || nc != 0 {
			t.Errorf("after a failed ingest: %d traces, %d calls", nt, nc)
		}
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Ingest(ctx, db, golden.Path(t, "traces", "jac1d.ptr"), nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled Ingest: %v", err)
	}
	if nt, nc := counts(t, db); nt != 0 || nc != 0 {
		t.Errorf("after a cancelled ingest: %d traces, %d calls", nt, nc)
	}
	if _, err := Ingest(context.Background(), db, filepath.Join(dir, "absent.ptr"), nil); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Ingest of a missing file: %v", err)
	}
}

// TestTimePerFunction runs the store's typical query against sums made
// from the parsed calls.
func TestTimePerFunction(t *testing.T) {
	path := golden.Path(t, "traces", "jac.ptr")
	db := storetest.Open(t)
	info, err := Ingest(context.Background(), db, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	type agg struct {
		n         int
		sys, user float64
	}
	want := map[string]agg{}
	_, calls := parseFile(t, path)
	for _, c := range calls {
		a := want[c.Func]
		a.n++
		a.sys += c.RetTime
		a.user += c.CallTime
		want[c.Func] = a
	}
	var rows []struct {
		Func string  `db:"func"`
		N    int     `db:"n"`
		Sys  float64 `db:"sys"`
		User float64 `db:"usr"`
	}
	if err := db.Select(&rows, `SELECT func, count(*) AS n, sum(ret_time) AS sys, sum(call_time) AS usr
		FROM calls WHERE trace_id = ? GROUP BY func ORDER BY sys DESC`, info.ID); err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(want) || len(rows) < 10 {
		t.Fatalf("%d functions, want %d", len(rows), len(want))
	}
	for i, r := range rows {
		w := want[r.Func]
		if r.N != w.n || math.Abs(r.Sys-w.sys) > 1e-12 || math.Abs(r.User-w.user) > 1e-12 {
			t.Errorf("%s: %d calls, %g s, %g s user; want %d, %g, %g", r.Func, r.N, r.Sys, r.User, w.n, w.sys, w.user)
		}
		if i > 0 && r.Sys > rows[i-1].Sys {
			t.Errorf("not ordered by time at %s", r.Func)
		}
	}
}

func TestTraceName(t *testing.T) {
	for _, tt := range []struct{ path, want string }{
		{"/a/b/jac1d.ptr", "jac1d"},
		{"jac1d_x1000.ptr.gz", "jac1d_x1000"},
		{"x.gz", "x"},
		{"dir/a.b.ptr", "a.b"},
		{"noext", "noext"},
	} {
		if got := TraceName(tt.path); got != tt.want {
			t.Errorf("TraceName(%q) = %q, want %q", tt.path, got, tt.want)
		}
	}
}

// TestCallsClose stops a CallSource early: the store's only connection
// must be free again.
func TestCallsClose(t *testing.T) {
	db := storetest.Open(t)
	info, err := Ingest(context.Background(), db, golden.Path(t, "traces", "jac1d_x1000.ptr.gz"), nil)
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	src, err := Calls(db, info.ID)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		c, err := src.Next()
		if err != nil || c.Func != "getam_" && i == 0 {
			t.Fatalf("call %d: %+v, %v", i, c, err)
		}
	}
	src.Close()
	if c, err := src.Next(); c != nil || err == nil {
		t.Errorf("Next after Close = %v, %v", c, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var n int
	if err := db.GetContext(ctx, &n, `SELECT count(*) FROM calls WHERE trace_id = ?`, info.ID); err != nil || n != 22236 {
		t.Errorf("after Close: %d calls, %v", n, err)
	}
}
