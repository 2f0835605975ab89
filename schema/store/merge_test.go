package store_test

import (
	"context"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/internal/golden"
	"github.com/presage-dvm/presage/internal/stage"
	"github.com/presage-dvm/presage/internal/sweeptest"
	"github.com/presage-dvm/presage/schema"
	"github.com/presage-dvm/presage/schema/store"
)

func mergeStore(t *testing.T, name string) (*store.Store, string) {
	return sweeptest.Store(t, name,
		[]string{golden.Path(t, "traces", "jac.ptr")},
		[]string{golden.Path(t, "machines", "Predictor.par"), golden.Path(t, "machines", "Predictor-myri4.par")})
}

// request: 2 machines x 5 grids x 2 networks = 20 configurations, minus
// those exceeding the small machine.
func request() stage.SweepRequest {
	return stage.SweepRequest{Trace: "jac", Machines: []string{"Predictor", "Predictor-myri4"},
		Grids: [][]int{{1}, {2}, {2, 2}, {4, 2}, {8, 8}}, Networks: []string{"cluster", "bus"}, PerProcMax: 4}
}

func runSweep(t *testing.T, db *store.Store, shard, shards int) string {
	t.Helper()
	p, err := stage.PlanSweep(context.Background(), db, request())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := stage.Sweep(context.Background(), db, p, stage.SweepOptions{Workers: 2, Shard: shard, Shards: shards}); err != nil {
		t.Fatal(err)
	}
	return p.Def.Hash()
}

// TestMergeShardsEqualsSweep: three shards merged hold exactly the rows of
// the unsharded sweep; merging again adds nothing.
func TestMergeShardsEqualsSweep(t *testing.T) {
	full, _ := mergeStore(t, "full.db")
	hash := runSweep(t, full, 0, 0)
	var shards []string
	for i := range 3 {
		db, path := mergeStore(t, "shard.db")
		if h := runSweep(t, db, i, 3); h != hash {
			t.Fatalf("shard %d has definition %s, the sweep %s", i, h, hash)
		}
		db.Close()
		shards = append(shards, path)
	}
	dst, _ := sweeptest.Store(t, "all.db", nil, nil)
	sum, err := dst.Merge(context.Background(), shards)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Sweeps != 1 || sum.Inputs != 3 || sum.Existing != 2*4 {
		t.Errorf("summary %+v: want 1 sweep and 3 inputs added, then found twice each", sum)
	}
	want := sweeptest.Fingerprint(t, full, hash)
	if d := sweeptest.Diff(sweeptest.Fingerprint(t, dst, hash), want); d != "" {
		t.Errorf("merged shards vs unsharded sweep: %s", d)
	}
	runs := count(t, dst, "runs")
	if runs == 0 || runs != sum.Runs {
		t.Errorf("%d runs stored, %d merged", runs, sum.Runs)
	}
	again, err := dst.Merge(context.Background(), shards[:2])
	if err != nil {
		t.Fatal(err)
	}
	if again.Runs != 0 || again.Dups == 0 || again.Inputs != 0 {
		t.Errorf("merging again: %+v, want only duplicates", again)
	}
	if d := sweeptest.Diff(sweeptest.Fingerprint(t, dst, hash), want); d != "" {
		t.Errorf("after merging twice: %s", d)
	}
	// The calls of the trace are copied once.
	if calls, wantCalls := count(t, dst, "calls"), count(t, full, "calls"); calls != wantCalls {
		t.Errorf("%d calls merged, the trace has %d", calls, wantCalls)
	}
}

func TestMergeRefusesOtherSchemaVersion(t *testing.T) {
	old, path := mergeStore(t, "old.db")
	forgetLastMigration(t, old)
	old.Close()
	dst, _ := sweeptest.Store(t, "all.db", nil, nil)
	_, err := dst.Merge(context.Background(), []string{path})
	if err == nil || !strings.Contains(err.Error(), "schema version") {
		t.Fatalf("merge of an older store: error %v", err)
	}
	if n := count(t, dst, "traces"); n != 0 {
		t.Errorf("refused merge wrote %d traces", n)
	}
}

// TestMergeRefusesNewerSchemaVersion: a store written by a newer build is
// refused with the advice to merge with that build (this one cannot
// migrate it).
func TestMergeRefusesNewerSchemaVersion(t *testing.T) {
	newer, path := mergeStore(t, "newer.db")
	if err := newer.Exec(`INSERT INTO schema_version(version, name, applied_at) VALUES (?, 'future', '2099-01-01T00:00:00Z')`, schema.Version+1); err != nil {
		t.Fatal(err)
	}
	newer.Close()
	dst, _ := sweeptest.Store(t, "all.db", nil, nil)
	_, err := dst.Merge(context.Background(), []string{path})
	if err == nil || !strings.Contains(err.Error(), "newer than this build's") || !strings.Contains(err.Error(), "merge it with the build that wrote it") {
		t.Fatalf("merge of a newer store: error %v", err)
	}
}

// TestMergeRefusesSweepOfOtherTrace: two stores whose sweeps carry the same
// definition hash over different traces cannot be merged, and the refused
// merge writes nothing.
func TestMergeRefusesSweepOfOtherTrace(t *testing.T) {
	a, pa := mergeStore(t, "a.db")
	hash := runSweep(t, a, 0, 2)
	a.Close()
	b, pb := sweeptest.Store(t, "b.db",
		[]string{golden.Path(t, "traces", "sor.ptr")},
		[]string{golden.Path(t, "machines", "Predictor.par"), golden.Path(t, "machines", "Predictor-myri4.par")})
	req := request()
	req.Trace = "sor"
	p, err := stage.PlanSweep(context.Background(), b, req)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := stage.Sweep(context.Background(), b, p, stage.SweepOptions{Shard: 0, Shards: 4}); err != nil {
		t.Fatal(err)
	}
	// Forge the collision the hash makes improbable.
	forgeSweepHash(t, b, hash)
	b.Close()
	dst, _ := sweeptest.Store(t, "all.db", nil, nil)
	_, err = dst.Merge(context.Background(), []string{pa, pb})
	if err == nil || !strings.Contains(err.Error(), "different trace") {
		t.Fatalf("merge of one definition over two traces: error %v", err)
	}
	if n := count(t, dst, "runs"); n != 0 {
		t.Errorf("refused merge left %d runs", n)
	}
}

// TestMergeKeepsTracesAfterAKnownOne: rows of a trace the destination
// already has are skipped, and the rows of the source's other traces that
// follow them are still copied.
func TestMergeKeepsTracesAfterAKnownOne(t *testing.T) {
	jac1d, jac := golden.Path(t, "traces", "jac1d.ptr"), golden.Path(t, "traces", "jac.ptr")
	_, src := sweeptest.Store(t, "src.db", []string{jac1d, jac}, nil)
	dst, _ := sweeptest.Store(t, "dst.db", []string{jac1d}, nil)
	if _, err := dst.Merge(context.Background(), []string{src}); err != nil {
		t.Fatal(err)
	}
	var rows []struct {
		Name  string `db:"name"`
		Calls int    `db:"calls"`
		Rows  int    `db:"rows"`
		Packs int    `db:"packs"`
	}
	if err := dst.Select(&rows, `SELECT name, calls,
		(SELECT count(*) FROM calls c WHERE c.trace_id = t.id) AS rows,
		(SELECT count(*) FROM trace_packs p WHERE p.trace_id = t.id) AS packs
		FROM traces t ORDER BY name`); err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 {
		t.Fatalf("merged store has traces %+v, want jac and jac1d", rows)
	}
	for _, r := range rows {
		// The calls table is written on request only: none here.
		if r.Rows != 0 || r.Packs == 0 {
			t.Errorf("trace %s: %d calls recorded, %d call rows, %d pack chunks", r.Name, r.Calls, r.Rows, r.Packs)
		}
	}
}

func count(t *testing.T, st *store.Store, table string) int {
	t.Helper()
	n, err := st.CountRows(table)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// forgetLastMigration makes st look like a store of the previous schema
// version.
func forgetLastMigration(t *testing.T, st *store.Store) {
	t.Helper()
	if err := st.Exec(`DELETE FROM schema_version WHERE version = ?`, schema.Version); err != nil {
		t.Fatal(err)
	}
}

// forgeSweepHash gives every sweep of st the definition hash hash.
func forgeSweepHash(t *testing.T, st *store.Store, hash string) {
	t.Helper()
	if err := st.Exec(`UPDATE sweeps SET def_hash = ?`, hash); err != nil {
		t.Fatal(err)
	}
}
