package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/internal/golden"
)

// The faults a hostile or clumsy user and a faulty environment cause
// (issue 11), met where the user meets them: through the binary.

// inputsStore ingests jac.ptr and Predictor.par into dir's store.
func inputsStore(t *testing.T, dir string) {
	t.Helper()
	mustSucceed(t, presage(t, dir, "ingest", "trace", golden.Path(t, "traces", "jac.ptr")))
	mustSucceed(t, presage(t, dir, "ingest", "machine", golden.Path(t, "machines", "Predictor.par")))
}

// TestMergeTwiceAddsNothing: runs outside sweeps — a prediction, a
// measured run — are known by their content, so merging a store twice, in
// one merge or two, adds them once; a store is never merged into itself,
// even through a symbolic or a hard link.
func TestMergeTwiceAddsNothing(t *testing.T) {
	src := t.TempDir()
	inputsStore(t, src)
	mustSucceed(t, presage(t, src, "predict", "--trace", "jac", "--machine", "Predictor", "--grid", "2x2"))
	mustSucceed(t, presage(t, src, "ingest", "sts", golden.Path(t, "sts", "jac_e4.2x2.sts.gz+")))
	s0 := filepath.Join(src, "presage.db")

	dst := t.TempDir()
	into := filepath.Join(dst, "presage.db")
	r := mustSucceed(t, presage(t, dst, "merge", s0, s0, "--into", into))
	if !strings.Contains(r.stdout, "2 runs added (2 duplicate runs") {
		t.Errorf("merge of a store twice printed %q", r.stdout)
	}
	before := storeCounts(t, dst)
	r = mustSucceed(t, presage(t, dst, "merge", s0, "--into", into))
	if !strings.Contains(r.stdout, " 0 runs added") {
		t.Errorf("merging it once more printed %q", r.stdout)
	}
	if after := storeCounts(t, dst); after != before {
		t.Errorf("merging again changed the store:\n before %s\n after  %s", before, after)
	}
	// Another prediction of the same trace is new.
	mustSucceed(t, presage(t, src, "predict", "--trace", "jac", "--machine", "Predictor", "--grid", "4"))
	r = mustSucceed(t, presage(t, dst, "merge", s0, "--into", into))
	if !strings.Contains(r.stdout, " 1 runs added (2 duplicate runs") {
		t.Errorf("merging a store with one new run printed %q", r.stdout)
	}

	before = storeCounts(t, src)
	soft, hard := filepath.Join(dst, "soft.db"), filepath.Join(dst, "hard.db")
	if err := os.Symlink(s0, soft); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(s0, hard); err != nil {
		t.Fatal(err)
	}
	for _, link := range []string{soft, hard, s0} {
		r = presage(t, src, "merge", link, "--into", s0)
		if r.code == 0 || !strings.Contains(r.stderr, "is the destination") {
			t.Errorf("merge of %s into %s: exit %d, %q", link, s0, r.code, r.stderr)
		}
	}
	if after := storeCounts(t, src); after != before {
		t.Errorf("a refused self-merge changed the store:\n before %s\n after  %s", before, after)
	}
}
