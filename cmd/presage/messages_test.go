package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMessagesSayWhatToDo: the small things a new user met (issue 24):
// each command's answer or error names the flag, the run kind or the
// folder at fault and what to do instead.
func TestMessagesSayWhatToDo(t *testing.T) {
	dir := t.TempDir()
	inputsStore(t, dir)
	mustSucceed(t, presage(t, dir, "predict", "--trace", "jac", "--machine", "Predictor", "--grid", "2x2"))
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string // in stdout for code 0, else in stderr
		not  string
	}{
		{"geometric --procs", []string{"sweep", "--trace", "jac", "--machine", "Predictor", "--procs", "1..8:*2", "--dry-run"}, 0,
			"10 configurations", ""}, // 1; 2, 1x2; 4, 1x4, 2x2; 8, 1x8, 2x4, 4x2 (no trailing ones)
		{"listed --procs", []string{"sweep", "--trace", "jac", "--machine", "Predictor", "--procs", "3,1", "--dry-run"}, 0,
			"3 configurations", ""}, // 3, 1x3; 1
		{"bad --procs", []string{"sweep", "--trace", "jac", "--machine", "Predictor", "--procs", "1..x"}, 1,
			`--procs: list "1..x"`, ""},
		{"negative flag value", []string{"predict", "--trace", "jac", "--machine", "Predictor", "--grid", "2x2", "--tstart", "-1"}, 2,
			"--tstart -1: expected a positive finite number", "short flag"},
		{"text report of a prediction", []string{"report", "text", "--run", "1"}, 1,
			"presage report html --run 1 writes", ""},
		{"unknown sweep", []string{"report", "html", "--sweep", "99"}, 1,
			"presage: sweep 99: no such sweep", "write sweep-99.html"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := presage(t, dir, tc.args...)
			out := r.stdout
			if tc.code != 0 {
				out = r.stderr
			}
			if r.code != tc.code || !strings.Contains(out, tc.want) || tc.not != "" && strings.Contains(out, tc.not) {
				t.Errorf("exit %d, want %d; output %q, want %q without %q", r.code, tc.code, out, tc.want, tc.not)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(dir, "sweep-99.html")); err == nil {
		t.Error("the report of an unknown sweep left a file")
	}
}

// TestExportKeepsAnotherFormat: an export does not replace one of another
// format unasked.
func TestExportKeepsAnotherFormat(t *testing.T) {
	dir := t.TempDir()
	inputsStore(t, dir)
	mustSucceed(t, presage(t, dir, "predict", "--trace", "jac", "--machine", "Predictor", "--grid", "2x2"))
	mustSucceed(t, presage(t, dir, "export", "csv", "--out", "results"))
	r := presage(t, dir, "export", "parquet", "--out", "results")
	if r.code != 1 || !strings.Contains(r.stderr, "holds a CSV export") {
		t.Fatalf("exit %d, %q: want the CSV export kept and said so", r.code, r.stderr)
	}
	if m, err := os.ReadFile(filepath.Join(dir, "results", exportManifest)); err != nil || !strings.Contains(string(m), `"format": "CSV"`) {
		t.Errorf("the CSV export is gone: %s %v", m, err)
	}
	mustSucceed(t, presage(t, dir, "export", "csv", "--out", "results")) // the same format replaces
}

// TestReadingLeavesTheFolderAsItWas: a reading command leaves no
// write-ahead log beside the store.
func TestReadingLeavesTheFolderAsItWas(t *testing.T) {
	dir := t.TempDir()
	inputsStore(t, dir)
	for _, args := range [][]string{{"list", "runs"}, {"query", "SELECT count(*) FROM runs"}} {
		mustSucceed(t, presage(t, dir, args...))
		for _, suffix := range []string{"-wal", "-shm"} {
			if _, err := os.Stat(filepath.Join(dir, "presage.db"+suffix)); err == nil {
				t.Errorf("presage %v left presage.db%s", args, suffix)
			}
		}
	}
}

// TestPredictTwiceStoresOnce: predicting a configuration the store holds
// shows its run; --again predicts and stores it anew.
func TestPredictTwiceStoresOnce(t *testing.T) {
	dir := t.TempDir()
	inputsStore(t, dir)
	predict := []string{"predict", "--trace", "jac", "--machine", "Predictor", "--grid", "2x2"}
	first := mustSucceed(t, presage(t, dir, predict...))
	before := storeCounts(t, dir)
	again := mustSucceed(t, presage(t, dir, predict...))
	if storeCounts(t, dir) != before || again.stdout != first.stdout || !strings.Contains(again.stderr, "run 1 predicted this configuration already") {
		t.Errorf("second predict: %q %q; store %s, was %s", again.stdout, again.stderr, storeCounts(t, dir), before)
	}
	mustSucceed(t, presage(t, dir, append(predict, "--tstart", "10")...))
	forced := mustSucceed(t, presage(t, dir, append(predict, "--again")...))
	if !strings.HasPrefix(forced.stdout, "run 3:") {
		t.Errorf("--again and another override: %q, want run 3", forced.stdout)
	}
}

// TestDoubtfulLeftOut: a grid with more processors than the arrays'
// extent is flagged, listed as doubtful, and counted as left out of
// best_config unless asked for.
func TestDoubtfulLeftOut(t *testing.T) {
	dir := t.TempDir()
	inputsStore(t, dir)
	mustSucceed(t, presage(t, dir, "predict", "--trace", "jac", "--machine", "Predictor", "--grid", "2"))
	r := mustSucceed(t, presage(t, dir, "predict", "--trace", "jac", "--machine", "Predictor", "--grid", "1024"))
	if !strings.Contains(r.stderr, "warning: doubtful: a template of") {
		t.Fatalf("predict on 1024 processors: %q, want a doubtful warning", r.stderr)
	}
	if l := mustSucceed(t, presage(t, dir, "list", "runs")); !strings.Contains(l.stdout, "doubtful") {
		t.Errorf("list runs does not show the doubtful run:\n%s", l.stdout)
	}
	best := mustSucceed(t, presage(t, dir, "query", "--name", "best_config", "--format", "csv"))
	all := mustSucceed(t, presage(t, dir, "query", "--name", "best_config", "--format", "csv", "--param", "include_doubtful=1"))
	if !strings.HasSuffix(strings.TrimSpace(best.stdout), ",1") || !strings.HasSuffix(strings.TrimSpace(all.stdout), ",0") {
		t.Errorf("best_config:\n%s\nwith the doubtful runs:\n%s", best.stdout, all.stdout)
	}
}

// TestBestGrid: best_grid answers, for each processor count, the fastest
// of its grids.
func TestBestGrid(t *testing.T) {
	dir := t.TempDir()
	inputsStore(t, dir)
	mustSucceed(t, presage(t, dir, "sweep", "--trace", "jac", "--machine", "Predictor", "--grids", "4,2x2,1x4,8,2x4,4x2"))
	best := mustSucceed(t, presage(t, dir, "query", "--format", "csv", "--name", "best_grid"))
	// Of equal times, the lower run id.
	want := mustSucceed(t, presage(t, dir, "query", "--format", "csv", `SELECT procs, grid FROM v_runs r
		WHERE run_id = (SELECT run_id FROM v_runs s WHERE s.procs = r.procs ORDER BY execution_time, run_id LIMIT 1) ORDER BY procs`))
	var got []string
	for _, line := range strings.Split(strings.TrimSpace(best.stdout), "\n")[1:] {
		f := strings.Split(line, ",")
		got = append(got, f[6]+","+f[7]) // procs, grid
		if f[10] != "3" {
			t.Errorf("%s processors: %s grids compared, want 3", f[6], f[10])
		}
	}
	var fastest []string
	for _, line := range strings.Split(strings.TrimSpace(want.stdout), "\n")[1:] {
		f := strings.Split(line, ",")
		fastest = append(fastest, f[0]+","+f[1])
	}
	if strings.Join(got, " ") != strings.Join(fastest, " ") || len(got) != 2 {
		t.Errorf("best_grid %v, want the fastest grid of each count %v\n%s", got, fastest, best.stdout)
	}
}
