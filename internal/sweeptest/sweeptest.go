// Package sweeptest helps the tests of sweeps, searches and merges: stores
// with real inputs ingested, and a fingerprint of a sweep's stored rows
// that is independent of run ids and creation times.
package sweeptest

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/presage-dvm/presage/ingest"
	"github.com/presage-dvm/presage/schema/store"
)

// Store creates a store in a temporary directory with the given trace and
// machine files ingested (absolute paths), and returns it with its path.
func Store(t testing.TB, name string, traces, machines []string) (*store.Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	st, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	for _, f := range traces {
		if _, err := ingest.Trace(context.Background(), st, f, nil); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range machines {
		if _, err := ingest.Machine(context.Background(), st, f); err != nil {
			t.Fatal(err)
		}
	}
	return st, path
}

// Fingerprint is store.SweepFingerprint, failing the test on an error.
func Fingerprint(t testing.TB, st *store.Store, defHash string) []string {
	t.Helper()
	lines, err := st.SweepFingerprint(context.Background(), defHash)
	if err != nil {
		t.Fatal(err)
	}
	return lines
}

// Diff describes the first difference of two fingerprints, or "".
func Diff(a, b []string) string {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			return fmt.Sprintf("line %d: %q != %q", i, a[i], b[i])
		}
	}
	if len(a) != len(b) {
		return fmt.Sprintf("%d lines != %d lines", len(a), len(b))
	}
	return ""
}
