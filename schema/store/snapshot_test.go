package store_test

import (
	"context"
	"os"
	"testing"

	"github.com/presage-dvm/presage/internal/fixture"
	"github.com/presage-dvm/presage/schema/store"
	"github.com/presage-dvm/presage/schema/stored"
)

// exportedRuns counts the runs the export streams of st give, over every
// sweep they list.
func exportedRuns(t *testing.T, st *store.Store) int {
	t.Helper()
	ctx := context.Background()
	sweeps, err := st.ExportSweeps(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, id := range sweeps {
		if err := st.RunRows(ctx, id, func(*stored.RunRow) error { n++; return nil }); err != nil {
			t.Fatal(err)
		}
	}
	return n
}

// TestSnapshotExport: runs a writer stores while an export reads, on
// another connection, are in none of the snapshot's streams, even those
// begun after the writer committed; a new reader sees them.
func TestSnapshotExport(t *testing.T) {
	ctx := context.Background()
	writer, path, built := fixture.NewStore(t, fixture.Small)
	reader, err := store.OpenReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	defer reader.Close()
	snap, err := reader.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	before := len(built.Runs)
	// The export is half way through a stream when the writer commits.
	var during int
	sweeps, err := snap.ExportSweeps(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	wrote := false
	err = snap.RunRows(ctx, sweeps[0], func(*stored.RunRow) error {
		during++
		if !wrote {
			wrote = true
			if _, err := fixture.Build(ctx, writer, fixture.Small, false); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n, err := writer.CountRows("runs"); err != nil || n != 2*before {
		t.Fatalf("the writer stored %d runs in all (%v), want %d", n, err, 2*before)
	}
	if got := exportedRuns(t, snap); got != before {
		t.Errorf("the snapshot exports %d runs after the writer committed, want the %d it began with", got, before)
	}
	var estimate int64
	if estimate, err = snap.ExportRowsEstimate(ctx, 0); err != nil || estimate == 0 {
		t.Errorf("estimate of the snapshot: %d rows (%v)", estimate, err)
	}
	if err := snap.Close(); err != nil {
		t.Fatal(err)
	}
	fresh, err := reader.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close()
	if got := exportedRuns(t, fresh); got != 2*before {
		t.Errorf("a snapshot taken after the writer committed exports %d runs, want %d", got, 2*before)
	}
}

// TestReaderSeesTheLog: a reader opened while a writer holds the store
// open, its last transactions still in the write-ahead log only, sees
// every committed run (an immutable reading of the file alone would not).
func TestReaderSeesTheLog(t *testing.T) {
	ctx := context.Background()
	writer, path, built := fixture.NewStore(t, fixture.Small)
	if err := writer.Checkpoint(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := fixture.Build(ctx, writer, fixture.Small, false); err != nil {
		t.Fatal(err)
	}
	if wal, err := os.Stat(path + "-wal"); err != nil || wal.Size() == 0 {
		t.Fatalf("the writer's last runs are not in a write-ahead log (%v): the test proves nothing", err)
	}
	reader, err := store.OpenReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	defer reader.Close()
	if n, err := reader.CountRows("runs"); err != nil || n != 2*len(built.Runs) {
		t.Errorf("the reader sees %d runs (%v), want the %d committed", n, err, 2*len(built.Runs))
	}
}
