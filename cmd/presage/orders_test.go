package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/orders"
	"github.com/presage-dvm/presage/orders/examples/programs"
)

// runProgram runs an example program at its small size in one mode, its
// output (calibration, trace or measured run) going to out.
func runProgram(t *testing.T, p programs.Program, cfg orders.Config, out string) {
	t.Helper()
	cfg.Program, cfg.Out, cfg.Tests, cfg.Machine = p.Name, out, p.Tests(p.Small), "ci"
	cfg.Reps = 2
	if _, err := p.Run(cfg, p.Small); err != nil {
		t.Fatalf("%s in %s mode: %v", p.Name, cfg.Mode, err)
	}
}

// TestOrdersWorkflow takes an example program through the orders
// workflow of the README: calibrate, record, ingest, simulate, sweep,
// report; and measured against predicted: real runs on 1 and 2 workers,
// ingested and compared with the simulations of 1 and 2 nodes.
func TestOrdersWorkflow(t *testing.T) {
	t.Parallel() // its own folder and store; no timing
	dir := t.TempDir()
	p := programs.Matmul
	// The trace file's name is not the program's: the runs are the
	// program's all the same, so that compare pairs them.
	cal, trace := filepath.Join(dir, "cal.csv"), filepath.Join(dir, "mm.jsonl")
	runProgram(t, p, orders.Config{Mode: orders.ModeCalibrate}, cal)
	runProgram(t, p, orders.Config{Mode: orders.ModeRecord, Calibration: cal}, trace)
	mustSucceed(t, presage(t, dir, "ingest", "calibration", cal))
	mustSucceed(t, presage(t, dir, "ingest", "orders", trace))
	for _, workers := range []int{1, 2} {
		run := filepath.Join(dir, fmt.Sprintf("matmul.%d.jsonl", workers))
		runProgram(t, p, orders.Config{Mode: orders.ModeRun, Workers: workers}, run)
		r := mustSucceed(t, presage(t, dir, "ingest", "orders-run", run))
		if !strings.Contains(r.stderr, fmt.Sprintf("matmul on %d workers of ci", workers)) {
			t.Errorf("ingest orders-run said %q", r.stderr)
		}
		mustSucceed(t, presage(t, dir, "orders", "simulate", "--orders", "mm", "--nodes", fmt.Sprint(workers), "--latency", "0"))
	}
	r := mustSucceed(t, presage(t, dir, "ingest", "orders-run", filepath.Join(dir, "matmul.2.jsonl")))
	if !strings.Contains(r.stderr, "already stored") {
		t.Errorf("a second ingest of the same run said %q", r.stderr)
	}
	r = mustSucceed(t, presage(t, dir, "list", "runs"))
	for _, want := range []string{"measured  orders  matmul", "predicted  orders  matmul"} {
		if !strings.Contains(strings.Join(strings.Fields(r.stdout), "  "), want) {
			t.Errorf("list runs lacks %q:\n%s", want, r.stdout)
		}
	}
	// Runs 1 and 3 are measured on 1 and 2 workers, 2 and 4 simulated on 1 and 2 nodes.
	for _, pair := range [][2]string{{"1", "2"}, {"3", "4"}} {
		r = mustSucceed(t, presage(t, dir, "compare", "--measured", pair[0], "--predicted", pair[1]))
		if !strings.Contains(r.stdout, "Summary: 1 matched, 0 unmatched measured, 0 unmatched predicted") ||
			strings.Contains(r.stderr, "grids differ") {
			t.Errorf("compare %s with %s printed:\n%s%s", pair[0], pair[1], r.stdout, r.stderr)
		}
	}
	r = mustSucceed(t, presage(t, dir, "query", "--format", "csv",
		"SELECT count(*) FROM runs WHERE engine = 'orders' AND kind = 'measured' AND measurement_id IS NOT NULL"))
	if got := strings.TrimSpace(r.stdout); got != "count(*)\n2" {
		t.Errorf("measured orders runs: %q", got)
	}
	mustSucceed(t, presage(t, dir, "orders", "simulate", "--orders", "mm", "--nodes", "2", "--pin"))
	r = mustSucceed(t, presage(t, dir, "query", "--format", "csv", "SELECT migrate FROM v_order_runs ORDER BY run_id"))
	if got := strings.Fields(r.stdout); strings.Join(got, " ") != "migrate 1 1 0" {
		t.Errorf("migrate of the simulations: %q, want 1 1 0 (pinned by --pin)", got)
	}
	mustSucceed(t, presage(t, dir, "orders", "sweep", "--orders", "mm", "--nodes", "1..8", "--deadline", "1e9"))
	mustSucceed(t, presage(t, dir, "orders", "report", "--run", "latest", "--out", filepath.Join(dir, "report.html")))
	mustSucceed(t, presage(t, dir, "orders", "calibration", "--calibration", "cal", "--out", filepath.Join(dir, "cal.html")))
}

// TestCalibrationLoadedWarning: a calibration whose runs waited for a
// core (wall time well above CPU time) is reported as taken on a loaded
// machine, by the command and in its HTML report.
func TestCalibrationLoadedWarning(t *testing.T) {
	dir := t.TempDir()
	text := "block,alpha,f,seconds,machine,rep,copies,wall\n"
	for rep := range 4 {
		wall := 0.001
		if rep > 0 {
			wall = 0.003 // waited for a core
		}
		text += fmt.Sprintf("mul,64,1000,0.001,m,%d,1,%g\n", rep, wall)
	}
	if err := os.WriteFile(filepath.Join(dir, "busy.csv"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	mustSucceed(t, presage(t, dir, "ingest", "calibration", "busy.csv"))
	html := filepath.Join(dir, "busy.html")
	r := mustSucceed(t, presage(t, dir, "orders", "calibration", "--calibration", "busy", "--out", html))
	if !strings.Contains(r.stderr+r.stdout, "block mul on m: the machine was loaded during 75% of its runs") {
		t.Errorf("no warning of the loaded machine:\n%s%s", r.stdout, r.stderr)
	}
	page, err := os.ReadFile(html)
	if err != nil || !strings.Contains(string(page), `class="warnings"`) {
		t.Errorf("the report has no warning (%v)", err)
	}
}

// The orders commands collect at 10% of heap growth, unless GOGC
// chose otherwise.
func TestCollectOften(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	for env, want := range map[string]int{"": 10, "100": 100, "off": 100} {
		t.Setenv("GOGC", env)
		debug.SetGCPercent(100)
		collectOften()
		if got := debug.SetGCPercent(100); got != want {
			t.Errorf("GOGC=%q: collector at %d%%, want %d%%", env, got, want)
		}
	}
}
