package main

import (
	"bytes"
	"crypto/sha256"
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/presage-dvm/presage/internal/golden"
	"github.com/presage-dvm/presage/internal/outfile"
)

// Outputs never overwrite what is not theirs (issue 41, part A): every
// command that writes a file, met through the binary.

// outStore makes a folder with a store holding jac_e4's trace, the
// Predictor machine, its measured runs on 1, 1x2 and 2x2 processes (runs
// 1 to 3), a prediction on 2x2 (run 4) and an orders simulation (run 5),
// and host.par, a machine file to give as --host-file.
func outStore(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	mustSucceed(t, presage(t, dir, "ingest", "trace", golden.Path(t, "traces", "jac_e4.ptr")))
	mustSucceed(t, presage(t, dir, "ingest", "machine", golden.Path(t, "machines", "Predictor.par")))
	for _, g := range []string{"1", "1x2", "2x2"} {
		mustSucceed(t, presage(t, dir, "ingest", "sts", golden.Path(t, "sts", "jac_e4."+g+".sts.gz+")))
	}
	mustSucceed(t, presage(t, dir, "predict", "--trace", "jac_e4", "--machine", "Predictor", "--grid", "2x2"))
	mustSucceed(t, presage(t, dir, "gen", "orders", "orders.jsonl", "--orders", "100"))
	mustSucceed(t, presage(t, dir, "ingest", "orders", "orders.jsonl"))
	mustSucceed(t, presage(t, dir, "orders", "simulate", "--orders", "orders", "--nodes", "2"))
	host, err := os.ReadFile(golden.Path(t, "machines", "Predictor.par"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "host.par"), host, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// outStoreState is what must not change when an output is refused: what
// the store in dir holds and the file's bytes. It checkpoints the
// write-ahead log into the file first, through a bare connection (a
// store.Open would refresh the views, which changes the bytes): an
// immutable reader would miss what the last writer left in the log and
// see it appear at the next checkpoint.
func outStoreState(t *testing.T, dir string) string {
	t.Helper()
	path := filepath.Join(dir, "presage.db")
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec("PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
		t.Fatal(err)
	}
	var counts []string
	for _, table := range []string{"traces", "machines", "runs", "intervals", "interval_values"} {
		var n int
		if err := db.QueryRow("SELECT count(*) FROM " + table).Scan(&n); err != nil {
			t.Fatal(err)
		}
		counts = append(counts, fmt.Sprintf("%s=%d", table, n))
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("sha256 %x %s", sha256.Sum256(b), strings.Join(counts, " "))
}

// outTemporaries lists the Presage outTemporaries left in dir.
func outTemporaries(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var left []string
	for _, e := range entries {
		if strings.Contains(e.Name(), ".presage-tmp.") {
			left = append(left, e.Name())
		}
	}
	return left
}

// outputCommand is a command writing one file: args with the file's path.
type outputCommand struct {
	name  string
	ext   string // of the file's name
	args  func(out string) []string
	kind  outfile.Kind
	input string // a flag of the command naming an input (host.par), "" if none
}

// outputCommands are the commands that write files, each told how.
var outputCommands = []outputCommand{
	{"report html", ".html", func(o string) []string { return []string{"report", "html", "--run", "4", "--out", o} }, kindHTML, ""},
	{"report json", ".json", func(o string) []string { return []string{"report", "json", "--run", "4", "--out", o} }, kindRunJSON, ""},
	{"report text", ".txt", func(o string) []string { return []string{"report", "text", "--run", "3", "--out", o} }, kindAnalyzerText, ""},
	{"report text json", ".json", func(o string) []string {
		return []string{"report", "text", "--run", "3", "--format", "json", "--out", o}
	}, kindAnalyzerJSON, ""},
	{"compare text", ".txt", func(o string) []string {
		return []string{"compare", "--measured", "3", "--predicted", "4", "--host-file", "host.par", "--out", o}
	}, kindCompareText, "--host-file"},
	{"compare json", ".json", func(o string) []string {
		return []string{"compare", "--measured", "3", "--predicted", "4", "--format", "json", "--out", o}
	}, kindCompareJSON, ""},
	{"compare html", ".html", func(o string) []string {
		return []string{"compare", "--measured", "3", "--predicted", "4", "--format", "html", "--out", o}
	}, kindHTML, ""},
	{"export timeline perfetto", ".json", func(o string) []string {
		return []string{"export", "timeline", "--run", "4", "--format", "perfetto", "--out", o}
	}, kindPerfetto, ""},
	{"export timeline paraver", ".prv", func(o string) []string {
		return []string{"export", "timeline", "--run", "4", "--format", "paraver", "--out", o}
	}, kindParaver(".prv"), ""},
	{"fit machine file", ".par", func(o string) []string {
		return []string{"fit", "--trace", "jac_e4", "--holdout", "2x2", "--host-file", "host.par", "--out", o}
	}, outfile.Kind{Name: "fitted", Is: func(_ string, head []byte) bool {
		return bytes.HasPrefix(head, []byte("// Machine fitted by presage fit"))
	}}, "--host-file"},
	{"fit report", ".html", func(o string) []string {
		return []string{"fit", "--trace", "jac_e4", "--holdout", "2x2", "--cores-per-node", "2", "--out", "fitted.par", "--report", o}
	}, kindHTML, ""},
	{"fit report json", ".json", func(o string) []string {
		return []string{"fit", "--trace", "jac_e4", "--holdout", "2x2", "--cores-per-node", "2", "--out", "fitted.par", "--report", o}
	}, kindFitJSON, ""},
	{"fit report text", ".txt", func(o string) []string {
		return []string{"fit", "--trace", "jac_e4", "--holdout", "2x2", "--cores-per-node", "2", "--out", "fitted.par", "--report", o}
	}, kindFitText, ""},
	{"gen trace", ".ptr", func(o string) []string { return []string{"gen", "trace", o, "--calls", "1000"} }, kindTrace, ""},
	{"gen trace gz", ".ptr.gz", func(o string) []string { return []string{"gen", "trace", o, "--calls", "1000"} }, kindTrace, ""},
	{"gen orders", ".jsonl.gz", func(o string) []string { return []string{"gen", "orders", o, "--orders", "100"} }, kindOrderTrace, ""},
	{"orders report", ".html", func(o string) []string { return []string{"orders", "report", "--run", "5", "--out", o} }, kindHTML, ""},
}

// TestOutputsNeverOverwrite: for every command that writes a file, an
// existing file of the user's is refused (exit 1, one line naming it and
// --force) and left as it was; an earlier output of the command is
// replaced; --force replaces the user's file; the store (--db) and an
// input (--host-file) are refused as outputs, --force or not, the store
// unchanged and sound. No temporary is left behind by any of them.
func TestOutputsNeverOverwrite(t *testing.T) {
	t.Parallel() // its own folder and store; no timing
	dir := outStore(t)
	db := filepath.Join(dir, "presage.db")
	mine := []byte("my notes: not Presage's\n")
	for i, c := range outputCommands {
		t.Run(c.name, func(t *testing.T) {
			path := func(what string) string { return filepath.Join(dir, fmt.Sprintf("%s-%d%s", what, i, c.ext)) }

			foreign := path("foreign")
			outWriteFile(t, foreign, mine)
			r := presage(t, dir, c.args(foreign)...)
			if r.code != 1 || !strings.Contains(r.stderr, foreign+": the file exists and is not ") ||
				!strings.Contains(r.stderr, "--force to replace it") || strings.Count(r.stderr, "\n") != 1 {
				t.Errorf("over a file of the user's: exit %d, %q", r.code, r.stderr)
			}
			if b, _ := os.ReadFile(foreign); !bytes.Equal(b, mine) {
				t.Errorf("the refused command changed the user's file: %q", b)
			}

			earlier := path("earlier")
			mustSucceed(t, presage(t, dir, c.args(earlier)...))
			stale := append(outReadFile(t, earlier), "\nSTALE"...) // still the kind's head, other bytes
			outWriteFile(t, earlier, stale)
			mustSucceed(t, presage(t, dir, c.args(earlier)...))
			if b := outReadFile(t, earlier); bytes.Equal(b, stale) || !c.kind.Is(earlier, outHead(b)) {
				t.Errorf("the earlier output was not replaced by a new one (%d bytes)", len(b))
			}

			forced := path("forced")
			outWriteFile(t, forced, mine)
			mustSucceed(t, presage(t, dir, append(c.args(forced), "--force")...))
			if b := outReadFile(t, forced); !c.kind.Is(forced, outHead(b)) {
				t.Errorf("--force did not replace the user's file: %.60q", b)
			}

			before := outStoreState(t, dir)
			for _, args := range [][]string{c.args(db), append(c.args(db), "--force")} {
				r = presage(t, dir, args...)
				if r.code != 1 || !strings.Contains(r.stderr, db+" is the store (--db "+db+")") {
					t.Errorf("presage %v: exit %d, %q", args, r.code, r.stderr)
				}
			}
			if after := outStoreState(t, dir); after != before {
				t.Errorf("--out naming the store changed it:\n before %s\n after  %s", before, after)
			}
			soundStore(t, filepath.Join(dir, "presage.db"), -1)

			if c.input != "" {
				input := filepath.Join(dir, "host.par")
				was := outReadFile(t, input)
				r = presage(t, dir, append(c.args(input), "--force")...)
				if r.code != 1 || !strings.Contains(r.stderr, "is an input of the command ("+c.input+" ") {
					t.Errorf("--out naming %s: exit %d, %q", c.input, r.code, r.stderr)
				}
				if !bytes.Equal(outReadFile(t, input), was) {
					t.Errorf("the input %s was changed", c.input)
				}
			}
			if left := outTemporaries(t, dir); len(left) > 0 {
				t.Errorf("outTemporaries left behind: %v", left)
			}
		})
	}
}

// TestOutputBars: the bars of the outputs' kind: a default name of the
// user's (fit's TRACE-fit.par) refused before the fit; a folder given as
// an output file; a timeline's .pcf of the user's beside a new .prv;
// the fit's report naming its machine file; gen's sizes out of bounds
// (--calls 0 among them) refused with the limit named.
func TestOutputBars(t *testing.T) {
	dir := outStore(t)
	mine := []byte("mine\n")
	outWriteFile(t, filepath.Join(dir, "jac_e4-fit.par"), mine)
	outWriteFile(t, filepath.Join(dir, "t.pcf"), mine)
	if err := os.Mkdir(filepath.Join(dir, "folder.html"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"fit's default name", []string{"fit", "--trace", "jac_e4", "--cores-per-node", "2"},
			"jac_e4-fit.par: the file exists and is not a fitted machine file written by Presage"},
		{"a folder", []string{"report", "html", "--run", "4", "--out", "folder.html"}, "folder.html is a folder: expected a file name"},
		{"a .pcf of the user's", []string{"export", "timeline", "--run", "4", "--format", "paraver", "--out", "t.prv"},
			"t.pcf: the file exists and is not a Paraver timeline written by Presage"},
		{"report over machine file", []string{"fit", "--trace", "jac_e4", "--cores-per-node", "2", "--out", "f.par", "--report", "f.par"},
			"is the fitted machine file (--out "},
		{"--calls 0", []string{"gen", "trace", "zero.ptr", "--calls", "0"}, "--calls 0: expected 1 to 100000000, the most calls a generated trace holds"},
		{"--calls past the bound", []string{"gen", "trace", "big.ptr", "--calls", "100000001"}, "--calls 100000001: expected 1 to 100000000"},
		{"--iterations past the bound", []string{"gen", "trace", "big.ptr", "--iterations", "2000000000"}, "more than 100000000 calls"},
		{"--orders past the bound", []string{"gen", "orders", "big.jsonl", "--orders", "1000000000"},
			"--orders 1000000000: expected 1 to 100000000, the most orders a generated trace holds"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := outStoreState(t, dir)
			r := presage(t, dir, tc.args...)
			if r.code != 1 || !strings.Contains(r.stderr, tc.want) || strings.Count(r.stderr, "\n") != 1 {
				t.Errorf("exit %d, %q; want %q", r.code, r.stderr, tc.want)
			}
			if after := outStoreState(t, dir); after != before {
				t.Errorf("the store changed:\n before %s\n after  %s", before, after)
			}
		})
	}
	for _, name := range []string{"jac_e4-fit.par", "t.pcf"} {
		if b := outReadFile(t, filepath.Join(dir, name)); !bytes.Equal(b, mine) {
			t.Errorf("%s was changed: %q", name, b)
		}
	}
	for _, name := range []string{"t.prv", "t.row", "f.par", "zero.ptr", "big.ptr", "big.jsonl"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			t.Errorf("a refused command wrote %s", name)
		}
	}
	soundStore(t, filepath.Join(dir, "presage.db"), -1)
	// gen --calls means what it says.
	r := mustSucceed(t, presage(t, dir, "gen", "trace", "one.ptr", "--calls", "1"))
	if !strings.Contains(r.stderr, "one.ptr: 42 calls") { // the fewest: one iteration
		t.Errorf("gen trace --calls 1 said %q", r.stderr)
	}
}

// TestExportFolderOutputs: an export's folder is refused when it is the
// store or a file; an export of another format is kept unless --force;
// a temporary folder left by a killed export is removed by the next.
func TestExportFolderOutputs(t *testing.T) {
	t.Parallel() // its own folder and store; no timing
	dir := outStore(t)
	db := filepath.Join(dir, "presage.db")
	outWriteFile(t, filepath.Join(dir, "notes.txt"), []byte("mine\n"))
	before := outStoreState(t, dir)
	for _, tc := range []struct {
		out, want string
	}{
		{db, db + " is the store (--db " + db + ")"},
		{"notes.txt", "notes.txt is a file: expected a folder"},
	} {
		for _, force := range []bool{false, true} {
			args := []string{"export", "csv", "--out", tc.out}
			if force {
				args = append(args, "--force")
			}
			if r := presage(t, dir, args...); r.code != 1 || !strings.Contains(r.stderr, tc.want) {
				t.Errorf("presage %v: exit %d, %q; want %q", args, r.code, r.stderr, tc.want)
			}
		}
	}
	if after := outStoreState(t, dir); after != before {
		t.Errorf("the refused exports changed the store:\n before %s\n after  %s", before, after)
	}
	if b := outReadFile(t, filepath.Join(dir, "notes.txt")); string(b) != "mine\n" {
		t.Errorf("notes.txt was changed: %q", b)
	}
	soundStore(t, filepath.Join(dir, "presage.db"), -1)

	mustSucceed(t, presage(t, dir, "export", "csv", "--out", "results"))
	if r := presage(t, dir, "export", "parquet", "--out", "results"); r.code != 1 || !strings.Contains(r.stderr, "or --force to replace it") {
		t.Errorf("parquet over csv: exit %d, %q", r.code, r.stderr)
	}
	dead := outDeadPID(t)
	stale := filepath.Join(dir, fmt.Sprintf(".results%s%d.%s.123", ".presage-tmp.", dead, outHostName(t)))
	if err := os.MkdirAll(filepath.Join(stale, "runs"), 0o755); err != nil {
		t.Fatal(err)
	}
	mustSucceed(t, presage(t, dir, "export", "parquet", "--out", "results", "--force"))
	if m := outReadFile(t, filepath.Join(dir, "results", exportManifest)); !bytes.Contains(m, []byte(`"format": "parquet"`)) {
		t.Errorf("--force did not replace the CSV export: %s", m)
	}
	if left := outTemporaries(t, dir); len(left) > 0 {
		t.Errorf("outTemporaries left behind: %v", left)
	}
}

// TestStaleTemporariesRemoved: the outTemporaries of dead processes of this
// host in the folder a command writes to are removed; those of a live
// process, of another host, and files that only look alike are kept.
func TestStaleTemporariesRemoved(t *testing.T) {
	dir := outStore(t)
	host, dead := outHostName(t), outDeadPID(t)
	name := func(base string, pid int, host string) string {
		return filepath.Join(dir, "."+base+".presage-tmp."+strconv.Itoa(pid)+"."+host+".42")
	}
	gone := []string{name("r.html", dead, host), name("old.json", dead, host)}
	kept := []string{name("r.html", os.Getpid(), host), name("r.html", dead, "another-host"), filepath.Join(dir, ".r.html.12345")}
	for _, p := range append(gone, kept...) {
		outWriteFile(t, p, []byte("half a report"))
	}
	if err := os.Mkdir(name("export", dead, host), 0o755); err != nil {
		t.Fatal(err)
	}
	gone = append(gone, name("export", dead, host))
	mustSucceed(t, presage(t, dir, "report", "html", "--run", "4", "--out", "r.html"))
	for _, p := range gone {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("the stale temporary %s is still there", filepath.Base(p))
		}
	}
	for _, p := range kept {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s was removed: %v", filepath.Base(p), err)
		}
	}
}

// TestGenStoppedBySignal: SIGINT or SIGTERM while gen writes a big
// trace stops it within 2 s (exit 130 or 143), with neither the file nor
// its temporary left; after SIGKILL, which leaves the temporary, the next
// command writing in the folder removes it.
func TestGenStoppedBySignal(t *testing.T) {
	for _, tc := range []struct {
		sig  syscall.Signal
		code int
		out  string
	}{{syscall.SIGINT, 130, "big.ptr"}, {syscall.SIGTERM, 143, "big.ptr.gz"}} {
		t.Run(tc.sig.String(), func(t *testing.T) {
			dir := t.TempDir()
			cmd := outStartBigGen(t, dir, tc.out)
			sent := time.Now()
			if err := cmd.Process.Signal(tc.sig); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case <-done:
			case <-time.After(2 * time.Second):
				cmd.Process.Kill()
				<-done
				t.Fatalf("gen trace still ran 2 s after %s", tc.sig)
			}
			t.Logf("stopped %v after the signal", time.Since(sent).Round(time.Millisecond))
			if code := cmd.ProcessState.ExitCode(); code != tc.code {
				t.Errorf("exit %d, want %d", code, tc.code)
			}
			entries, _ := os.ReadDir(dir)
			for _, e := range entries {
				t.Errorf("%s left behind", e.Name())
			}
		})
	}
	t.Run("killed", func(t *testing.T) {
		dir := t.TempDir()
		cmd := outStartBigGen(t, dir, "big.ptr")
		cmd.Process.Kill()
		cmd.Wait()
		if left := outTemporaries(t, dir); len(left) != 1 {
			t.Fatalf("after SIGKILL: temporaries %v, want the one gen was writing", left)
		}
		mustSucceed(t, presage(t, dir, "gen", "trace", "small.ptr", "--calls", "10"))
		if left := outTemporaries(t, dir); len(left) != 0 {
			t.Errorf("the next gen in the folder left the killed one's temporary %v", left)
		}
		if _, err := os.Stat(filepath.Join(dir, "big.ptr")); err == nil {
			t.Error("the killed gen left big.ptr")
		}
	})
}

// outStartBigGen starts gen trace of 100 million calls into dir/out and
// returns once it is well into the writing of its temporary.
func outStartBigGen(t *testing.T, dir, out string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(binary, "--db", filepath.Join(dir, "presage.db"), "gen", "trace", out, "--calls", "100000000")
	cmd.Dir = dir
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for len(outTemporaries(t, dir)) == 0 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if len(outTemporaries(t, dir)) == 0 {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatal("gen wrote no temporary in 30 s")
	}
	time.Sleep(100 * time.Millisecond)
	return cmd
}

// outDeadPID is the id of a process that has ended.
func outDeadPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	return cmd.ProcessState.Pid()
}

// outHostName is this host's name as outTemporaries carry it.
func outHostName(t *testing.T) string {
	t.Helper()
	h, err := os.Hostname()
	if err != nil || h == "" {
		return "localhost"
	}
	return h
}

func outHead(b []byte) []byte { return b[:min(len(b), outfile.HeadBytes)] }

func outReadFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func outWriteFile(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
