package ingest_test

import (
	"context"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/presage-dvm/presage/ingest"
	"github.com/presage-dvm/presage/ingest/sts"
	"github.com/presage-dvm/presage/internal/golden"
	"github.com/presage-dvm/presage/internal/storetest"
	"github.com/presage-dvm/presage/internal/ststest"
	"github.com/presage-dvm/presage/sim/result"
)

func TestSts(t *testing.T) {
	st := storetest.Open(t)
	path := golden.Path(t, "sts", "jac_e4.2x2.sts.gz+")
	info, err := ingest.Sts(context.Background(), st, path)
	if err != nil {
		t.Fatal(err)
	}
	if info.Existing || info.Name != "jac_e4.2x2" || info.Procs != 4 || info.Grid != "2x2" || info.RunID == 0 {
		t.Errorf("info %+v", info)
	}
	run, err := st.Run(info.RunID)
	if err != nil {
		t.Fatal(err)
	}
	if run.Kind != result.Measured || run.StsID != info.ID || len(run.Intervals) != 5 || len(run.Intervals[0].Procs) != 4 {
		t.Errorf("loaded run: kind %s sts %d, %d intervals", run.Kind, run.StsID, len(run.Intervals))
	}
	if n := storetest.Count(t, st, "sts_procs"); n != 4 {
		t.Errorf("%d sts_procs rows, want 4", n)
	}
	again, err := ingest.Sts(context.Background(), st, path)
	if err != nil {
		t.Fatal(err)
	}
	if !again.Existing || again.ID != info.ID || again.RunID != info.RunID {
		t.Errorf("second ingest %+v, want the existing %+v", again, info)
	}
	if n := storetest.Count(t, st, "runs"); n != 1 {
		t.Errorf("%d runs after ingesting twice, want 1", n)
	}
}

// TestBadInputLeavesStoreUnchanged: every defect is reported and nothing
// is written.
func TestBadInputLeavesStoreUnchanged(t *testing.T) {
	spec := ststest.Simple(2)
	good := spec.GzPlus()
	rec := spec.RecordsOffset(0)
	recLen := 2*2 + 7*8 + 4*8 + 7*8 + 3*28*28*8 + 11272 + 16 + len("jac.fdv") + 1
	rebuild := func(change func(b []byte)) []byte {
		b := spec.Buffer(0)
		change(b)
		out := []byte("65536\x002\x00")
		out = append(out, ststest.Compress(b)...)
		return append(out, ststest.Compress(spec.Buffer(1))...)
	}
	le := binary.LittleEndian
	ptr, err := os.ReadFile(golden.Path(t, "traces", "jac1d.ptr"))
	if err != nil {
		t.Fatal(err)
	}
	mismatched := ststest.Simple(2)
	mismatched.Procs[0].Events = mismatched.Procs[0].Events[1:]
	for _, tc := range []struct {
		name     string
		data     []byte
		stsError bool
	}{
		{"truncated file", good[:len(good)-100], true},
		{"corrupt header sizes", rebuild(func(b []byte) { le.PutUint16(b[8:], 4) }), true},
		{"record length past the end", rebuild(func(b []byte) { le.PutUint64(b[18+8*3:], 9) }), true},
		{"unknown interval type", rebuild(func(b []byte) { le.PutUint16(b[rec+recLen+2:], 42) }), true},
		{"more ends than starts", rebuild(func(b []byte) { le.PutUint16(b[rec+recLen:], 0) }), true},
		{"a .ptr trace", ptr, true},
		{"unpaired collective operations", mismatched.GzPlus(), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := storetest.Open(t)
			path := filepath.Join(t.TempDir(), "bad.sts.gz+")
			if err := os.WriteFile(path, tc.data, 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := ingest.Sts(context.Background(), st, path)
			if err == nil {
				t.Fatal("no error")
			}
			var se *sts.Error
			if tc.stsError && (!errors.As(err, &se) || se.File != path) {
				t.Errorf("error %v, want an *sts.Error naming %s", err, path)
			}
			for _, table := range []string{"sts_files", "runs", "intervals", "sts_procs"} {
				if n := storetest.Count(t, st, table); n != 0 {
					t.Errorf("%d rows in %s after a failed ingest", n, table)
				}
			}
		})
	}
}
