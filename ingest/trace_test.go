package ingest_test

import (
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/presage-dvm/presage/ingest"
	"github.com/presage-dvm/presage/ingest/ptr"
	"github.com/presage-dvm/presage/internal/golden"
	"github.com/presage-dvm/presage/internal/storetest"
	"github.com/presage-dvm/presage/schema/store"
	"github.com/zeebo/xxh3"
)

// counts returns the rows of the traces and calls tables.
func counts(t *testing.T, st *store.Store) (traces, calls int) {
	t.Helper()
	return storetest.Count(t, st, "traces"), storetest.Count(t, st, "calls")
}

func TestTrace(t *testing.T) {
	path := golden.Path(t, "traces", "jac1d.ptr")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	digest := xxh3.Hash128(data).Bytes()
	st := storetest.Open(t)

	var lastDone, lastTotal int64
	info, err := ingest.Trace(context.Background(), st, path, func(done, total int64) { lastDone, lastTotal = done, total })
	if err != nil {
		t.Fatal(err)
	}
	want := store.TraceInfo{ID: info.ID, Name: "jac1d", Path: path, XXH3: hex.EncodeToString(digest[:]), Bytes: int64(len(data)),
		Calls: 258, ProcCount: 1, RootLine: 25, RootFile: "jac1d.cdv", IngestedAt: info.IngestedAt}
	if info != want || info.ID <= 0 || info.IngestedAt == "" {
		t.Errorf("Trace = %+v\nwant %+v", info, want)
	}
	if lastDone != int64(len(data)) || lastTotal != int64(len(data)) {
		t.Errorf("last progress %d/%d, want %d/%d", lastDone, lastTotal, len(data), len(data))
	}
	if stored, err := st.Trace("jac1d"); err != nil || stored != info {
		t.Errorf("stored trace %+v, %v; want %+v", stored, err, info)
	}

	// The second ingest of the same bytes writes nothing.
	again, err := ingest.Trace(context.Background(), st, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	info.Existing = true
	if again != info {
		t.Errorf("second Trace = %+v, want %+v", again, info)
	}
	// The calls table is written on request only.
	if nt, nc := counts(t, st); nt != 1 || nc != 0 {
		t.Errorf("after two ingests: %d traces, %d call rows; want 1, 0", nt, nc)
	}
	if _, err := ingest.TraceWith(context.Background(), st, path, ingest.TraceOptions{Calls: true}); err != nil {
		t.Fatal(err)
	}
	if nt, nc := counts(t, st); nt != 1 || nc != 258 {
		t.Errorf("after an ingest with Calls: %d traces, %d call rows; want 1, 258", nt, nc)
	}
}

// TestTraceDefective checks that a defective trace leaves the store as it
// was, even when the defect is met after calls have been written.
func TestTraceDefective(t *testing.T) {
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
	st := storetest.Open(t)
	for _, tt := range []struct{ path, msg string }{
		{cut, "truncated trace: call_dvm_void_printf at line 1583 has no ret_dvm_void_printf"},
		{bad, `TIME: expected a decimal number of seconds from 0 to 1e+09, got "zero"`},
	} {
		_, err := ingest.Trace(context.Background(), st, tt.path, nil)
		var pe *ptr.Error
		if !errors.As(err, &pe) || pe.File != tt.path || pe.Msg != tt.msg {
			t.Errorf("Trace(%s) error %v, want a *ptr.Error %q", tt.path, err, tt.msg)
		}
		if nt, nc := counts(t, st); nt != 0 || nc != 0 {
			t.Errorf("after a failed ingest: %d traces, %d calls", nt, nc)
		}
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ingest.Trace(ctx, st, golden.Path(t, "traces", "jac1d.ptr"), nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled Trace: %v", err)
	}
	if nt, nc := counts(t, st); nt != 0 || nc != 0 {
		t.Errorf("after a cancelled ingest: %d traces, %d calls", nt, nc)
	}
	if _, err := ingest.Trace(context.Background(), st, filepath.Join(dir, "absent.ptr"), nil); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Trace of a missing file: %v", err)
	}
}
