package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTraceRefusedAtFirstPrediction: a trace whose defect only a
// simulation finds (an array never created) is refused by `ingest trace
// --check`; without --check it is stored, and its first prediction, a
// single one or a sweep's, finds the defect with its line, stores
// nothing and marks the trace: every later prediction, and a second
// ingest of the file, is refused at once with the defect.
func TestTraceRefusedAtFirstPrediction(t *testing.T) {
	bad := replaceFirst(t, generatedTrace(t), "ArrayHeader=55e7c4406dc0; ArrayHandlePtr", "ArrayHeader=deadbeef; ArrayHandlePtr")
	defect := []string{"bad.ptr:", "align_", "deadbeef"}
	const marked = "was refused at its first prediction"
	for _, first := range [][]string{
		{"predict", "--trace", "bad", "--machine", "demo", "--grid", "2x2"},
		{"sweep", "--trace", "bad", "--machine", "demo", "--grids", "1,2,2x2"},
	} {
		t.Run(first[0], func(t *testing.T) {
			dir := t.TempDir()
			os.WriteFile(filepath.Join(dir, "demo.par"), demoMachine, 0o644)
			os.WriteFile(filepath.Join(dir, "bad.ptr"), []byte(bad), 0o644)
			mustSucceed(t, presage(t, dir, "ingest", "machine", "demo.par"))
			before := storeCounts(t, dir)
			r := presage(t, dir, "ingest", "trace", "--check", "bad.ptr")
			wantFailure(t, "ingest --check", r, defect, "")
			if after := storeCounts(t, dir); after != before {
				t.Errorf("ingest --check of a defective trace changed the store:\n before %s\n after  %s", before, after)
			}

			mustSucceed(t, presage(t, dir, "ingest", "trace", "bad.ptr"))
			before = storeCounts(t, dir)
			wantFailure(t, first[0], presage(t, dir, first...), defect, marked)
			for _, again := range [][]string{
				{"predict", "--trace", "bad", "--machine", "demo", "--grid", "2"},
				{"predict", "bad.ptr", "--machine", "demo", "--grid", "1"},
				{"sweep", "--trace", "bad", "--machine", "demo", "--grids", "1,2"},
				{"ingest", "trace", "bad.ptr"},
			} {
				r := presage(t, dir, again...)
				wantFailure(t, strings.Join(again, " "), r, append(defect, marked), "")
			}
			if after := storeCounts(t, dir); after != before {
				t.Errorf("refused predictions changed the store:\n before %s\n after  %s", before, after)
			}
			if r := mustSucceed(t, presage(t, dir, "--quiet", "list", "sweeps")); strings.Contains(r.stdout, "bad") {
				t.Errorf("a sweep of the refused trace is listed:\n%s", r.stdout)
			}
		})
	}
}

// wantFailure fails the test unless r failed with an error holding every
// one of want and, when not "", not unwanted.
func wantFailure(t *testing.T, what string, r cliResult, want []string, unwanted string) {
	t.Helper()
	if r.code == 0 {
		t.Fatalf("%s: accepted\nstdout: %s", what, r.stdout)
	}
	for _, w := range want {
		if !strings.Contains(r.stderr, w) {
			t.Errorf("%s: error %q lacks %q", what, strings.TrimSpace(r.stderr), w)
		}
	}
	if unwanted != "" && strings.Contains(r.stderr, unwanted) {
		t.Errorf("%s: error %q holds %q", what, strings.TrimSpace(r.stderr), unwanted)
	}
}
