package store_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/ingest"
	"github.com/presage-dvm/presage/ingest/ptr"
	"github.com/presage-dvm/presage/internal/golden"
	"github.com/presage-dvm/presage/internal/storetest"
	"github.com/presage-dvm/presage/schema/store"
	"github.com/presage-dvm/presage/sim/trace"
)

// ingestTrace ingests the trace file at path into st with its calls table
// rows, which the tests of unpacked traces and of the table read.
func ingestTrace(tb testing.TB, st *store.Store, path string) store.TraceInfo {
	tb.Helper()
	info, err := ingest.TraceWith(context.Background(), st, path, ingest.TraceOptions{Calls: true})
	if err != nil {
		tb.Fatal(err)
	}
	return info
}

// parseFile reads the trace file at path whole.
func parseFile(tb testing.TB, path string) (*trace.Header, []*trace.Call) {
	tb.Helper()
	r, err := ptr.OpenFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer r.Close()
	calls, err := trace.ReadAll(r)
	if err != nil {
		tb.Fatal(err)
	}
	return r.Header(), calls
}

// TestTraceLookups finds a stored trace by name, id and sum, and loads it
// whole: it gives back what parsing the file gives.
func TestTraceLookups(t *testing.T) {
	path := golden.Path(t, "traces", "jac1d.ptr")
	st := storetest.Open(t)
	info := ingestTrace(t, st, path)
	h, calls := parseFile(t, path)
	for _, key := range []string{"jac1d", "1"} {
		got, err := st.Trace(key)
		if err != nil || got != info {
			t.Errorf("Trace(%q) = %+v, %v; want %+v", key, got, err, info)
		}
		tr, err := st.LoadTrace(key)
		if err != nil {
			t.Fatal(err)
		}
		if tr.TraceInfo != info || !reflect.DeepEqual(tr.Header, h) || !reflect.DeepEqual(tr.Calls, calls) {
			t.Errorf("LoadTrace(%q) differs from the parsed file: %+v", key, tr.TraceInfo)
		}
	}
	if list, err := st.Traces(); err != nil || len(list) != 1 || list[0] != info {
		t.Errorf("Traces = %+v, %v", list, err)
	}
	byHash, found, err := st.TraceByXXH3(context.Background(), info.XXH3)
	want := info
	want.Existing = true
	if err != nil || !found || byHash != want {
		t.Errorf("TraceByXXH3 = %+v, %v, %v; want %+v", byHash, found, err, want)
	}
	if _, found, err := st.TraceByXXH3(context.Background(), "0123"); err != nil || found {
		t.Errorf("TraceByXXH3 of an unknown sum: found %v, %v", found, err)
	}
	for _, key := range []string{"nope", "99"} {
		_, err := st.Trace(key)
		if !errors.Is(err, store.ErrNotFound) || err.Error() != `no trace "`+key+`" in the store (its traces: jac1d); ingest it with presage ingest trace FILE, or give a stored name or id` {
			t.Errorf("Trace(%q): %v", key, err)
		}
		if _, err := st.LoadTrace(key); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("LoadTrace(%q): %v", key, err)
		}
	}
}

// TestSameTraceNameAmbiguous ingests jac1d and a gzipped copy (other bytes,
// same name): the name is ambiguous, each id finds its own.
func TestSameTraceNameAmbiguous(t *testing.T) {
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
	st := storetest.Open(t)
	first := ingestTrace(t, st, path)
	second := ingestTrace(t, st, gz)
	if second.Existing || second.ID == first.ID || second.Name != "jac1d" || second.Bytes != first.Bytes || second.Calls != first.Calls {
		t.Errorf("gzip copy ingested as %+v (first %+v)", second, first)
	}
	if _, err := st.LoadTrace("jac1d"); err == nil || !strings.Contains(err.Error(), `2 traces are named "jac1d"`) {
		t.Errorf("LoadTrace(jac1d) of two traces named jac1d: %v, want an ambiguity", err)
	}
	tr, err := st.LoadTrace(strconv.FormatInt(second.ID, 10))
	if err != nil {
		t.Fatal(err)
	}
	if old, err := st.LoadTrace("1"); err != nil || old.ID != first.ID || !reflect.DeepEqual(old.Calls, tr.Calls) {
		t.Errorf("the plain and gzip ingests load different calls (%v)", err)
	}
}

// TestSaveTraceSameBytes saves a trace whose sum the store holds already,
// as the loser of two concurrent ingests does: nothing is written and the
// stored trace comes back.
func TestSaveTraceSameBytes(t *testing.T) {
	path := golden.Path(t, "traces", "jac1d.ptr")
	st := storetest.Open(t)
	first := ingestTrace(t, st, path)
	r, err := ptr.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	again, err := st.SaveTrace(context.Background(), store.TraceInfo{Name: "other", Path: path, XXH3: first.XXH3}, r)
	first.Existing = true
	if err != nil || again != first {
		t.Errorf("SaveTrace of stored bytes = %+v, %v; want %+v", again, err, first)
	}
	if n := storetest.Count(t, st, "calls"); n != first.Calls {
		t.Errorf("%d calls stored, want %d", n, first.Calls)
	}
}

// TestTimePerFunction runs the store's typical query on the calls table
// against sums made from the parsed calls.
func TestTimePerFunction(t *testing.T) {
	path := golden.Path(t, "traces", "jac.ptr")
	st := storetest.Open(t)
	info := ingestTrace(t, st, path)
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
	if err := st.Select(&rows, `SELECT func, count(*) AS n, sum(ret_time) AS sys, sum(call_time) AS usr
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

// TestMarkTraceRefused: a trace is stored not refused; marked, every
// lookup reads the defect, a second mark keeps the first defect, and a
// second ingest of the file finds the trace with its mark.
func TestMarkTraceRefused(t *testing.T) {
	ctx := context.Background()
	st := storetest.Open(t)
	path := golden.Path(t, "traces", "jac1d.ptr")
	info := ingestTrace(t, st, path)
	if info.Refused != "" {
		t.Fatalf("a trace just ingested is refused: %q", info.Refused)
	}
	const defect = "jac1d.ptr:12: crtda_: array of rank 9: expected a rank from 1 to 7"
	if err := st.MarkTraceRefused(ctx, info.ID, defect); err != nil {
		t.Fatal(err)
	}
	if err := st.MarkTraceRefused(ctx, info.ID, "jac1d.ptr:40: another defect"); err != nil {
		t.Fatal(err)
	}
	byName, err := st.Trace(info.Name)
	if err != nil || byName.Refused != defect {
		t.Errorf("Trace: refused %q (%v), want %q", byName.Refused, err, defect)
	}
	if all, err := st.Traces(); err != nil || len(all) != 1 || all[0].Refused != defect {
		t.Errorf("Traces: %+v (%v), want one refused %q", all, err, defect)
	}
	again, err := ingest.Trace(ctx, st, path, nil)
	if err != nil || !again.Existing || again.Refused != defect {
		t.Errorf("second ingest: existing %v, refused %q (%v), want the stored trace refused %q", again.Existing, again.Refused, err, defect)
	}
}
