package machinedb

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/presage-dvm/presage/ingest/golden"
	"github.com/presage-dvm/presage/ingest/machine"
	"github.com/presage-dvm/presage/ingest/storetest"
)

func TestIngestLoad(t *testing.T) {
	db := storetest.Open(t)
	ctx := context.Background()
	path := golden.Path(t, "machines", "Predictor.par")
	info, err := Ingest(ctx, db, path)
	if err != nil {
		t.Fatal(err)
	}
	if info.ID == 0 || info.Existing || info.Name != "Predictor" || info.Root != "mvs" ||
		info.Processors != 1024 || info.Format != machine.FormatCluster || info.Search != 0 || len(info.SHA256) != 64 {
		t.Fatalf("first ingest %+v", info)
	}
	again, err := Ingest(ctx, db, path)
	if err != nil {
		t.Fatal(err)
	}
	if !again.Existing || again.ID != info.ID {
		t.Fatalf("second ingest %+v, want Existing with id %d", again, info.ID)
	}
	var n int
	if err := db.Get(&n, `SELECT count(*) FROM machines`); err != nil || n != 1 {
		t.Fatalf("%d rows (%v), want 1", n, err)
	}
	var source string
	if err := db.Get(&source, `SELECT source FROM machines WHERE id = ?`, info.ID); err != nil {
		t.Fatal(err)
	}
	if want, _ := os.ReadFile(path); source != string(want) {
		t.Fatal("source not stored verbatim")
	}
	for _, key := range []string{"Predictor", "1"} {
		m, got, err := Load(db, key)
		if err != nil {
			t.Fatalf("Load(%q): %v", key, err)
		}
		if got.ID != info.ID || m.Processors() != 1024 || m.Root.TStart != 7.0/1e6 {
			t.Fatalf("Load(%q) = %+v, %d processors", key, got, m.Processors())
		}
	}
	if _, _, err := Load(db, "nowhere"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Load of an unknown machine: %v", err)
	}
}

// TestLatestByName stores two different files with the same base name.
func TestLatestByName(t *testing.T) {
	db := storetest.Open(t)
	ctx := context.Background()
	var ids []int64
	for i, text := range []string{
		"cluster = c; c = {2 x p}; p = 1;",
		"type = ethernet; start time = 5; send byte time = 1; topology = {2, 4};",
	} {
		path := filepath.Join(t.TempDir(), "m.par")
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		info, err := Ingest(ctx, db, path)
		if err != nil {
			t.Fatalf("file %d: %v", i, err)
		}
		ids = append(ids, info.ID)
	}
	m, info, err := Load(db, "m")
	if err != nil {
		t.Fatal(err)
	}
	if info.ID != ids[1] || m.Format != machine.FormatFlat || m.Processors() != 8 || len(m.Topology) != 2 {
		t.Fatalf("Load(m) = %+v, %s %d processors", info, m.Format, m.Processors())
	}
	list, err := List(db)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || list[0].ID != ids[0] || list[1].Processors != 8 || list[1].Format != machine.FormatFlat {
		t.Fatalf("List = %+v", list)
	}
}

func TestIngestRejectsBadFile(t *testing.T) {
	db := storetest.Open(t)
	path := filepath.Join(t.TempDir(), "bad.par")
	if err := os.WriteFile(path, []byte("cluster = c;\nc = {2 x p}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Ingest(context.Background(), db, path)
	var perr *machine.Error
	if !errors.As(err, &perr) || perr.Line != 2 {
		t.Fatalf("Ingest of a bad file: %v, want a *machine.Error at line 2", err)
	}
	if list, _ := List(db); len(list) != 0 {
		t.Fatalf("bad file stored: %+v", list)
	}
}
