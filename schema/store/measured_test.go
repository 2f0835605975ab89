package store_test

import (
	"bytes"
	"context"
	"os"
	"testing"

	"github.com/presage-dvm/presage/ingest"
	"github.com/presage-dvm/presage/ingest/pppa"
	"github.com/presage-dvm/presage/ingest/sts"
	"github.com/presage-dvm/presage/internal/golden"
	"github.com/presage-dvm/presage/internal/storetest"
	"github.com/presage-dvm/presage/schema/store"
	"github.com/presage-dvm/presage/sim/result"
)

// TestSaveSts stores a real statistics file: its measured run and the
// report's extras; a second save of the same bytes writes nothing.
func TestSaveSts(t *testing.T) {
	st := storetest.Open(t)
	path := golden.Path(t, "sts", "jac_e4.2x2.sts.gz+")
	info, err := ingest.Sts(context.Background(), st, path)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if info.ID == 0 || info.RunID == 0 || info.Path != path || info.Bytes != int64(len(raw)) || info.Procs != 4 || info.Grid != "2x2" {
		t.Errorf("info %+v", info)
	}
	run, err := st.Run(info.RunID)
	if err != nil {
		t.Fatal(err)
	}
	if run.Kind != result.Measured || run.StsID != info.ID || len(run.Intervals) != 5 {
		t.Errorf("stored run: kind %s sts %d, %d intervals", run.Kind, run.StsID, len(run.Intervals))
	}
	for table, want := range map[string]int{"sts_procs": 4, "sts_intervals": 5, "runs": 1} {
		if n := storetest.Count(t, st, table); n != want {
			t.Errorf("%d rows in %s, want %d", n, table, want)
		}
	}
	if n := storetest.Count(t, st, "sts_matrix_sums"); n == 0 {
		t.Error("no matrix sums stored")
	}
	want := info
	want.Existing = true
	if got, found, err := st.StsBySHA(context.Background(), info.SHA256); err != nil || !found || got != want {
		t.Errorf("StsBySHA = %+v, %v, %v; want %+v", got, found, err, want)
	}

	// The loser of two concurrent ingests of the same bytes.
	f, err := sts.Decode(bytes.NewReader(raw), path)
	if err != nil {
		t.Fatal(err)
	}
	a, err := pppa.Analyze(f, info.Name)
	if err != nil {
		t.Fatal(err)
	}
	again, err := st.SaveSts(context.Background(), store.StsInfo{Name: info.Name, Path: path, SHA256: info.SHA256, Bytes: info.Bytes}, a)
	if err != nil || again != want {
		t.Errorf("SaveSts of stored bytes = %+v, %v; want %+v", again, err, want)
	}
	if n := storetest.Count(t, st, "runs"); n != 1 {
		t.Errorf("%d runs after saving twice, want 1", n)
	}
}
