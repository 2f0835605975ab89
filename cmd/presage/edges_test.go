package main

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/presage-dvm/presage/internal/golden"
	"github.com/presage-dvm/presage/sim/result"
)

// The rough edges a new user meets (issue 13, "CLI edges").

// TestProgressOffTerminal: with stderr not a terminal (a pipe, a Slurm
// log), long work prints a progress line every few seconds (here every
// nanosecond); --quiet prints none.
func TestProgressOffTerminal(t *testing.T) {
	run := func(extra ...string) string {
		dir := sweepDir(t)
		cmd := exec.Command(binary, append(append([]string{"--db", filepath.Join(dir, "presage.db")}, extra...), sweepArgs...)...)
		cmd.Env = append(os.Environ(), "PRESAGE_PROGRESS_INTERVAL=1ns")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("sweep: %v\n%s", err, stderr.String())
		}
		return stderr.String()
	}
	if got := run("--quiet"); got != "" {
		t.Errorf("--quiet printed %q", got)
	}
	got := run()
	if n := strings.Count(got, "of 48 configurations ("); n < 5 {
		t.Errorf("%d progress lines off a terminal, want one per configuration stored:\n%s", n, got)
	}
}

// TestExportProgress: an export off a terminal prints a progress line of
// the rows written against the store's estimate (a count alone when
// filters narrow it); --quiet prints none.
func TestExportProgress(t *testing.T) {
	dir := t.TempDir()
	inputsStore(t, dir)
	mustSucceed(t, presage(t, dir, "sweep", "--trace", "jac", "--machine", "Predictor", "--grids", "2x2,4,8"))
	export := func(args ...string) string {
		cmd := exec.Command(binary, append([]string{"--db", filepath.Join(dir, "presage.db"), "export", "csv", "--out", filepath.Join(dir, "e")}, args...)...)
		cmd.Env = append(os.Environ(), "PRESAGE_PROGRESS_INTERVAL=1ns")
		return runCommand(t, cmd).stderr
	}
	if got := export(); !regexp.MustCompile(`export CSV: \d+ of about \d+ rows \(\d+%\)`).MatchString(got) {
		t.Errorf("no progress line against the estimate:\n%s", got)
	}
	if got := export("--run", "2"); !regexp.MustCompile(`export CSV: \d+ rows\n`).MatchString(got) {
		t.Errorf("no progress line counting the rows of one run:\n%s", got)
	}
	if got := export("--quiet"); strings.Contains(got, "rows") {
		t.Errorf("--quiet printed %q", got)
	}
}

// TestOrdersProgress: off a terminal, an order trace's ingest prints
// progress lines of both its passes, the file read and then the orders
// analysed, and its simulation lines of the orders finished, without a
// time left (their pace is uneven); --quiet prints none.
func TestOrdersProgress(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "tasks.jsonl")
	mustSucceed(t, presage(t, dir, "gen", "orders", "--shape", "master", "--orders", "200000", trace))
	run := func(db string, args ...string) string {
		cmd := exec.Command(binary, append([]string{"--db", filepath.Join(dir, db)}, args...)...)
		cmd.Env = append(os.Environ(), "PRESAGE_PROGRESS_INTERVAL=1ns")
		return mustSucceed(t, runCommand(t, cmd)).stderr
	}
	got := run("a.db", "ingest", "orders", trace)
	for _, want := range []string{`ingest \S+tasks.jsonl: [\d.]+ of [\d.]+ MB \(\d+%\)`, `work and span of \S+tasks.jsonl: \d+ of 200001 orders \(\d+%\)`} {
		if !regexp.MustCompile(want).MatchString(got) {
			t.Errorf("no progress line matching %s:\n%s", want, got)
		}
	}
	got = run("a.db", "orders", "simulate", "--orders", "tasks", "--nodes", "16")
	if !regexp.MustCompile(`simulate tasks: \d+ of 200001 orders \(\d+%\)\n`).MatchString(got) {
		t.Errorf("no progress line of the simulation, or one with a time left:\n%s", got)
	}
	if got := run("b.db", "--quiet", "ingest", "orders", trace) + run("b.db", "--quiet", "orders", "simulate", "--orders", "tasks"); got != "" {
		t.Errorf("--quiet printed %q", got)
	}
}

// TestVersion: --version prints the build and exits 0.
func TestVersion(t *testing.T) {
	r := mustSucceed(t, presage(t, t.TempDir(), "--version"))
	if !strings.HasPrefix(r.stdout, "presage ") || !strings.Contains(r.stdout, "go1.") {
		t.Errorf("--version printed %q", r.stdout)
	}
}

// TestFailuresCreateNoStore: a command that fails in a folder without a
// store leaves none there, whether it needs one (sweep) or brings inputs
// (ingest of a bad file); an ingest that stored a file before failing
// keeps the store.
func TestFailuresCreateNoStore(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.ptr")
	if err := os.WriteFile(bad, []byte("not a trace\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"sweep", "--trace", "jac", "--grids", "2"},
		{"predict", "--trace", "jac", "--machine", "Predictor"},
		{"ingest", "trace", bad},
	} {
		if r := presage(t, dir, args...); r.code == 0 {
			t.Errorf("presage %v succeeded", args)
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 1 {
			t.Errorf("presage %v left %d files in the folder, want only bad.ptr", args, len(entries))
		}
	}
	r := presage(t, dir, "ingest", "trace", golden.Path(t, "traces", "jac.ptr"), bad)
	if r.code == 0 {
		t.Fatal("ingest of a good and a bad trace succeeded")
	}
	if _, err := os.Stat(filepath.Join(dir, "presage.db")); err != nil {
		t.Errorf("the store holding the good trace was removed: %v", err)
	}
	closedCleanly(t, dir)
}

// TestNotFoundSaysWhatIsThere: an unknown input names what the store
// holds and how to ingest; a report is readable by the group.
func TestNotFoundSaysWhatIsThere(t *testing.T) {
	dir := t.TempDir()
	inputsStore(t, dir)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"predict", "--trace", "jac1d", "--machine", "Predictor"},
			`no trace "jac1d" in the store (its traces: jac); ingest it with presage ingest trace FILE`},
		{[]string{"predict", "--trace", "jac", "--machine", "Myri"},
			`no machine "Myri" in the store (its machines: Predictor); ingest it with presage ingest machine FILE`},
	} {
		r := presage(t, dir, tc.args...)
		if r.code == 0 || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("presage %v: exit %d, %q; want %q", tc.args, r.code, r.stderr, tc.want)
		}
	}
	mustSucceed(t, presage(t, dir, "predict", "--trace", "jac", "--machine", "Predictor", "--grid", "2"))
	out := filepath.Join(dir, "r.html")
	mustSucceed(t, presage(t, dir, "report", "html", "--run", "1", "--out", out))
	if fi, err := os.Stat(out); err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("report mode %v (%v), want 0644", fi.Mode().Perm(), err)
	}
}

// TestEquivalentGridsLeftOut: --procs enumerates no grid with trailing
// dimensions of 1 (its results equal the shorter grid's) unless
// --all-grids: 1..4 at rank 2 is 8 grids, 12 with them.
func TestEquivalentGridsLeftOut(t *testing.T) {
	dir := t.TempDir()
	inputsStore(t, dir)
	for _, tc := range []struct {
		extra []string
		want  string
	}{
		{nil, "8 configurations (0 skipped)"},
		{[]string{"--all-grids"}, "12 configurations (0 skipped)"},
	} {
		args := append([]string{"sweep", "--trace", "jac", "--machine", "Predictor", "--procs", "1..4", "--dry-run"}, tc.extra...)
		r := mustSucceed(t, presage(t, dir, args...))
		if !strings.HasPrefix(r.stdout, tc.want) {
			t.Errorf("presage %v printed %q, want %q", args, r.stdout, tc.want)
		}
	}
}

// TestPredictFromFiles: predict takes trace and machine files, stored
// names or a mix; files are ingested once. The calls table is written on
// request, once.
func TestPredictFromFiles(t *testing.T) {
	dir := t.TempDir()
	trace, machine := golden.Path(t, "traces", "jac.ptr"), golden.Path(t, "machines", "Predictor.par")
	r := mustSucceed(t, presage(t, dir, "predict", trace, "--machine", machine, "--grid", "2x2"))
	if !strings.Contains(r.stdout, "run 1: jac on Predictor, grid 2x2") {
		t.Errorf("predict from files printed %q", r.stdout)
	}
	mustSucceed(t, presage(t, dir, "predict", "jac", "--machine", machine, "--grid", "2"))
	mustSucceed(t, presage(t, dir, "predict", "--trace", trace, "--machine", "Predictor", "--grid", "4"))
	if got := storeCounts(t, dir); !strings.HasPrefix(got, "traces=1 calls=0 machines=1 runs=3 ") {
		t.Errorf("after three predictions from files and names: %s", got)
	}
	r = mustSucceed(t, presage(t, dir, "calls", "jac"))
	if !strings.Contains(r.stderr, "487 calls written to the calls table") {
		t.Errorf("calls printed %q", r.stderr)
	}
	r = mustSucceed(t, presage(t, dir, "calls", "jac"))
	if !strings.Contains(r.stderr, "holds its calls already") {
		t.Errorf("calls again printed %q", r.stderr)
	}
	if got := storeCounts(t, dir); !strings.HasPrefix(got, "traces=1 calls=487 ") {
		t.Errorf("after presage calls: %s", got)
	}
}

// TestExportFilters: --trace and --run narrow an export to those runs;
// the characteristics table comes with every export.
func TestExportFilters(t *testing.T) {
	dir := t.TempDir()
	machine := golden.Path(t, "machines", "Predictor.par")
	mustSucceed(t, presage(t, dir, "predict", golden.Path(t, "traces", "jac.ptr"), "--machine", machine, "--grid", "2x2"))
	mustSucceed(t, presage(t, dir, "predict", golden.Path(t, "traces", "jac1d.ptr"), "--machine", "Predictor", "--grid", "2"))
	for _, tc := range []struct {
		flags []string
		want  string
	}{
		{[]string{"--trace", "jac1d"}, "runs=1 "},
		{[]string{"--run", "1"}, "runs=1 "},
		{nil, "runs=2 "},
	} {
		out := filepath.Join(dir, "e"+strings.Join(tc.flags, ""))
		r := mustSucceed(t, presage(t, dir, append([]string{"export", "csv", "--out", out}, tc.flags...)...))
		if !strings.Contains(r.stderr, tc.want) || !strings.Contains(r.stderr, "characteristics=") {
			t.Errorf("export %v said %q, want %q", tc.flags, r.stderr, tc.want)
		}
	}
	if r := presage(t, dir, "export", "csv", "--out", filepath.Join(dir, "x"), "--run", "9"); r.code == 0 {
		t.Error("export of run 9, which is not stored, succeeded")
	}
}

// TestValuesUsedExported: a prediction records the machine values it
// used — the override, else the machine file's top-level cluster and
// processors — and the runs export carries them beside the overrides.
func TestValuesUsedExported(t *testing.T) {
	dir := t.TempDir()
	inputsStore(t, dir)
	mustSucceed(t, presage(t, dir, "predict", "jac", "--machine", "Predictor", "--grid", "2x2"))
	mustSucceed(t, presage(t, dir, "predict", "jac", "--machine", "Predictor", "--grid", "2x2", "--tstart", "30", "--power", "2"))
	r := mustSucceed(t, presage(t, dir, "query", "--format", "csv",
		"SELECT run_id, tstart_us, tstart_used_us, tbyte_used_us, power, power_used FROM v_runs ORDER BY run_id"))
	// Microseconds, as the flag and the machine file give them.
	want := "run_id,tstart_us,tstart_used_us,tbyte_used_us,power,power_used\n1,,7,0.004,,1\n2,30,30,0.004,2,2\n"
	if r.stdout != want {
		t.Errorf("values used:\n%s\nwant\n%s", r.stdout, want)
	}
	out := filepath.Join(dir, "e")
	mustSucceed(t, presage(t, dir, "export", "csv", "--out", out))
	runs, err := os.ReadFile(filepath.Join(out, "runs", "sweep_id=0", "part-0.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if header := strings.SplitN(string(runs), "\n", 2)[0]; !strings.Contains(header, "tstart_used_us,tbyte_used_us,power_used") {
		t.Errorf("runs export header %q lacks the values used", header)
	}
}

// TestExportDense: --dense writes the zeros the store leaves out of the
// per-processor values, so the values table has every characteristic of
// every processor.
func TestExportDense(t *testing.T) {
	dir := t.TempDir()
	inputsStore(t, dir)
	mustSucceed(t, presage(t, dir, "predict", "jac", "--machine", "Predictor", "--grid", "2x2"))
	rows := func(flags ...string) int {
		out := filepath.Join(dir, "e"+strings.Join(flags, ""))
		mustSucceed(t, presage(t, dir, append([]string{"export", "csv", "--out", out}, flags...)...))
		b, err := os.ReadFile(filepath.Join(out, "values", "sweep_id=0", "part-0.csv"))
		if err != nil {
			t.Fatal(err)
		}
		return strings.Count(string(b), "\n") - 1
	}
	sparse, dense := rows(), rows("--dense")
	r := mustSucceed(t, presage(t, dir, "query", "--format", "csv", "SELECT count(*) FROM intervals WHERE run_id = 1"))
	intervals, _ := strconv.Atoi(strings.TrimSpace(strings.Split(r.stdout, "\n")[1]))
	chars := len(result.Chars)
	if want := intervals*chars + intervals*4*chars; dense != want || sparse >= dense {
		t.Errorf("values rows: %d sparse, %d dense; want %d dense (%d intervals x %d characteristics x (1 + 4 processors))",
			sparse, dense, want, intervals, chars)
	}
}

// TestExportTimestamps: created_at is a timestamp in Arrow and Parquet,
// an RFC 3339 time in CSV.
func TestExportTimestamps(t *testing.T) {
	dir := t.TempDir()
	inputsStore(t, dir)
	mustSucceed(t, presage(t, dir, "predict", "jac", "--machine", "Predictor", "--grid", "2"))
	out := filepath.Join(dir, "csv")
	mustSucceed(t, presage(t, dir, "export", "csv", "--out", out))
	b, err := os.ReadFile(filepath.Join(out, "runs", "sweep_id=0", "part-0.csv"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	header, row := strings.Split(lines[0], ","), strings.Split(lines[1], ",")
	created := row[slices.Index(header, "created_at")]
	if _, err := time.Parse(time.RFC3339, created); err != nil || !strings.HasSuffix(created, "Z") {
		t.Errorf("created_at %q: %v", created, err)
	}
}

// perfettoEvent is an event of a Perfetto (Chrome trace) JSON file.
type perfettoEvent struct {
	Ph   string  `json:"ph"`
	Name string  `json:"name"`
	Tid  int     `json:"tid"`
	Ts   float64 `json:"ts"`
	Dur  float64 `json:"dur"`
}

// perfettoEvents reads the events of the Perfetto JSON file at path.
func perfettoEvents(t *testing.T, path string) []perfettoEvent {
	t.Helper()
	var trace struct {
		TraceEvents []perfettoEvent `json:"traceEvents"`
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &trace); err != nil {
		t.Fatalf("perfetto JSON: %v", err)
	}
	return trace.TraceEvents
}

// TestExportTimelineWindow: --procs, --from and --to narrow a timeline,
// and --max-mb bounds it and says what it left out.
func TestExportTimelineWindow(t *testing.T) {
	dir := t.TempDir()
	inputsStore(t, dir)
	mustSucceed(t, presage(t, dir, "predict", "jac", "--machine", "Predictor", "--grid", "2x2"))
	js := filepath.Join(dir, "t.json")
	events := func() (tids map[int]bool, first, last float64) {
		tids, first = map[int]bool{}, math.Inf(1)
		for _, e := range perfettoEvents(t, js) {
			if e.Ph == "X" {
				tids[e.Tid] = true
				first, last = min(first, e.Ts), max(last, e.Ts+e.Dur)
			}
		}
		return tids, first, last
	}
	mustSucceed(t, presage(t, dir, "export", "timeline", "--run", "1", "--format", "perfetto", "--out", js,
		"--procs", "1", "--from", "0.01", "--to", "0.02"))
	if tids, first, last := events(); len(tids) != 1 || first < 1e4 || last > 2e4 {
		t.Errorf("window: threads %v, spans from %g to %g µs; want one thread within 10000..20000 µs", tids, first, last)
	}
	// A run whose timeline is far more than 1 MB.
	mustSucceed(t, presage(t, dir, "predict", golden.Path(t, "traces", "jac_e4_L500_it4000.ptr.gz"), "--machine", "Predictor", "--grid", "2x2"))
	r := mustSucceed(t, presage(t, dir, "export", "timeline", "--run", "2", "--format", "perfetto", "--out", js, "--max-mb", "1"))
	if st, err := os.Stat(js); err != nil || st.Size() > 1.2e6 || !strings.Contains(r.stderr, "left out past --max-mb 1") {
		t.Errorf("--max-mb 1: %v bytes (%v), %q", st.Size(), err, r.stderr)
	}
}

// TestExportTimeline: a predicted run's timeline as Perfetto JSON (one
// thread per processor) and as a Paraver trace with its .pcf and .row; a
// measured run has none.
func TestExportTimeline(t *testing.T) {
	dir := t.TempDir()
	inputsStore(t, dir)
	mustSucceed(t, presage(t, dir, "predict", "jac", "--machine", "Predictor", "--grid", "2x2"))
	js := filepath.Join(dir, "t.json")
	mustSucceed(t, presage(t, dir, "export", "timeline", "--run", "1", "--format", "perfetto", "--out", js))
	threads, spans := map[int]bool{}, 0
	for _, e := range perfettoEvents(t, js) {
		if e.Ph == "M" && e.Name == "thread_name" {
			threads[e.Tid] = true
		}
		if e.Ph == "X" {
			spans++
		}
	}
	if len(threads) != 4 || spans == 0 {
		t.Errorf("perfetto: %d threads, %d spans; want 4 threads and spans", len(threads), spans)
	}
	prv := filepath.Join(dir, "t.prv")
	mustSucceed(t, presage(t, dir, "export", "timeline", "--run", "1", "--format", "paraver", "--out", prv))
	head, err := os.ReadFile(prv)
	if err != nil || !strings.HasPrefix(string(head), "#Paraver ") {
		t.Errorf("paraver trace starts %q (%v)", string(head[:min(len(head), 40)]), err)
	}
	for _, ext := range []string{".pcf", ".row"} {
		if _, err := os.Stat(strings.TrimSuffix(prv, ".prv") + ext); err != nil {
			t.Errorf("no %s: %v", ext, err)
		}
	}
	mustSucceed(t, presage(t, dir, "ingest", "sts", golden.Path(t, "sts", "jac_e4.2x2.sts.gz+")))
	if r := presage(t, dir, "export", "timeline", "--run", "2", "--format", "perfetto", "--out", js); r.code == 0 {
		t.Error("a measured run's timeline was exported")
	}
}
