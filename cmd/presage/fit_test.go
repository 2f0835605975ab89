package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/internal/golden"
)

// TestFit fits the machine to jac_e4's measured runs on 1 and 1x2
// processes, predicts the held-out 2x2 run, writes the report and the
// fitted machine file and stores the machine; without a description of
// the measured host it says what is missing.
func TestFit(t *testing.T) {
	t.Parallel() // its own folder and store; no timing
	dir := t.TempDir()
	mustSucceed(t, presage(t, dir, "ingest", "trace", golden.Path(t, "traces", "jac_e4.ptr")))
	mustSucceed(t, presage(t, dir, "ingest", "machine", golden.Path(t, "machines", "Predictor.par")))
	for _, g := range []string{"1", "1x2", "2x2"} {
		mustSucceed(t, presage(t, dir, "ingest", "sts", golden.Path(t, "sts", "jac_e4."+g+".sts.gz+")))
	}
	r := presage(t, dir, "fit", "--trace", "jac_e4", "--holdout", "2x2")
	if r.code == 0 || !strings.Contains(r.stderr, "describe the host") {
		t.Errorf("fit without a host: exit %d, %q", r.code, r.stderr)
	}
	fit, report := filepath.Join(dir, "fit.par"), filepath.Join(dir, "report.txt")
	r = mustSucceed(t, presage(t, dir, "fit", "--trace", "jac_e4", "--holdout", "2x2", "--cores-per-node", "2",
		"--out", fit, "--report", report))
	if !strings.Contains(r.stderr, "fitted machine fit") {
		t.Errorf("fit said %q", r.stderr)
	}
	text, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Fit of jac_e4 on 1 node(s) of 2 core(s)", "fitted: power 1,", "held out", "Main jac.fdv:8",
		"power: 1, not fitted", "leave-one-out over the fitted grids", "spread over the 2 fits"} {
		if !strings.Contains(string(text), want) {
			t.Errorf("report lacks %q:\n%s", want, text)
		}
	}
	if _, err := os.Stat(fit); err != nil {
		t.Errorf("no fitted machine file: %v", err)
	}
	page := filepath.Join(dir, "report.html")
	// The former name still works, with a word that it changed.
	r = mustSucceed(t, presage(t, dir, "calibrate", "--trace", "jac_e4", "--holdout", "2x2", "--cores-per-node", "2",
		"--out", filepath.Join(dir, "fit2.par"), "--report", page))
	if !strings.Contains(r.stderr, `"calibrate" is now "fit"`) {
		t.Errorf("the former name calibrate said %q", r.stderr)
	}
	if b, err := os.ReadFile(page); err != nil || !strings.Contains(string(b), "<svg") || !strings.Contains(string(b), "held out") {
		t.Errorf("HTML report (%v) lacks the chart of held-out runs", err)
	}
	r = mustSucceed(t, presage(t, dir, "predict", "jac_e4", "--machine", "fit", "--grid", "2x2"))
	if !strings.Contains(r.stdout, "jac_e4 on fit, grid 2x2") {
		t.Errorf("prediction on the fitted machine printed %q", r.stdout)
	}
}
