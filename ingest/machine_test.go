package ingest_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"
	"github.com/presage-dvm/presage/schema/store"
	_ "modernc.org/sqlite"

	"github.com/presage-dvm/presage/ingest"
	"github.com/presage-dvm/presage/ingest/machinefile"
	"github.com/presage-dvm/presage/internal/golden"
	"github.com/presage-dvm/presage/internal/storetest"
	"github.com/presage-dvm/presage/sim/machine"
	"github.com/presage-dvm/presage/sim/trace"
)

func TestMachine(t *testing.T) {
	st := storetest.Open(t)
	ctx := context.Background()
	path := golden.Path(t, "machines", "Predictor.par")
	info, err := ingest.Machine(ctx, st, path)
	if err != nil {
		t.Fatal(err)
	}
	if info.ID == 0 || info.Existing || info.Name != "Predictor" || info.Path != path || info.Root != "mvs" ||
		info.Processors != 1024 || info.Format != machine.FormatCluster || info.Search != 0 || len(info.SHA256) != 64 {
		t.Fatalf("first ingest %+v", info)
	}
	again, err := ingest.Machine(ctx, st, path)
	if err != nil {
		t.Fatal(err)
	}
	if !again.Existing || again.ID != info.ID {
		t.Fatalf("second ingest %+v, want Existing with id %d", again, info.ID)
	}
	if n := storetest.Count(t, st, "machines"); n != 1 {
		t.Fatalf("%d rows, want 1", n)
	}
}

func TestMachineRejectsBadFiles(t *testing.T) {
	st := storetest.Open(t)
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.par")
	if err := os.WriteFile(bad, []byte("cluster = c;\nc = {2 x p}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ingest.Machine(context.Background(), st, bad)
	var perr *machinefile.Error
	if !errors.As(err, &perr) || perr.Line != 2 {
		t.Errorf("Machine of a bad file: %v, want a *machinefile.Error at line 2", err)
	}
	huge := filepath.Join(dir, "huge.par")
	if err := os.WriteFile(huge, make([]byte, 1<<22+1), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ingest.Machine(context.Background(), st, huge); err == nil || !strings.Contains(err.Error(), "huge.par: larger than 4194304 bytes, not a machine file") {
		t.Errorf("Machine of a huge file: %v", err)
	}
	if _, err := ingest.Machine(context.Background(), st, filepath.Join(dir, "absent.par")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Machine of a missing file: %v", err)
	}
	if n := storetest.Count(t, st, "machines"); n != 0 {
		t.Fatalf("bad files stored: %d rows", n)
	}
}

// TestParseStored makes a machine and a trace as a store before schema 12
// holds them (the machine's source and the header's text only) and checks
// that loading them says what to do, and that ParseStored gives them the
// parsed form the parsers make.
func TestParseStored(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	st, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	mpath := golden.Path(t, "machines", "Predictor.par")
	if _, err := ingest.Machine(ctx, st, mpath); err != nil {
		t.Fatal(err)
	}
	tinfo, err := ingest.Trace(ctx, st, golden.Path(t, "traces", "jac_e4.ptr"), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := openHeader(t, st, tinfo)
	st.Close()
	db, err := sqlx.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`UPDATE machines SET tree = NULL; UPDATE traces SET header_fields = NULL`); err != nil {
		t.Fatal(err)
	}
	db.Close()

	st, err = store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, _, err := st.Machine("Predictor"); err == nil || !strings.Contains(err.Error(), "older presage") {
		t.Fatalf("loading a machine without its parsed form: %v", err)
	}
	if _, err := st.OpenTrace(ctx, tinfo); err == nil || !strings.Contains(err.Error(), "older presage") {
		t.Fatalf("opening a trace without its parsed header: %v", err)
	}
	if err := ingest.ParseStored(ctx, st); err != nil {
		t.Fatal(err)
	}
	got, _, err := st.Machine("Predictor")
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(mpath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	wantMachine, err := machinefile.Parse(f, mpath)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, wantMachine) {
		t.Errorf("parsed stored machine differs from the file's")
	}
	if h := openHeader(t, st, tinfo); !reflect.DeepEqual(h, want) {
		t.Errorf("parsed stored header %+v, at ingest %+v", h, want)
	}
}

// openHeader returns the header of a stored trace as a prediction reads it.
func openHeader(t *testing.T, st *store.Store, info store.TraceInfo) *trace.Header {
	t.Helper()
	ts, err := st.OpenTrace(context.Background(), info)
	if err != nil {
		t.Fatal(err)
	}
	defer ts.Close()
	return ts.Header
}
