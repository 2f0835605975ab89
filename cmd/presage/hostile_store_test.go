package main

// Issue 41, part B: the store is opened only if it is one, read-only
// commands read the write-ahead log and leave nothing behind, a failed
// sweep leaves no empty sweep row, merge says what a source lacks, and an
// orders sweep stopped midway resumes. Every case checks the store's
// integrity and run count after it.

import (
	"bytes"
	"context"
	"database/sql"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/presage-dvm/presage/ingest/tracegen"
	"github.com/presage-dvm/presage/internal/golden"
	"github.com/presage-dvm/presage/schema/store"
)

// soundStore fails unless the store at db passes SQLite's integrity and
// foreign key checks and holds want runs (want < 0: any number); it
// returns the number of runs.
func soundStore(t *testing.T, db string, want int) int {
	t.Helper()
	st, err := store.OpenReadOnly(db)
	if err != nil {
		t.Fatalf("open %s: %v", db, err)
	}
	defer st.Close()
	if err := st.Integrity(context.Background()); err != nil {
		t.Error(err)
	}
	n, err := st.CountRows("runs")
	if err != nil {
		t.Fatal(err)
	}
	if want >= 0 && n != want {
		t.Errorf("%s holds %d runs, want %d", filepath.Base(db), n, want)
	}
	return n
}

// lastLine is the last line of a command's standard error, and whether
// the error took one line: the lines before it are the sweeps' "failed:"
// reports, each one line too.
func lastLine(stderr string) (string, bool) {
	lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
	last := lines[len(lines)-1]
	return last, strings.HasPrefix(last, "presage: ")
}

// execSQL runs the statements of testdata/name on the SQLite database
// at path, creating it if needed.
func execSQL(t *testing.T, path, name string) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(testSQL(t, name)); err != nil {
		t.Fatalf("%s on %s: %v", name, path, err)
	}
}

// folderState is the names and contents of the entries of dir: what a
// refused command must leave as it was.
func folderState(t *testing.T, dir string) string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, e := range entries {
		b.WriteString(e.Name())
		if !e.IsDir() {
			content, err := os.ReadFile(filepath.Join(dir, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			b.WriteString("=" + strconv.Quote(string(content)))
		}
		b.WriteString("\n")
	}
	return b.String()
}

// TestNotAStoreRefused: a --db that is not a Presage store — another
// program's SQLite database, an empty file, a directory, a text file, an
// empty SQLite database — is refused by the commands that create a
// store, that write one and that read one, with one line naming --db and
// what the file is; the file's bytes and its folder stay as they were.
func TestNotAStoreRefused(t *testing.T) {
	kinds := []struct {
		name string
		make func(t *testing.T, db string)
		want string // after "--db PATH is "
	}{
		{"foreign SQLite database", func(t *testing.T, db string) { execSQL(t, db, "foreign_db.sql") },
			"a SQLite database with the tables accounts and no Presage schema_version: not a Presage store"},
		{"0-byte file", func(t *testing.T, db string) { writeFile(t, db, "") },
			"an empty file, not a Presage store (presage makes a new store only where no file is)"},
		{"directory", func(t *testing.T, db string) {
			if err := os.Mkdir(db, 0o755); err != nil {
				t.Fatal(err)
			}
		}, "a directory, expected a store file"},
		{"text file", func(t *testing.T, db string) { writeFile(t, db, "notes\n") },
			`not a SQLite database (it begins "notes\n"), not a Presage store`},
	}
	machine := golden.Path(t, "machines", "Predictor.par")
	commands := [][]string{
		{"ingest", "machine", machine},                                        // creates a store where none is
		{"sweep", "--trace", "jac", "--machine", "Predictor", "--grids", "2"}, // writes an existing store
		{"list", "runs"},                  // reads
		{"export", "csv", "--out", "OUT"}, // reads one snapshot
	}
	for _, k := range kinds {
		for _, args := range commands {
			dir := t.TempDir()
			db := filepath.Join(dir, "presage.db")
			k.make(t, db)
			before := folderState(t, dir)
			out := filepath.Join(t.TempDir(), "csv")
			args := append([]string(nil), args...)
			for i, a := range args {
				if a == "OUT" {
					args[i] = out
				}
			}
			r := presage(t, dir, args...)
			want := "presage: --db " + db + " is " + k.want + "\n"
			if r.code != 1 || r.stderr != want {
				t.Errorf("%s, presage %v: exit %d, stderr %q; want exit 1 and %q", k.name, args[0], r.code, r.stderr, want)
			}
			if after := folderState(t, dir); after != before {
				t.Errorf("%s, presage %v: the folder changed:\nbefore %s\nafter  %s", k.name, args[0], before, after)
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("%s, presage %v: wrote %s", k.name, args[0], out)
			}
		}
	}
}

// writeFile writes content to path.
func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestReadingLeavesNoLog: the reading commands, run by a user who may
// not write the store (a 0444 file in a folder anyone may write), leave
// no -wal or -shm beside it; with a writer at work, its runs still in
// the write-ahead log only, they see every committed run.
func TestReadingLeavesNoLog(t *testing.T) {
	dir := t.TempDir()
	inputsStore(t, dir)
	mustSucceed(t, presage(t, dir, "predict", "--trace", "jac", "--machine", "Predictor", "--grid", "2x2"))
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
	t.Cleanup(func() { os.Chmod(db, 0o644) })
	for _, args := range [][]string{
		{"list", "runs"}, {"report", "json", "--run", "1"},
		{"export", "csv", "--out", filepath.Join(out, "csv")},
		{"query", testSQL(t, "count_runs.sql")},
	} {
		if r := presageAsUser(t, db, args...); r.code != 0 {
			t.Errorf("presage %v on a 0444 store: exit %d, %q", args, r.code, r.stderr)
		}
		closedCleanly(t, dir)
	}
	soundStore(t, db, 1)

	// A writer holds the store open; a second prediction's rows are in
	// its log, not yet in the file.
	os.Chmod(db, 0o644)
	writer, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer writer.Close()
	if err := writer.Checkpoint(context.Background()); err != nil {
		t.Fatal(err)
	}
	mustSucceed(t, presage(t, dir, "predict", "--trace", "jac", "--machine", "Predictor", "--grid", "4"))
	if wal, err := os.Stat(db + "-wal"); err != nil || wal.Size() == 0 {
		t.Fatalf("the second prediction is not in the write-ahead log (%v): the case proves nothing", err)
	}
	os.Chmod(db, 0o444)
	r := presageAsUser(t, db, "query", testSQL(t, "count_runs.sql"))
	if r.code != 0 || !regexp.MustCompile(`(?m)^\s*2\s*$`).MatchString(r.stdout) {
		t.Errorf("a reader with a writer at work: exit %d, %q %q; want the 2 committed runs", r.code, r.stdout, r.stderr)
	}
}

// gaussDir makes a folder whose store holds "gs", a generated Gauss
// elimination of 64 equations, and the Predictor machine: on 1020 and
// more processors its simulator state needs more than 1 MB.
func gaussDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	trace := filepath.Join(dir, "gs.ptr")
	if _, err := tracegen.WriteFile(trace, tracegen.Options{Program: tracegen.Gauss, N: 64, Intervals: true}); err != nil {
		t.Fatal(err)
	}
	mustSucceed(t, presage(t, dir, "ingest", "trace", trace))
	mustSucceed(t, presage(t, dir, "ingest", "machine", golden.Path(t, "machines", "Predictor.par")))
	return dir
}

// TestFailedSweepLeavesNoSweepRow: a sweep, a search and a plan whose
// every configuration fails (over --max-memory 1) exit 1 with a
// one-line error and leave no sweep row and no run.
func TestFailedSweepLeavesNoSweepRow(t *testing.T) {
	dir := gaussDir(t)
	db := filepath.Join(dir, "presage.db")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"sweep", "--trace", "gs", "--machine", "Predictor", "--grids", "1024"},
			"presage: sweep: all 1 configurations failed, over a limit of the simulator: nothing stored (--max-memory raises the limit)"},
		{[]string{"search", "--trace", "gs", "--machine", "Predictor", "--procs", "1020..1024"},
			"presage: search: all 5 configurations failed, over a limit of the simulator, nothing stored: "},
		{[]string{"plan", "--trace", "gs", "--machine", "Predictor", "--procs", "1022..1024"},
			"presage: search: all 3 configurations failed, over a limit of the simulator, nothing stored: "},
	} {
		r := presage(t, dir, append([]string{"--max-memory", "1"}, c.args...)...)
		last, one := lastLine(r.stderr)
		if r.code != 1 || !one || !strings.HasPrefix(last, c.want) {
			t.Errorf("presage %v: exit %d, last line %q; want exit 1 and %q", c.args[0], r.code, last, c.want)
		}
		st, err := store.OpenReadOnly(db)
		if err != nil {
			t.Fatal(err)
		}
		if n, err := st.CountRows("sweeps"); err != nil || n != 0 {
			t.Errorf("presage %v: %d sweep rows left (%v), want none", c.args[0], n, err)
		}
		st.Close()
		soundStore(t, db, 0)
	}
}

// TestMergeRefusesWhatIsNotAStore: merging a store of the right version
// that lacks a table (interval_stats dropped), another program's SQLite
// database or a text file, or into a directory, is refused with one line
// saying what is wrong, not an SQL error; the destination gets nothing.
func TestMergeRefusesWhatIsNotAStore(t *testing.T) {
	src := t.TempDir()
	inputsStore(t, src)
	mustSucceed(t, presage(t, src, "predict", "--trace", "jac", "--machine", "Predictor", "--grid", "2x2"))
	broken := filepath.Join(src, "presage.db")
	execSQL(t, broken, "drop_interval_stats.sql")
	foreign := filepath.Join(src, "foreign.db")
	execSQL(t, foreign, "foreign_db.sql")
	text := filepath.Join(src, "notes.txt")
	writeFile(t, text, "notes\n")
	folder := t.TempDir()
	for _, c := range []struct {
		name, source, into, want string
	}{
		{"store without interval_stats", broken, "", "presage: merge: " + broken + " lacks the table interval_stats of schema version "},
		{"foreign database", foreign, "", "presage: merge: " + foreign + " is a SQLite database with the tables accounts and no Presage schema_version: not a Presage store"},
		{"text file", text, "", "presage: merge: " + text + ` is not a SQLite database (it begins "notes\n"), not a Presage store`},
		{"into a directory", foreign, folder, "presage: --into " + folder + " is a directory, expected a store file"},
	} {
		dst := t.TempDir()
		into := c.into
		if into == "" {
			into = filepath.Join(dst, "presage.db")
		}
		r := presage(t, dst, "merge", "--into", into, c.source)
		if r.code != 1 || !strings.HasPrefix(r.stderr, c.want) || strings.Count(r.stderr, "\n") != 1 {
			t.Errorf("merge of a %s: exit %d, %q; want exit 1 and one line %q...", c.name, r.code, r.stderr, c.want)
		}
		if c.into == "" {
			soundStore(t, into, 0)
		}
	}
}

// TestOrdersSweepStoppedResumes: an orders sweep stopped by SIGINT, then
// one killed, midway have stored the clusters they finished, each at its
// position; running the command again simulates only the others, and
// the sweep ends with each node count stored once.
func TestOrdersSweepStoppedResumes(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "presage.db")
	trace := filepath.Join(dir, "tasks.jsonl")
	mustSucceed(t, presage(t, dir, "gen", "orders", "--shape", "master", "--orders", "200000", trace))
	mustSucceed(t, presage(t, dir, "ingest", "orders", trace))
	const sizes = 48
	args := []string{"--db", db, "--quiet", "orders", "sweep", "--orders", "tasks", "--nodes", "1.." + strconv.Itoa(sizes), "--workers", "1"}
	stored := 0
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGKILL} {
		cmd := exec.Command(binary, args...)
		cmd.Dir = dir
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(time.Minute)
		for countRuns(t, dir) < stored+3 && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		if err := cmd.Process.Signal(sig); err != nil {
			t.Fatal(err)
		}
		cmd.Wait()
		if sig == syscall.SIGINT && cmd.ProcessState.ExitCode() != 130 {
			t.Errorf("orders sweep stopped by SIGINT: exit %d, %q", cmd.ProcessState.ExitCode(), stderr.String())
		}
		n := soundStore(t, db, -1)
		if n < stored+3 || n >= sizes {
			t.Fatalf("after %s: %d clusters stored, want more than %d and fewer than %d: the case proves nothing", sig, n, stored+2, sizes)
		}
		stored = n
	}
	r := mustSucceed(t, runCommand(t, exec.Command(binary, args...)))
	if want := "(" + strconv.Itoa(stored) + " already stored, " + strconv.Itoa(sizes-stored) + " run)"; !strings.Contains(r.stdout, want) {
		t.Errorf("the resumed sweep printed %q, want %q", firstLine(r.stdout), want)
	}
	soundStore(t, db, sizes)
	st, err := store.OpenReadOnly(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	sweeps, err := st.Sweeps(context.Background())
	if err != nil || len(sweeps) != 1 {
		t.Fatalf("sweeps: %+v (%v), want one", sweeps, err)
	}
	runs, err := st.OrderSweepRuns(context.Background(), sweeps[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int]int{}
	for _, r := range runs {
		seen[r.Nodes]++
		if r.Index != r.Nodes-1 {
			t.Errorf("%d nodes stored at position %d, want %d", r.Nodes, r.Index, r.Nodes-1)
		}
	}
	for n := 1; n <= sizes; n++ {
		if seen[n] != 1 {
			t.Errorf("%d nodes stored %d times, want once", n, seen[n])
		}
	}
}

// firstLine is the first line of s.
func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// TestExportDuringSweepIsOneSnapshot: exports taken while a sweep stores
// runs are each one snapshot of the store: the runs, intervals, values
// and wide tables hold the same runs, none of them half present.
func TestExportDuringSweepIsOneSnapshot(t *testing.T) {
	dir := sweepDir(t)
	db := filepath.Join(dir, "presage.db")
	cmd := exec.Command(binary, append([]string{"--db", db, "--quiet"}, sweepArgs...)...)
	cmd.Dir = dir
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		cmd.Process.Signal(syscall.SIGINT)
		cmd.Wait()
		soundStore(t, db, -1)
	}()
	deadline := time.Now().Add(time.Minute)
	for countRuns(t, dir) < 2 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	out := filepath.Join(t.TempDir(), "csv")
	for range 3 {
		mustSucceed(t, presage(t, dir, "export", "csv", "--out", out))
		runs := exportedRunIDs(t, out, "runs")
		if len(runs) < 2 {
			t.Fatalf("the export holds %d runs, want at least the 2 stored before it", len(runs))
		}
		for _, table := range []string{"intervals", "values", "intervals_wide"} {
			if got := exportedRunIDs(t, out, table); !equalSets(got, runs) {
				t.Errorf("the export's %s table has the runs %v, its runs table %v", table, keys(got), keys(runs))
			}
		}
	}
}

// exportedRunIDs are the run ids of the first column of every partition
// of table in the CSV export at dir.
func exportedRunIDs(t *testing.T, dir, table string) map[string]bool {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, table, "sweep_id=*", "part-0.csv"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no partition of %s in %s (%v)", table, dir, err)
	}
	ids := map[string]bool{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
		if !strings.HasPrefix(lines[0], "run_id,") {
			t.Fatalf("%s: header %q, want run_id first", f, lines[0])
		}
		for _, l := range lines[1:] {
			id, _, _ := strings.Cut(l, ",")
			ids[id] = true
		}
	}
	return ids
}

func equalSets(a, b map[string]bool) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if !b[k] {
			return false
		}
	}
	return true
}

// keys are the members of a set, for a message.
func keys(set map[string]bool) []string {
	var out []string
	for k := range set {
		out = append(out, k)
	}
	return out
}
