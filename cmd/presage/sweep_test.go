package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/presage-dvm/presage/ingest/tracegen"
	"github.com/presage-dvm/presage/internal/golden"
	"github.com/presage-dvm/presage/internal/sweeptest"
	"github.com/presage-dvm/presage/schema/store"
)

// sweepArgs: 8 grids x 3 start-up times x 2 powers = 48 configurations.
var sweepArgs = []string{"sweep", "--trace", "gen", "--grids", "1,2,4,2x2,8,4x4,2x8,8x8",
	"--tstart", "1,10,100", "--power", "1,2", "--workers", "1", "--per-proc-max", "16"}

// sweepDir makes a directory with a store holding a generated trace of
// 100,000 calls and the Predictor machine.
func sweepDir(t *testing.T) string { return genDir(t, 128) }

// genDir makes a directory with a store holding "gen", a generated Jacobi
// trace of 100,000 calls on n x n arrays, and the Predictor machine.
func genDir(t *testing.T, n int) string {
	t.Helper()
	dir := t.TempDir()
	trace := filepath.Join(dir, "gen.ptr")
	if _, err := tracegen.WriteFile(trace, tracegen.Options{Program: tracegen.Jacobi, N: n, Calls: 100_000, Intervals: true}); err != nil {
		t.Fatal(err)
	}
	mustSucceed(t, presage(t, dir, "ingest", "trace", trace))
	mustSucceed(t, presage(t, dir, "ingest", "machine", golden.Path(t, "machines", "Predictor.par")))
	return dir
}

func openStore(t *testing.T, dir string) *store.Store {
	t.Helper()
	db, err := store.OpenReadOnly(filepath.Join(dir, "presage.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// fingerprint of the only sweep of the store in dir.
func fingerprint(t *testing.T, dir string) []string {
	t.Helper()
	db := openStore(t, dir)
	sweeps, err := db.Sweeps(context.Background())
	if err != nil || len(sweeps) != 1 {
		t.Fatalf("sweeps of %s: %+v, %v; want one", dir, sweeps, err)
	}
	return sweeptest.Fingerprint(t, db, sweeps[0].Hash)
}

func countRuns(t *testing.T, dir string) int {
	t.Helper()
	db, err := store.OpenReadOnly(filepath.Join(dir, "presage.db"))
	if err != nil {
		return 0
	}
	defer db.Close()
	n, err := db.CountRows("runs")
	if err != nil {
		return 0 // the store is being created
	}
	return n
}

// interruptSweep starts the sweep, waits until it has stored at least
// after configurations and sends it sig; it returns the exit code.
func interruptSweep(t *testing.T, dir string, after int, sig os.Signal) int {
	t.Helper()
	cmd := exec.Command(binary, append([]string{"--db", filepath.Join(dir, "presage.db"), "--quiet"}, sweepArgs...)...)
	cmd.Dir = dir
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(2 * time.Minute)
	for countRuns(t, dir) < after && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if err := cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	return cmd.ProcessState.ExitCode()
}

// closedCleanly fails unless the store in dir was closed: no -wal or -shm
// file is left beside it.
func closedCleanly(t *testing.T, dir string) {
	t.Helper()
	for _, suffix := range []string{"-wal", "-shm"} {
		if _, err := os.Stat(filepath.Join(dir, "presage.db"+suffix)); err == nil {
			t.Errorf("presage.db%s left behind: the store was not closed", suffix)
		}
	}
}

// TestSweepInterruptedAndKilled interrupts a sweep with SIGINT and SIGTERM, then kills
// the resumed one with SIGKILL, then completes it: the store ends with
// exactly the rows of an uninterrupted sweep.
func TestSweepInterruptedAndKilled(t *testing.T) {
	dir := sweepDir(t)
	if code := interruptSweep(t, dir, 2, os.Interrupt); code != 130 {
		t.Errorf("interrupted sweep exited with %d, want 130", code)
	}
	closedCleanly(t, dir)
	// SIGTERM, what Slurm sends on scancel, stops it as cleanly.
	if code := interruptSweep(t, dir, countRuns(t, dir)+2, syscall.SIGTERM); code != 143 {
		t.Errorf("terminated sweep exited with %d, want 143", code)
	}
	closedCleanly(t, dir)
	afterInt := countRuns(t, dir)
	if code := interruptSweep(t, dir, afterInt+3, syscall.SIGKILL); code != -1 {
		t.Errorf("killed sweep: exit code %d, want -1 (killed)", code)
	}
	afterKill := countRuns(t, dir)
	if afterInt < 2 || afterKill < afterInt+3 || afterKill >= 48 {
		t.Fatalf("stored %d after the interrupt, %d after the kill: the test did not interrupt mid-sweep", afterInt, afterKill)
	}
	r := mustSucceed(t, presage(t, dir, sweepArgs...))
	if want := "(" + strconv.Itoa(afterKill) + " already stored, " + strconv.Itoa(48-afterKill) + " run)"; !strings.Contains(r.stdout, want) {
		t.Errorf("resumed sweep printed %q, want %q", r.stdout, want)
	}
	ref := sweepDir(t)
	mustSucceed(t, presage(t, ref, sweepArgs...))
	if d := sweeptest.Diff(fingerprint(t, dir), fingerprint(t, ref)); d != "" {
		t.Errorf("interrupted, killed and resumed vs uninterrupted: %s", d)
	}
}

// TestSweepShardsMerge runs two shards into two stores, merges them and
// compares with the unsharded sweep; merging a store into itself again
// adds nothing.
func TestSweepShardsMerge(t *testing.T) {
	t.Parallel() // its own folder and store; no timing
	full := sweepDir(t)
	traces, err := openStore(t, full).Traces()
	if err != nil || len(traces) != 1 {
		t.Fatalf("traces: %+v, %v", traces, err)
	}
	calls := traces[0].Calls
	r := mustSucceed(t, presage(t, full, append(sweepArgs, "--dry-run")...))
	if !strings.HasPrefix(r.stdout, "48 configurations (0 skipped), "+strconv.Itoa(48*calls)+" call simulations") {
		t.Errorf("dry run printed %q", r.stdout)
	}
	if n := countRuns(t, full); n != 0 {
		t.Errorf("dry run stored %d runs", n)
	}
	mustSucceed(t, presage(t, full, sweepArgs...))
	var shards []string
	for _, s := range []string{"0/2", "1/2"} {
		dir := sweepDir(t)
		mustSucceed(t, presage(t, dir, append(sweepArgs, "--shard", s)...))
		if n := countRuns(t, dir); n != 24 {
			t.Errorf("shard %s stored %d runs, want 24", s, n)
		}
		shards = append(shards, filepath.Join(dir, "presage.db"))
	}
	all := t.TempDir()
	r = mustSucceed(t, presage(t, all, append([]string{"merge", "--into", filepath.Join(all, "presage.db")}, shards...)...))
	if !strings.Contains(r.stdout, "48 runs added") {
		t.Errorf("merge printed %q", r.stdout)
	}
	if d := sweeptest.Diff(fingerprint(t, all), fingerprint(t, full)); d != "" {
		t.Errorf("merged shards vs unsharded sweep: %s", d)
	}
	bad := presage(t, all, "sweep", "--trace", "gen", "--grids", "2", "--shard", "2/2")
	if bad.code == 0 || !strings.Contains(bad.stderr, "--shard") {
		t.Errorf("--shard 2/2: exit %d, %q", bad.code, bad.stderr)
	}
}

// TestSameSweepTwiceAtOnce: two processes running the same sweep on one
// store both finish; each stores what the other has not, and the store
// ends with exactly the rows of one sweep.
func TestSameSweepTwiceAtOnce(t *testing.T) {
	t.Parallel() // its own folder and store; no timing
	dir := sweepDir(t)
	var cmds []*exec.Cmd
	var outs []*strings.Builder
	for range 2 {
		cmd := exec.Command(binary, append([]string{"--db", filepath.Join(dir, "presage.db"), "--quiet"}, sweepArgs...)...)
		var out, errOut strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &errOut
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds, outs = append(cmds, cmd), append(outs, &out)
		t.Cleanup(func() {
			if t.Failed() {
				t.Logf("stderr: %s", errOut.String())
			}
		})
	}
	ran := 0
	for i, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Errorf("sweep %d: %v", i, err)
		}
		var sweepID, selected, existing, n int
		if _, err := fmt.Sscanf(outs[i].String(), "sweep %d: %d configurations (%d already stored, %d run)", &sweepID, &selected, &existing, &n); err != nil {
			t.Fatalf("sweep %d printed %q", i, outs[i].String())
		}
		ran += n
	}
	if ran != 48 {
		t.Errorf("the two sweeps simulated and stored %d configurations together, want 48", ran)
	}
	ref := sweepDir(t)
	mustSucceed(t, presage(t, ref, sweepArgs...))
	if d := sweeptest.Diff(fingerprint(t, dir), fingerprint(t, ref)); d != "" {
		t.Errorf("two sweeps at once vs one: %s", d)
	}
}

// TestSweepCopiesStoredPredictions: a sweep copies the configurations the
// store predicted already — by predict or by another sweep — instead of
// simulating them, and the copies are the runs a simulation makes.
func TestSweepCopiesStoredPredictions(t *testing.T) {
	dir := t.TempDir()
	inputsStore(t, dir)
	mustSucceed(t, presage(t, dir, "predict", "jac", "--machine", "Predictor", "--grid", "2x2"))
	first := mustSucceed(t, presage(t, dir, "sweep", "--trace", "jac", "--machine", "Predictor", "--grids", "2x2,4"))
	if !strings.Contains(first.stdout, "(0 already stored, 1 copied from predictions stored before, 1 run)") {
		t.Errorf("first sweep: %q", first.stdout)
	}
	second := mustSucceed(t, presage(t, dir, "sweep", "--trace", "jac", "--machine", "Predictor", "--grids", "2x2,4,8"))
	if !strings.Contains(second.stdout, "(0 already stored, 2 copied from predictions stored before, 1 run)") {
		t.Errorf("second sweep: %q", second.stdout)
	}
	// A sweep that wants per-processor rows does not copy a run stored
	// without them.
	mustSucceed(t, presage(t, dir, "sweep", "--trace", "jac", "--machine", "Predictor", "--grids", "16", "--per-proc-max", "1"))
	third := mustSucceed(t, presage(t, dir, "sweep", "--trace", "jac", "--machine", "Predictor", "--grids", "4,16"))
	if !strings.Contains(third.stdout, "(0 already stored, 1 copied from predictions stored before, 1 run)") {
		t.Errorf("a run without per-processor rows was copied into a sweep that wants them: %q", third.stdout)
	}
	// The copies hold what the simulation of each configuration holds.
	q := `SELECT r.sweep_id, r.grid, count(*), total(v.value) FROM runs r JOIN interval_values v ON v.run_id = r.id
		WHERE r.grid IN ('2x2', '4') GROUP BY r.sweep_id, r.grid ORDER BY r.grid, r.sweep_id`
	rows := strings.Split(strings.TrimSpace(mustSucceed(t, presage(t, dir, "query", "--format", "csv", q)).stdout), "\n")[1:]
	if len(rows) != 6 { // 2x2: predict, sweeps 1 and 2; 4: sweeps 1, 2 and 4
		t.Fatalf("rows %q", rows)
	}
	for _, group := range [][]string{rows[:3], rows[3:]} {
		for _, r := range group[1:] {
			if tail := strings.SplitN(r, ",", 3)[2]; tail != strings.SplitN(group[0], ",", 3)[2] {
				t.Errorf("a copy differs: %q against %q", r, group[0])
			}
		}
	}
}
