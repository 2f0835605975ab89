package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/presage-dvm/presage/ingest/tracegen"
	"github.com/presage-dvm/presage/internal/golden"
	"github.com/presage-dvm/presage/internal/ststest"
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

// TestIngestStoppedBySignal: SIGINT or SIGTERM in the middle of an
// ingest stops it with 130 or 143 and one line saying so, the store
// closed and as it was.
func TestIngestStoppedBySignal(t *testing.T) {
	src := t.TempDir()
	trace := filepath.Join(src, "big.ptr")
	if _, err := tracegen.WriteFile(trace, tracegen.Options{Program: tracegen.Jacobi, N: 64, Calls: 300_000}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		sig  os.Signal
		code int
		name string
	}{{os.Interrupt, 130, "SIGINT"}, {syscall.SIGTERM, 143, "SIGTERM"}} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			mustSucceed(t, presage(t, dir, "ingest", "machine", golden.Path(t, "machines", "Predictor.par")))
			before := storeCounts(t, dir)
			// Progress lines (every millisecond off a terminal) say how far
			// the reading is: the signal goes when about a third is read.
			cmd := exec.Command(binary, "--db", filepath.Join(dir, "presage.db"), "ingest", "trace", trace)
			cmd.Env = append(os.Environ(), "PRESAGE_PROGRESS_INTERVAL=1ms")
			stderr, err := cmd.StderrPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			var last string
			sent := false
			sc := bufio.NewScanner(stderr)
			for sc.Scan() {
				last = sc.Text()
				var done, total float64
				if _, err := fmt.Sscanf(last[strings.LastIndex(last, ": ")+2:], "%g of %g MB", &done, &total); err == nil && !sent && done > total/4 {
					if done > 3*total/4 {
						t.Fatalf("the ingest read %.1f of %.1f MB before the test could signal it", done, total)
					}
					if err := cmd.Process.Signal(tc.sig); err != nil {
						t.Fatal(err)
					}
					sent = true
				}
			}
			cmd.Wait()
			if !sent {
				t.Fatalf("no progress line to time the signal by; the last line was %q", last)
			}
			if code := cmd.ProcessState.ExitCode(); code != tc.code {
				t.Errorf("exit %d, want %d (last line %q)", code, tc.code, last)
			}
			if !strings.HasPrefix(last, "presage: stopped by "+tc.name) {
				t.Errorf("last line %q, want one saying %s stopped it", last, tc.name)
			}
			closedCleanly(t, dir)
			if after := storeCounts(t, dir); after != before {
				t.Errorf("store changed:\n before %s\n after  %s", before, after)
			}
		})
	}
}

// TestUsageErrorsAreOneLine: a command line that does not parse gets one
// line saying what is wrong and a hint naming the command's help, exit 2;
// never a usage dump.
func TestUsageErrorsAreOneLine(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
		hint string
	}{
		{[]string{"frob"}, "unexpected argument frob", "presage --help"},
		{[]string{"sweep", "--trace", "t", "--max-rank", "abc"}, "--max-rank", "presage sweep --help"},
		{[]string{"ingest", "trace"}, "expected \"<files> ...\"", "presage ingest trace --help"},
		{[]string{"orders", "simulate", "--orders", "x", "--scheduler", "random"}, "--scheduler", "presage orders simulate --help"},
	} {
		r := presage(t, t.TempDir(), tc.args...)
		lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
		if r.code != 2 || len(lines) != 2 || !strings.Contains(lines[0], tc.want) ||
			lines[1] != "hint: "+tc.hint+" shows the usage" || r.stdout != "" {
			t.Errorf("presage %v: exit %d, stderr %q, stdout %q; want exit 2, %q and the hint %q",
				tc.args, r.code, r.stderr, r.stdout, tc.want, tc.hint)
		}
	}
}

// TestNonsenseNumbersRefused: grids too large to hold, non-finite,
// negative or zero overrides, negative counts and deadlines, and
// configurations whose times overflow are refused with a message naming
// the value and what was expected, before anything is stored.
func TestNonsenseNumbersRefused(t *testing.T) {
	t.Parallel() // its own folder and store; no timing
	dir := t.TempDir()
	inputsStore(t, dir)
	predict := []string{"predict", "--trace", "jac", "--machine", "Predictor"}
	sweep := []string{"sweep", "--trace", "jac", "--machine", "Predictor"}
	search := []string{"search", "--trace", "jac", "--machine", "Predictor"}
	with := func(cmd []string, args ...string) []string { return append(append([]string{}, cmd...), args...) }
	for _, tc := range []struct {
		args []string
		want string
	}{
		{with(predict, "--grid", "4294967296x4294967296"), "more than 1048576 processors"},
		{with(predict, "--grid", "2x9223372036854775807"), "more than 1048576 processors"},
		{with(predict, "--grid", "4x4611686018427387905"), "more than 1048576 processors"},
		{with(sweep, "--grids", "2x2,4x4611686018427387905"), "more than 1048576 processors"},
		{with(search, "--mode", "1", "--first", "4294967296x4294967296"), "more than 1048576 processors"},
		{with(predict, "--grid", "2x2", "--tstart=1e308"), "--tstart 1e+308: expected a number of microseconds from 0 to 10000000"},
		{with(predict, "--grid", "2x2", "--power=1e-320"), "--power 1e-320: expected a number of times the traced processor's speed from 0.001 to 100"},
		{with(predict, "--grid", "2x2", "--power=NaN"), "--power NaN: expected a positive finite number"},
		{with(predict, "--grid", "2x2", "--power=Inf"), "--power +Inf: expected a positive finite number"},
		{with(predict, "--grid", "2x2", "--power=-1"), "--power -1: expected a positive finite number"},
		{with(predict, "--grid", "2x2", "--power=0"), "--power 0: expected a positive finite number"},
		{with(predict, "--grid", "2x2", "--tstart=0"), "--tstart 0: expected a positive finite number"},
		{with(predict, "--grid", "2x2", "--tstart=-5"), "--tstart -5: expected a positive finite number"},
		{with(predict, "--grid", "2x2", "--tbyte=-1"), "--tbyte -1: expected a positive finite number"},
		{with(sweep, "--grids", "2x2", "--power=NaN"), `"NaN" is not a positive finite number`},
		{with(sweep, "--grids", "2x2", "--tstart=0"), `"0" is not a positive finite number`},
		{with(sweep, "--grids", "2x2", "--tbyte=nan"), `"nan" is not a positive finite number`},
		{with(sweep, "--procs", "1..4", "--max-rank", "7"), "--max-rank 7: expected an integer from 1 to 4"},
		{with(search, "--top=-1"), "--top -1: expected an integer ≥ 0"},
		{with(search, "--deadline=-1"), "--deadline -1: expected a finite number of seconds ≥ 0"},
		{with(search, "--min-efficiency=1.5"), "--min-efficiency 1.5: expected a number from 0 to 1"},
		{with(search, "--power=0"), "--power 0: expected a positive finite number"},
		{[]string{"orders", "sweep", "--orders", "x", "--nodes", "1..4", "--deadline=-1"}, "--deadline -1"},
		{[]string{"orders", "sweep", "--orders", "x", "--nodes", "1..4", "--budget=-1"}, "--budget -1: expected a finite number of node-seconds ≥ 0"},
		{[]string{"orders", "sweep", "--orders", "x", "--nodes", "1..4", "--budget=+Inf"}, "--budget +Inf"},
		{[]string{"orders", "simulate", "--orders", "x", "--latency=NaN"}, "--latency NaN"},
	} {
		before := storeCounts(t, dir)
		r := presage(t, dir, tc.args...)
		if r.code == 0 || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("presage %v: exit %d, %q; want an error with %q", tc.args, r.code, r.stderr, tc.want)
		}
		if after := storeCounts(t, dir); after != before {
			t.Errorf("presage %v changed the store:\n before %s\n after  %s", tc.args, before, after)
		}
	}
	// Processor counts beyond the machine are left out before the grids
	// are enumerated: two million counts take no time.
	r := mustSucceed(t, presage(t, dir, with(sweep, "--procs", "1..2000000", "--dry-run")...))
	if !strings.Contains(r.stdout, "configurations") || !strings.Contains(r.stderr, "counts above 1024") {
		t.Errorf("dry run of 1..2000000 on 1024 processors: %q %q", r.stdout, r.stderr)
	}
}

// TestBadStatisticsFiles: statistics files whose grid contradicts their
// processor count, or with anything after their last buffer, or that are
// not statistics at all, are refused with the file named, the store as it
// was.
func TestBadStatisticsFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	grid := func(g ...int64) []byte {
		spec := ststest.Simple(4)
		spec.Grid = g
		return spec.GzPlus()
	}
	good := ststest.Simple(4).GzPlus()
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"grid3x3.sts.gz+", grid(3, 3), "processor grid 3x3 for 4 processors"},
		{"grid0x4.sts.gz+", grid(0, 4), "processor grid 0x4 for 4 processors"},
		{"gridneg.sts.gz+", grid(-2, -2), "processor grid -2x-2 for 4 processors"},
		{"gridhuge.sts.gz+", grid(1<<62, 4), "processor grid 4611686018427387904x4 for 4 processors"},
		{"padded.sts.gz+", append(slices.Clone(good), make([]byte, 4<<20)...), "data after the last processor's buffer"},
		{"zeros.sts.gz+", make([]byte, 8<<20), "not a statistics file"},
	} {
		path := write(tc.name, tc.data)
		before := storeCounts(t, dir)
		r := presage(t, dir, "ingest", "sts", path)
		if r.code == 0 || !strings.Contains(r.stderr, path) || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("ingest sts %s: exit %d, %q; want %q", tc.name, r.code, r.stderr, tc.want)
		}
		if after := storeCounts(t, dir); after != before {
			t.Errorf("%s changed the store:\n before %s\n after  %s", tc.name, before, after)
		}
	}
	mustSucceed(t, presage(t, dir, "ingest", "sts", write("good.sts.gz+", good)))
}

// TestExportReplacesWhole: an export is written beside its folder and put
// in its place once complete, so the stale partitions of an earlier
// export never mix with a new one; a folder that is not an export is
// never written into, nor is the current folder for an empty --out.
func TestExportReplacesWhole(t *testing.T) {
	dir := t.TempDir()
	inputsStore(t, dir)
	mustSucceed(t, presage(t, dir, "predict", "--trace", "jac", "--machine", "Predictor", "--grid", "2x2"))
	out := filepath.Join(dir, "export")
	mustSucceed(t, presage(t, dir, "export", "csv", "--out", out+"/")) // as the README writes it
	stale := filepath.Join(out, "values", "sweep_id=99")
	if err := os.MkdirAll(stale, 0o755); err != nil {
		t.Fatal(err)
	}
	mustSucceed(t, presage(t, dir, "export", "csv", "--out", out))
	if _, err := os.Stat(stale); err == nil {
		t.Errorf("the stale partition %s survived a new export", stale)
	}
	if _, err := os.Stat(filepath.Join(out, exportManifest)); err != nil {
		t.Errorf("no manifest in the export: %v", err)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".export.tmp-") {
			t.Errorf("temporary folder %s left behind", e.Name())
		}
	}

	foreign := filepath.Join(dir, "mine")
	if err := os.MkdirAll(foreign, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(foreign, "notes.txt"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := presage(t, dir, "export", "parquet", "--out", foreign)
	if r.code == 0 || !strings.Contains(r.stderr, "is not a Presage export") {
		t.Errorf("export into a folder of other files: exit %d, %q", r.code, r.stderr)
	}
	if entries, _ := os.ReadDir(foreign); len(entries) != 1 {
		t.Errorf("the refused export wrote into %s: %d entries", foreign, len(entries))
	}
	r = presage(t, dir, "export", "csv", "--out", "")
	if r.code != 2 || !strings.Contains(r.stderr, `--out "": expected a folder name`) {
		t.Errorf(`export --out "": exit %d, %q`, r.code, r.stderr)
	}
}

// TestReadOnlyStore: a store the user may not write — a 0444 file, or a
// file in a read-only folder — can still be listed, reported, exported,
// compared and queried; a command that writes says it cannot, and the
// store stays as it was. As root, the commands run as nobody.
func TestReadOnlyStore(t *testing.T) {
	t.Parallel() // its own folder and store; no timing
	for _, readOnlyFolder := range []bool{false, true} {
		dir := t.TempDir()
		inputsStore(t, dir)
		mustSucceed(t, presage(t, dir, "predict", "--trace", "jac", "--machine", "Predictor", "--grid", "2x2"))
		mustSucceed(t, presage(t, dir, "ingest", "sts", golden.Path(t, "sts", "jac_e4.2x2.sts.gz+")))
		before := storeCounts(t, dir)
		out := t.TempDir()
		for _, d := range []string{filepath.Dir(binary), filepath.Dir(dir), dir, filepath.Dir(out), out} {
			if err := os.Chmod(d, 0o777); err != nil {
				t.Fatal(err)
			}
		}
		db := filepath.Join(dir, "presage.db")
		if err := os.Chmod(db, 0o444); err != nil {
			t.Fatal(err)
		}
		if readOnlyFolder {
			if err := os.Chmod(dir, 0o555); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.Chmod(dir, 0o755) })
		}
		for _, args := range [][]string{
			{"list", "runs"}, {"list", "traces"},
			{"report", "text", "--run", "2"}, {"report", "json", "--run", "1"},
			{"report", "html", "--run", "1", "--out", filepath.Join(out, "r.html")},
			{"export", "csv", "--out", filepath.Join(out, "csv")},
			{"compare", "--measured", "2", "--predicted", "1"},
			{"query", "SELECT count(*) FROM runs"},
		} {
			if r := presageAsUser(t, db, args...); r.code != 0 {
				t.Errorf("read-only folder %v: presage %v: exit %d, %q", readOnlyFolder, args, r.code, r.stderr)
			}
		}
		r := presageAsUser(t, db, "predict", "--trace", "jac", "--machine", "Predictor", "--grid", "4")
		if r.code == 0 || !strings.Contains(r.stderr, "it cannot be written") {
			t.Errorf("read-only folder %v: predict into a read-only store: exit %d, %q", readOnlyFolder, r.code, r.stderr)
		}
		os.Chmod(dir, 0o755)
		os.Chmod(db, 0o644)
		if after := storeCounts(t, dir); after != before {
			t.Errorf("read-only folder %v: the store changed:\n before %s\n after  %s", readOnlyFolder, before, after)
		}
	}
}

// presageAsUser runs the binary on the store db as a user who may not
// write what root owns: nobody when the tests run as root.
func presageAsUser(t *testing.T, db string, args ...string) cliResult {
	t.Helper()
	cmd := exec.Command(binary, append([]string{"--db", db}, args...)...)
	cmd.Dir = os.TempDir()
	if os.Geteuid() == 0 {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	}
	return runCommand(t, cmd)
}

// TestSameBaseNames: traces of one base name from different folders are
// both stored; the ingest warns, the name is refused as ambiguous with
// both ids, and each id finds its own trace.
func TestSameBaseNames(t *testing.T) {
	dir := t.TempDir()
	for _, sub := range []string{"a", "b"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	copyFile := func(src, dst string) {
		b, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, dst), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	copyFile(golden.Path(t, "traces", "jac.ptr"), "a/prog.ptr")
	copyFile(golden.Path(t, "traces", "jac1d.ptr"), "b/prog.ptr")
	mustSucceed(t, presage(t, dir, "ingest", "machine", golden.Path(t, "machines", "Predictor.par")))
	mustSucceed(t, presage(t, dir, "ingest", "trace", "a/prog.ptr"))
	r := mustSucceed(t, presage(t, dir, "ingest", "trace", "b/prog.ptr"))
	if !strings.Contains(r.stderr, `warning: trace "prog" is also the name of id [1]: refer to each by its id (--trace 2)`) {
		t.Errorf("second ingest said %q", r.stderr)
	}
	before := storeCounts(t, dir)
	r = presage(t, dir, "predict", "--trace", "prog", "--machine", "Predictor", "--grid", "2")
	if r.code == 0 || !strings.Contains(r.stderr, `2 traces are named "prog": ids 1 (`) ||
		!strings.Contains(r.stderr, `a/prog.ptr), 2 (`) || !strings.Contains(r.stderr, `b/prog.ptr); give the id instead`) {
		t.Errorf("predict --trace prog: exit %d, %q", r.code, r.stderr)
	}
	if after := storeCounts(t, dir); after != before {
		t.Errorf("the refused predict changed the store:\n before %s\n after  %s", before, after)
	}
	r = mustSucceed(t, presage(t, dir, "predict", "--trace", "2", "--machine", "Predictor", "--grid", "2"))
	if !strings.Contains(r.stdout, "prog on Predictor, grid 2") {
		t.Errorf("predict --trace 2 printed %q", r.stdout)
	}
}

// TestStorePathsTakenLiterally: --db names a file, whatever characters
// its name holds: '#', '?' and '%xx' are not URI syntax.
func TestStorePathsTakenLiterally(t *testing.T) {
	dir := t.TempDir()
	names := []string{"run#1.db", "run#2.db", "p%41q.db", "what?.db"}
	for _, name := range names {
		cmd := exec.Command(binary, "--db", name, "--quiet", "ingest", "machine", golden.Path(t, "machines", "Predictor.par"))
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("--db %s: %v\n%s", name, err, out)
		}
	}
	for _, name := range append(names, "run", "pAq.db", "what") {
		_, err := os.Stat(filepath.Join(dir, name))
		if exists := err == nil; exists != slices.Contains(names, name) {
			t.Errorf("%s exists: %v", name, exists)
		}
	}
}

// TestNotOfTheKindRefusedAtOnce: a file of zeros given as a trace, an
// order trace or a measured run is refused by its first bytes, naming it.
func TestNotOfTheKindRefusedAtOnce(t *testing.T) {
	dir := t.TempDir()
	zeros := filepath.Join(dir, "zeros.bin")
	if err := os.WriteFile(zeros, make([]byte, 8<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		kind, want string
	}{
		{"trace", "not a trace: NUL byte at offset 0"},
		{"sts", "not a statistics file"},
		{"orders", "expected JSON Lines"},
		{"orders-run", "expected JSON Lines"},
	} {
		r := presage(t, dir, "ingest", tc.kind, zeros)
		if r.code == 0 || !strings.Contains(r.stderr, zeros) || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("ingest %s of zeros: exit %d, %q; want %q", tc.kind, r.code, r.stderr, tc.want)
		}
	}
}
