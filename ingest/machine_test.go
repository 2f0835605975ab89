package ingest_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/ingest"
	"github.com/presage-dvm/presage/ingest/machinefile"
	"github.com/presage-dvm/presage/internal/golden"
	"github.com/presage-dvm/presage/internal/storetest"
	"github.com/presage-dvm/presage/sim/machine"
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
