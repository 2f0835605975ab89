package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/ingest/tracegen"
	"github.com/presage-dvm/presage/internal/golden"
	"github.com/presage-dvm/presage/internal/storetest"
	"github.com/presage-dvm/presage/schema/store"
)

// binary is the presage command built once for all tests of this package.
var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "presage-cli")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "presage")
	if out, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "build presage: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

type cliResult struct {
	stdout, stderr string
	code           int
}

// presage runs the binary in dir with the store dir/presage.db.
func presage(t *testing.T, dir string, args ...string) cliResult {
	t.Helper()
	cmd := exec.Command(binary, append([]string{"--db", filepath.Join(dir, "presage.db")}, args...)...)
	cmd.Dir = dir
	return runCommand(t, cmd)
}

// runCommand runs cmd, a command of the binary, and returns its outputs
// and exit code.
func runCommand(t *testing.T, cmd *exec.Cmd) cliResult {
	t.Helper()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	code := 0
	if errors.As(err, &exit) {
		code = exit.ExitCode()
	} else if err != nil {
		t.Fatalf("run %v: %v", cmd.Args, err)
	}
	return cliResult{stdout.String(), stderr.String(), code}
}

func mustSucceed(t *testing.T, r cliResult) cliResult {
	t.Helper()
	if r.code != 0 {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	return r
}

// storeCounts summarises what the store holds, to check that a failed
// command left it as it was.
func storeCounts(t *testing.T, dir string) string {
	t.Helper()
	db, err := store.Open(filepath.Join(dir, "presage.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var parts []string
	for _, table := range []string{"traces", "calls", "machines", "runs", "intervals", "interval_values", "interval_proc_values"} {
		parts = append(parts, fmt.Sprintf("%s=%d", table, storetest.Count(t, db, table)))
	}
	return strings.Join(parts, " ")
}

// generatedTrace is a small valid trace with intervals.
func generatedTrace(t *testing.T) string {
	t.Helper()
	var b bytes.Buffer
	if _, err := tracegen.Write(&b, tracegen.Options{Program: tracegen.Jacobi, N: 8, Iterations: 1, Intervals: true, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// replaceFirst replaces the first occurrence of old, failing if there is none.
func replaceFirst(t *testing.T, s, old, new string) string {
	t.Helper()
	if !strings.Contains(s, old) {
		t.Fatalf("generated trace lacks %q", old)
	}
	return strings.Replace(s, old, new, 1)
}

// TestPipeline runs the documented commands end to end.
func TestPipeline(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "jacobi.ptr")
	os.WriteFile(trace, []byte(generatedTrace(t)), 0o644)
	os.WriteFile(filepath.Join(dir, "demo.par"), demoMachine, 0o644)

	mustSucceed(t, presage(t, dir, "ingest", "machine", "demo.par"))
	r := mustSucceed(t, presage(t, dir, "ingest", "trace", "jacobi.ptr"))
	if !strings.Contains(r.stderr, "trace jacobi:") {
		t.Errorf("ingest said %q", r.stderr)
	}
	r = mustSucceed(t, presage(t, dir, "ingest", "trace", "jacobi.ptr"))
	if !strings.Contains(r.stderr, "already stored") {
		t.Errorf("second ingest said %q, want 'already stored'", r.stderr)
	}
	r = mustSucceed(t, presage(t, dir, "predict", "--trace", "jacobi", "--machine", "demo", "--grid", "2x2"))
	if !strings.HasPrefix(r.stdout, "run 1: jacobi on demo, grid 2x2") {
		t.Errorf("predict printed %q", r.stdout)
	}
	mustSucceed(t, presage(t, dir, "report", "html", "--run", "latest", "--out", "r.html"))
	html, err := os.ReadFile(filepath.Join(dir, "r.html"))
	if err != nil || !bytes.Contains(html, []byte("jacobi")) {
		t.Fatalf("report html: %v, %d bytes", err, len(html))
	}
	// The per-processor picture was stored with the prediction: the
	// report reads it, even from a store it may not write.
	if !bytes.Contains(html, []byte(`id="h-timeline"`)) {
		t.Error("the run report of a prediction lacks the stored per-processor picture")
	}
	r = mustSucceed(t, presage(t, dir, "report", "json", "--run", "1"))
	if !strings.Contains(r.stdout, `"Execution_time"`) {
		t.Errorf("report json lacks Execution_time: %.200s", r.stdout)
	}
	for _, format := range []string{"parquet", "arrow", "csv", "extrap"} {
		mustSucceed(t, presage(t, dir, "export", format, "--out", "exp-"+format))
		files, _ := filepath.Glob(filepath.Join(dir, "exp-"+format, "*", "sweep_id=0", "*"))
		if format == "extrap" {
			files, _ = filepath.Glob(filepath.Join(dir, "exp-"+format, "sweep_id=0", "*.jsonl"))
		}
		if len(files) == 0 {
			t.Errorf("export %s wrote no partition files", format)
		}
	}
	r = mustSucceed(t, presage(t, dir, "query", "--format", "csv", testSQL(t, "count_runs.sql")))
	if r.stdout != "n\n1\n" {
		t.Errorf("query printed %q", r.stdout)
	}
	r = mustSucceed(t, presage(t, dir, "query", "--name", "top_lost", "--param", "run=1"))
	if !strings.Contains(r.stdout, "Main") {
		t.Errorf("named query top_lost printed %q", r.stdout)
	}
	before := storeCounts(t, dir)
	if r = presage(t, dir, "query", testSQL(t, "delete_runs.sql")); r.code == 0 {
		t.Error("query accepted a DELETE")
	}
	if after := storeCounts(t, dir); after != before {
		t.Errorf("a refused query changed the store:\n before %s\n after  %s", before, after)
	}
	r = mustSucceed(t, presage(t, dir, "--quiet", "list", "runs"))
	if !strings.Contains(r.stdout, "predicted") {
		t.Errorf("list runs printed %q", r.stdout)
	}
	mustSucceed(t, presage(t, dir, "sweep", "--trace", "jacobi", "--machine", "demo", "--grids", "1,2,2x2", "--network", "cluster,bus"))
	mustSucceed(t, presage(t, dir, "report", "html", "--sweep", "1", "--out", "sweep.html"))
	r = mustSucceed(t, presage(t, dir, "report", "html", "--run", "latest", "--out", "sweep-run.html"))
	if !strings.Contains(r.stderr, "no stored per-processor picture") {
		t.Errorf("the report of a sweep's run said %q, want why it has no per-processor picture", r.stderr)
	}
	page, err := os.ReadFile(filepath.Join(dir, "sweep.html"))
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(page, []byte("<svg")); n != 4 {
		t.Errorf("sweep report has %d charts, want 4", n)
	}
}

// TestBadInput checks that every kind of bad input gives an error naming the
// file and line, a non-zero exit, and a store left as it was.
func TestBadInput(t *testing.T) {
	t.Parallel() // its own folder and store; no timing
	good := generatedTrace(t)
	tests := []struct {
		name  string
		trace string // trace text; the trace is ingested, then predicted
		grid  string
		want  []string // substrings of the error
	}{
		{"empty file", "", "2x2", []string{"bad.ptr", "empty"}},
		{"truncated mid-call", good[:strings.Index(good, "ret_crtpl_")], "2x2", []string{"bad.ptr:", "truncated"}},
		{"non-numeric TIME", replaceFirst(t, good, "TIME=0.00000352", "TIME=0.0000x352"), "2x2", []string{"bad.ptr:41:", "TIME"}},
		{"huge TIME", replaceFirst(t, good, "TIME=0.00000352", "TIME=1e308"), "2x2", []string{"bad.ptr:41:", "TIME", "from 0 to 1e+09"}},
		{"negative TIME", replaceFirst(t, good, "TIME=0.00000352", "TIME=-5"), "2x2", []string{"bad.ptr:41:", "TIME", "from 0 to 1e+09"}},
		{"hexadecimal TIME", replaceFirst(t, good, "TIME=0.00000352", "TIME=0x1p3"), "2x2", []string{"bad.ptr:41:", "TIME"}},
		{"required parameter missing", replaceFirst(t, good, "SizeArray[0]=8; SizeArray[1]=8;  \nLowShd", "LowShd"), "2x2",
			[]string{"bad.ptr:", "crtda_", "SizeArray"}},
		{"object never created", replaceFirst(t, good, "ArrayHeader=55e7c4406dc0; ArrayHandlePtr", "ArrayHeader=deadbeef; ArrayHandlePtr"), "2x2",
			[]string{"bad.ptr:", "align_", "deadbeef"}},
		{"interval closed never opened", replaceFirst(t, good, "call_bsloop_",
			"call_enloop_               TIME=0.00000100 LINE=8      FILE=jacobi.fdv\nnline=8;\n\nret_enloop_                TIME=0.00000100 LINE=8      FILE=jacobi.fdv\n\ncall_bsloop_"),
			"2x2", []string{"bad.ptr:", "enloop_"}},
		{"grid larger than the machine", good, "16x16", []string{"16x16", "256", "64"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			os.WriteFile(filepath.Join(dir, "demo.par"), demoMachine, 0o644)
			os.WriteFile(filepath.Join(dir, "bad.ptr"), []byte(tt.trace), 0o644)
			mustSucceed(t, presage(t, dir, "ingest", "machine", "demo.par"))
			before := storeCounts(t, dir)
			r := presage(t, dir, "ingest", "trace", "bad.ptr")
			if r.code == 0 {
				r = presage(t, dir, "predict", "--trace", "bad", "--machine", "demo", "--grid", tt.grid)
				before = storeCounts(t, dir) // the ingest itself was fine
			}
			if r.code == 0 {
				t.Fatalf("bad input accepted\nstdout: %s", r.stdout)
			}
			for _, w := range tt.want {
				if !strings.Contains(r.stderr, w) {
					t.Errorf("error %q lacks %q", strings.TrimSpace(r.stderr), w)
				}
			}
			if after := storeCounts(t, dir); after != before {
				t.Errorf("store changed:\n before %s\n after  %s", before, after)
			}
		})
	}
}

func TestBadMachineFile(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "bad.par"), []byte("cluster = c;\nc = {2 x p}\np = 1.00;\n"), 0o644)
	before := storeCounts(t, dir)
	r := presage(t, dir, "ingest", "machine", "bad.par")
	if r.code == 0 {
		t.Fatal("machine file with a syntax error accepted")
	}
	if !strings.Contains(r.stderr, "bad.par:") {
		t.Errorf("error %q does not name the file and line", r.stderr)
	}
	if after := storeCounts(t, dir); after != before {
		t.Errorf("store changed:\n before %s\n after  %s", before, after)
	}
}

// TestDemo: the demo sweeps 1..N processors, writes the run report of
// its grid and the sweep report, says where both are, and is idempotent:
// a second demo stores nothing more.
func TestDemo(t *testing.T) {
	dir := t.TempDir()
	args := []string{"demo", "--dir", "out", "--procs", "16", "--grid", "4x4"}
	r := mustSucceed(t, presage(t, dir, args...))
	for _, want := range []string{"HTML report of run ", " (4x4): ", "jacobi.demo.4x4.html", "HTML report of sweep 1: ", "sweep-1.html",
		"Next, on this store", "presage query --name top_lost --param run="} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("demo printed %q, lacking %q", r.stdout, want)
		}
	}
	matches, _ := filepath.Glob(filepath.Join(dir, "out", "*.html"))
	if len(matches) != 2 {
		t.Fatalf("demo wrote %v, want the run and the sweep reports", matches)
	}
	before := storeCounts(t, dir)
	r = mustSucceed(t, presage(t, dir, args...))
	if after := storeCounts(t, dir); after != before || !strings.Contains(r.stderr, "already stored, 0 predicted") {
		t.Errorf("a second demo stored more (%q):\n before %s\n after  %s", r.stderr, before, after)
	}
}

// TestOriginalExample runs the commands of the issue on the real jac1d
// trace and machine file and checks the report against the original's
// numbers (FORMATS-observed.md (e): efficiency 0.2415, execution time 0.0085).
func TestOriginalExample(t *testing.T) {
	trace := golden.Path(t, "traces", "jac1d.ptr")
	machine := golden.Path(t, "machines", "Predictor.par")
	dir := t.TempDir()
	mustSucceed(t, presage(t, dir, "ingest", "trace", trace))
	mustSucceed(t, presage(t, dir, "ingest", "machine", machine))
	r := mustSucceed(t, presage(t, dir, "predict", "--trace", "jac1d", "--machine", "Predictor", "--grid", "2x2"))
	if !strings.Contains(r.stdout, "execution time 0.0085 s, efficiency 0.2415") {
		t.Errorf("predict printed %q", r.stdout)
	}
	mustSucceed(t, presage(t, dir, "report", "html", "--run", "latest"))
	html, err := os.ReadFile(filepath.Join(dir, "jac1d.Predictor.2x2.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{"0.2415", "0.0085", "0.0341"} {
		if !bytes.Contains(html, []byte(v)) {
			t.Errorf("report lacks %s", v)
		}
	}
}

// TestMeasuredAndCompare ingests real statistics, prints the analyzer's
// report and compares the measured run with a prediction of the same
// program and grid.
func TestMeasuredAndCompare(t *testing.T) {
	sts := golden.Path(t, "sts", "jac_e4.2x2.sts.gz+")
	want, err := os.ReadFile(golden.Path(t, "pppa", "jac_e4.2x2.txt"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	mustSucceed(t, presage(t, dir, "ingest", "sts", sts))
	r := mustSucceed(t, presage(t, dir, "report", "text", "--run", "1"))
	// The report equals the analyzer's but for the line naming the analyzer.
	withoutAnalyzer := func(s string) string {
		var keep []string
		for _, l := range strings.Split(s, "\n") {
			if !strings.HasPrefix(l, "Analyzer is executing on") {
				keep = append(keep, l)
			}
		}
		return strings.Join(keep, "\n")
	}
	if withoutAnalyzer(r.stdout) != withoutAnalyzer(string(want)) {
		t.Errorf("report text differs from the analyzer's report of %s", sts)
	}

	mustSucceed(t, presage(t, dir, "ingest", "trace", golden.Path(t, "traces", "jac_e4.ptr")))
	mustSucceed(t, presage(t, dir, "ingest", "machine", golden.Path(t, "machines", "Predictor.par")))
	mustSucceed(t, presage(t, dir, "predict", "--trace", "jac_e4", "--machine", "Predictor", "--grid", "2x2"))
	r = mustSucceed(t, presage(t, dir, "compare", "--measured", "1", "--predicted", "2"))
	// The measured Main with the trace's -e4 program loop; the
	// predicted Main, start-up included, is listed with its reason.
	for _, want := range []string{"Summary: 5 matched, 0 unmatched measured, 1 unmatched predicted",
		"Seq jac.fdv:8 (predicted interval 2, count 1) = Main jac.fdv:8 (measured interval 1, count 1)",
		"because Main of a trace compiled with -e4"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("compare printed, without %q:\n%s", want, r.stdout)
		}
	}
	// Another program is refused, unless forced.
	mustSucceed(t, presage(t, dir, "ingest", "trace", golden.Path(t, "traces", "jac1d.ptr")))
	mustSucceed(t, presage(t, dir, "predict", "--trace", "jac1d", "--machine", "Predictor", "--grid", "2x2"))
	r = presage(t, dir, "compare", "--measured", "1", "--predicted", "3")
	if r.code == 0 || !strings.Contains(r.stderr, "are not the same program") || !strings.Contains(r.stderr, "--force") {
		t.Errorf("jac_e4 measured vs jac1d predicted: exit %d, %q", r.code, r.stderr)
	}
	r = mustSucceed(t, presage(t, dir, "compare", "--measured", "1", "--predicted", "3", "--force"))
	if !strings.Contains(r.stdout+r.stderr, "warning") {
		t.Errorf("forced compare of two programs printed no warning:\n%s%s", r.stdout, r.stderr)
	}
	r = mustSucceed(t, presage(t, dir, "query", "--format", "csv", "--name", "measured_vs_predicted",
		"--param", "measured=1", "--param", "predicted=2"))
	if n := strings.Count(r.stdout, "\n"); n != 6 { // a header and the 5 intervals of the report tree
		t.Errorf("measured_vs_predicted gave %d lines:\n%s", n, r.stdout)
	}
	sameNumbersAsQuery(t, mustSucceed(t, presage(t, dir, "compare", "--measured", "1", "--predicted", "2", "--format", "json")).stdout, r.stdout)
	r = presage(t, dir, "compare", "--measured", "2", "--predicted", "1")
	if r.code == 0 || !strings.Contains(r.stderr, "expected a measured run") {
		t.Errorf("swapped runs: exit %d, %q", r.code, r.stderr)
	}
}

// sameNumbersAsQuery checks that compare's JSON and the named query
// measured_vs_predicted (CSV, Execution_time) give the same measured and
// predicted numbers for every matched interval: pandas gets what compare
// prints.
func sameNumbersAsQuery(t *testing.T, compareJSON, queryCSV string) {
	t.Helper()
	var cmp struct {
		Matches []struct {
			Predicted struct {
				Type, File string
				Line       int
			} `json:"predicted"`
			Values []struct {
				Characteristic      string
				Measured, Predicted float64
			} `json:"values"`
		} `json:"matches"`
	}
	if err := json.Unmarshal([]byte(compareJSON), &cmp); err != nil {
		t.Fatalf("compare --format json: %v", err)
	}
	rows, err := csv.NewReader(strings.NewReader(queryCSV)).ReadAll()
	if err != nil || len(rows) < 2 {
		t.Fatalf("measured_vs_predicted: %v, %d rows", err, len(rows))
	}
	col := map[string]int{}
	for i, c := range rows[0] {
		col[c] = i
	}
	query := map[string][2]string{}
	for _, r := range rows[1:] {
		query[r[col["type"]]+" "+r[col["file"]]+":"+r[col["line"]]] = [2]string{r[col["measured"]], r[col["predicted"]]}
	}
	compared := 0
	for _, m := range cmp.Matches {
		key := fmt.Sprintf("%s %s:%d", m.Predicted.Type, m.Predicted.File, m.Predicted.Line)
		for _, v := range m.Values {
			if v.Characteristic != "Execution_time" {
				continue
			}
			compared++
			q, ok := query[key]
			want := [2]string{strconv.FormatFloat(v.Measured, 'g', -1, 64), strconv.FormatFloat(v.Predicted, 'g', -1, 64)}
			if !ok || q != want {
				t.Errorf("%s: the query gives %v, compare %v", key, q, want)
			}
		}
	}
	if compared == 0 || compared != len(rows)-1 {
		t.Errorf("compared %d intervals; compare matched %d, the query has %d", compared, len(cmp.Matches), len(rows)-1)
	}
}

// testSQL is the text of a user's query kept in testdata/NAME.
func testSQL(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(b))
}
