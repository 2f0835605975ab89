package main

import (
	"bytes"
	"compress/gzip"
	"context"
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
)

// The inputs of a hostile user (issue 41, part C): files that are not
// files, gzip bombs and truncated gzip, lines of megabytes, physical
// values out of range, simulations too long to wait for. Each is refused
// (or stopped) with one line naming what was wrong, quickly, in bounded
// memory, the store unchanged and sound.

// hostileMemory bounds the memory (maximum resident set) of a refused
// command: a reader that held what it read would pass it.
const hostileMemory = 400 << 20

// TestHostileInputs runs every ingest kind, and the flags with physical
// values, on inputs made to hang, exhaust or confuse it.
func TestHostileInputs(t *testing.T) {
	dir := t.TempDir()
	inputsStore(t, dir)
	files := hostileFiles(t, dir)
	const ingest = "ingest"
	predict := []string{"predict", "--trace", "jac", "--machine", "Predictor", "--grid", "2x2"}
	with := func(cmd []string, args ...string) []string { return append(append([]string{}, cmd...), args...) }
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		// A FIFO would block until a writer came; each kind refuses it at once.
		{"fifo trace", []string{ingest, "trace", files["fifo"]}, 1, "a named pipe (FIFO), not a regular file"},
		{"fifo machine", []string{ingest, "machine", files["fifo"]}, 1, "a named pipe (FIFO), not a regular file"},
		{"fifo sts", []string{ingest, "sts", files["fifo"]}, 1, "a named pipe (FIFO), not a regular file"},
		{"fifo orders", []string{ingest, "orders", files["fifo"]}, 1, "a named pipe (FIFO), not a regular file"},
		{"fifo calibration", []string{ingest, "calibration", files["fifo"]}, 1, "a named pipe (FIFO), not a regular file"},
		{"fifo orders-run", []string{ingest, "orders-run", files["fifo"]}, 1, "a named pipe (FIFO), not a regular file"},
		{"fifo fit --host-file", []string{"fit", "--trace", "jac", "--machine", "Predictor", "--host-file", files["fifo"]}, 1, "--host-file: " + files["fifo"] + ": a named pipe (FIFO), not a regular file"},
		{"fifo orders --cluster", []string{"orders", "simulate", "--orders", "x", "--cluster", files["fifo"]}, 1, "fifo: not a regular file"},
		// A device never ends: refused before a byte is read.
		{"/dev/zero trace", []string{ingest, "trace", "/dev/zero"}, 1, "/dev/zero: a character device, not a regular file"},
		{"/dev/zero orders", []string{ingest, "orders", "/dev/zero"}, 1, "/dev/zero: a character device, not a regular file"},
		{"/dev/zero machine", []string{ingest, "machine", "/dev/zero"}, 1, "/dev/zero: a character device, not a regular file"},
		// Decompression stops at its bound, whatever parses the text.
		{"gzip bomb trace", []string{ingest, "trace", files["bomb.ptr.gz"]}, 1, "decompresses to more than 500 times its compressed size"},
		{"gzip bomb orders-run", []string{ingest, "orders-run", files["bomb.jsonl.gz"]}, 1, "decompresses to more than 500 times its compressed size"},
		{"gzip bomb orders", []string{ingest, "orders", files["bomb-orders.jsonl.gz"]}, 1, "bomb-orders.jsonl.gz:3: empty line (expected an order)"},
		{"gzip bomb sts", []string{ingest, "sts", files["bomb.jsonl.gz"]}, 1, "not a statistics file"},
		// A gzip file without its last bytes is not a whole input.
		{"truncated gzip trace", []string{ingest, "trace", files["cut.ptr.gz"]}, 1, "cut.ptr.gz: gzip stream cut short"},
		{"truncated gzip orders", []string{ingest, "orders", files["cut.jsonl.gz"]}, 1, "cut.jsonl.gz: gzip stream cut short"},
		// One line of megabytes is quoted by a short prefix.
		{"huge line machine", []string{ingest, "machine", files["line.par"]}, 1, `expected '=' or '.' after "xxxx`},
		{"huge line calibration", []string{ingest, "calibration", files["line.csv"]}, 1, `line.csv:1: header "xxxx`},
		{"huge line orders", []string{ingest, "orders", files["line.jsonl"]}, 1, `line.jsonl:1: format "xxxx`},
		{"huge line orders-run", []string{ingest, "orders-run", files["line.jsonl"]}, 1, "line.jsonl:1:"},
		{"huge line trace", []string{ingest, "trace", files["line.csv"]}, 1, "line.csv:1: line longer than"},
		{"huge line sts", []string{ingest, "sts", files["line.csv"]}, 1, "line.csv: offset 0: not a statistics file"},
		// Machine files: names and physical values checked by meaning.
		{"undefined sub-cluster", []string{ingest, "machine", files["sub.par"]}, 1, `sub.par:2:10: sub-cluster "nosuch" of cluster "c" is not defined`},
		{"machine power 1000", []string{ingest, "machine", files["power.par"]}, 1, "power.par:5:5: processor power 1000: expected a number of times the traced processor's speed from 0.001 to 100"},
		{"machine tstart 1e308", []string{ingest, "machine", files["tstart.par"]}, 1, "expected a number of microseconds from 0 to 10000000"},
		// Traces, order traces and measured runs: durations finite and bounded.
		{"trace TIME=1e308", []string{ingest, "trace", files["time.ptr"]}, 1, "TIME: expected a decimal number of seconds from 0 to 1e+09"},
		{"order duration 1e308", []string{ingest, "orders", files["duration.jsonl"]}, 1, "duration 1e+308 is not a length of time (expected a number of seconds from 0 to 1000000000)"},
		{"measured makespan 1e308", []string{ingest, "orders-run", files["makespan.jsonl"]}, 1, "makespan 1e+308 (expected a number of seconds from 0 to 1000000000)"},
		// Flags: the same ranges, in the flag's unit.
		{"predict --power 1000", with(predict, "--power", "1000"), 2, "--power 1000: expected a number of times the traced processor's speed from 0.001 to 100"},
		{"predict --tstart 1e308", with(predict, "--tstart", "1e308"), 2, "--tstart 1e+308: expected a number of microseconds from 0 to 10000000"},
		{"predict --tbyte 1e7", with(predict, "--tbyte", "1e7"), 2, "--tbyte 1e+07: expected a number of microseconds per byte from 0 to 1000000"},
		{"sweep --power 1,1000", []string{"sweep", "--trace", "jac", "--machine", "Predictor", "--grids", "2x2", "--power", "1,1000"}, 1, "--power 1000: expected a number of times"},
		{"orders --latency 1e308", []string{"orders", "simulate", "--orders", "x", "--latency", "1e308"}, 2, "--latency 1e+308: expected a number of seconds from 0 to 10"},
		{"orders --bandwidth 1e-3", []string{"orders", "simulate", "--orders", "x", "--bandwidth", "1e-3"}, 2, "--bandwidth 0.001: expected a finite number of bytes per second ≥ 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := storeCounts(t, dir)
			start := time.Now()
			r, rss := presageBounded(t, dir, 30*time.Second, tc.args...)
			took := time.Since(start)
			first, _, _ := strings.Cut(strings.TrimSpace(r.stderr), "\n")
			if r.code != tc.code || !strings.Contains(first, tc.want) {
				t.Errorf("exit %d, stderr %.400q; want exit %d and %q", r.code, r.stderr, tc.code, tc.want)
			}
			if len(first) > 300 {
				t.Errorf("an error line of %d bytes: %.120q...", len(first), first)
			}
			if took > 5*time.Second {
				t.Errorf("refused after %v: expected at once", took.Round(time.Millisecond))
			}
			if rss > hostileMemory {
				t.Errorf("the refused command took %d MB", rss>>20)
			}
			soundAndUnchanged(t, dir, before)
		})
	}

	// A gzipped measured run is read like the other gzipped kinds.
	r := mustSucceed(t, presage(t, dir, ingest, "orders-run", files["run.jsonl.gz"]))
	if !strings.Contains(r.stderr, "measured run run: sort on 2 workers of ci") {
		t.Errorf("ingest orders-run of a gzipped file said %q", r.stderr)
	}
}

// hostileFiles writes the inputs of TestHostileInputs into dir, by name.
func hostileFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	write := func(name string, b []byte) {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		files[name] = path
	}
	files["fifo"] = filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(files["fifo"], 0o644); err != nil {
		t.Fatal(err)
	}
	jac, err := os.ReadFile(golden.Path(t, "traces", "jac.ptr"))
	if err != nil {
		t.Fatal(err)
	}
	// Bombs: a real trace followed by 100 MB of newlines, and a measured
	// run's header followed by them; both compress about 1000 times.
	newlines := bytes.Repeat([]byte{'\n'}, 100<<20)
	write("bomb.ptr.gz", gzipped(t, jac, newlines))
	write("bomb.jsonl.gz", gzipped(t, []byte(sortRun(false)), newlines))
	write("bomb-orders.jsonl.gz", gzipped(t, []byte(orderTraceText(1)), newlines))
	write("cut.ptr.gz", cutShort(gzipped(t, jac)))
	write("cut.jsonl.gz", cutShort(gzipped(t, []byte(orderTraceText(1)))))
	line := bytes.Repeat([]byte{'x'}, 3<<20)
	write("line.par", append(line, '\n'))
	write("line.csv", append(line, '\n'))
	write("line.jsonl", []byte(`{"format":"`+string(line)+`"}`+"\n"))
	write("sub.par", []byte("cluster = c;\nc = {4 x nosuch};\nc.TStart = 7;\nc.TByte = 0.004;\n"))
	write("power.par", []byte("cluster = c;\nc = {4 x p};\nc.TStart = 7;\nc.TByte = 0.004;\np = 1000;\n"))
	write("tstart.par", []byte("cluster = c;\nc = {4 x p};\nc.TStart = 1"+strings.Repeat("0", 308)+";\np = 1;\n"))
	write("duration.jsonl", []byte(orderTraceText(1e308)))
	write("time.ptr", bytes.Replace(jac, []byte("TIME=0.00203419"), []byte("TIME=1e308"), 1))
	write("makespan.jsonl", []byte(strings.Replace(sortRun(false), `"makespan":0.01`, `"makespan":1e308`, 1)))
	write("run.jsonl.gz", gzipped(t, []byte(sortRun(false))))
	return files
}

// orderTraceText is an order trace of one order of the given duration.
func orderTraceText(duration float64) string {
	d := strconv.FormatFloat(duration, 'g', -1, 64)
	return `{"format":"presage-orders","version":2,"program":"one","unit":"s","orders":1}` + "\n" +
		`{"id":1,"parent":0,"proc":"main","made_at":0,"arg_bytes":0,"duration":` + d + `,"results":[{"at":` + d + `,"bytes":8}]}` + "\n"
}

// gzipped is the parts, one after the other, compressed as one gzip file.
func gzipped(t *testing.T, parts ...[]byte) []byte {
	t.Helper()
	var b bytes.Buffer
	w, err := gzip.NewWriterLevel(&b, gzip.BestCompression)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range parts {
		if _, err := w.Write(p); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// cutShort is a gzip file without its last 4 bytes (the length of the
// text).
func cutShort(gz []byte) []byte { return gz[:len(gz)-4] }

// presageBounded runs the binary as presage does, killed after timeout
// (a hang fails the test rather than blocking it), and returns its
// maximum resident set in bytes besides.
func presageBounded(t *testing.T, dir string, timeout time.Duration, args ...string) (cliResult, int64) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, append([]string{"--db", filepath.Join(dir, "presage.db")}, args...)...)
	cmd.Dir = dir
	r := runCommand(t, cmd)
	if ctx.Err() != nil {
		t.Fatalf("presage %v still ran after %v: killed", args, timeout)
	}
	return r, maxRSS(cmd)
}

// maxRSS is the maximum resident set of the finished cmd, in bytes.
func maxRSS(cmd *exec.Cmd) int64 {
	if u, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		return u.Maxrss << 10 // kilobytes on Linux
	}
	return 0
}

// soundAndUnchanged fails unless the store in dir passes SQLite's
// integrity and foreign key checks and holds what storeCounts said before.
func soundAndUnchanged(t *testing.T, dir, before string) {
	t.Helper()
	soundStore(t, filepath.Join(dir, "presage.db"), -1)
	if after := storeCounts(t, dir); after != before {
		t.Errorf("the store changed:\n before %s\n after  %s", before, after)
	}
}

// TestLongSimulationStoppedBySignal: SIGTERM stops a prediction, and the
// replay of export timeline, in the middle of its simulation — within 2
// s, with 143 — not after it; the store is unchanged and nothing of the
// export is left.
func TestLongSimulationStoppedBySignal(t *testing.T) {
	dir := t.TempDir()
	// Processors of two powers are simulated one by one (no class of
	// identical processors): 1024 of them make each call slow.
	trace := filepath.Join(dir, "long.ptr")
	if _, err := tracegen.WriteFile(trace, tracegen.Options{Program: tracegen.Jacobi, N: 256, Calls: 120_000}); err != nil {
		t.Fatal(err)
	}
	machine := filepath.Join(dir, "two.par")
	if err := os.WriteFile(machine, []byte("cluster = c;\nc = {512 x a, 512 x b};\nc.TStart = 10;\nc.TByte = 0.001;\na = 1;\nb = 2;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	mustSucceed(t, presage(t, dir, "ingest", "trace", trace))
	mustSucceed(t, presage(t, dir, "ingest", "machine", machine))
	start := time.Now()
	mustSucceed(t, presage(t, dir, "predict", "--trace", "long", "--machine", "two", "--grid", "32x32"))
	if full := time.Since(start); full < 4*time.Second {
		t.Logf("the whole prediction took %v: too short for the signal to fall inside it", full)
	}
	out := filepath.Join(dir, "long.json")
	for _, args := range [][]string{
		{"predict", "--trace", "long", "--machine", "two", "--grid", "32x32", "--again"},
		{"export", "timeline", "--run", "1", "--format", "perfetto", "--max-mb", "0", "--out", out},
	} {
		t.Run(args[0], func(t *testing.T) {
			before := storeCounts(t, dir)
			cmd := exec.Command(binary, append([]string{"--db", filepath.Join(dir, "presage.db")}, args...)...)
			cmd.Dir = dir
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			exited := make(chan struct{})
			go func() { cmd.Wait(); close(exited) }()
			select {
			case <-exited:
				t.Fatalf("presage %v ended before the signal (exit %d): the simulation is too short for the test", args, cmd.ProcessState.ExitCode())
			case <-time.After(2 * time.Second):
			}
			sent := time.Now()
			if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
				t.Fatal(err)
			}
			select {
			case <-exited:
			case <-time.After(10 * time.Second):
				cmd.Process.Kill()
				<-exited
				t.Fatalf("presage %v still ran 10 s after SIGTERM", args)
			}
			if took := time.Since(sent); took > 2*time.Second {
				t.Errorf("stopped %v after SIGTERM, want within 2 s", took.Round(time.Millisecond))
			}
			if code := cmd.ProcessState.ExitCode(); code != 143 || !strings.Contains(stderr.String(), "stopped by SIGTERM") {
				t.Errorf("exit %d, %q; want 143 and a line saying SIGTERM stopped it", code, stderr.String())
			}
			soundAndUnchanged(t, dir, before)
			if _, err := os.Stat(out); err == nil {
				t.Errorf("the stopped export left %s", out)
			}
		})
	}
}

// TestDryRunCounts: a dry run of a product of a hundred million
// configurations counts them by machine and grid, in bounded memory and
// time, where listing them took 290 bytes each.
func TestDryRunCounts(t *testing.T) {
	dir := t.TempDir()
	inputsStore(t, dir)
	before := storeCounts(t, dir)
	start := time.Now()
	r, rss := presageBounded(t, dir, time.Minute, "sweep", "--trace", "jac", "--machine", "Predictor", "--grids", "2x2",
		"--tstart", "1..1000:1", "--tbyte", "0.001..1:0.001", "--power", "0.1..10:0.1", "--dry-run")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "100000000 configurations (0 skipped)") {
		t.Errorf("dry run: exit %d, stdout %q, stderr %q; want 100000000 configurations", r.code, r.stdout, r.stderr)
	}
	if rss > 300<<20 {
		t.Errorf("the dry run of 1e8 configurations took %d MB", rss>>20)
	}
	if took := time.Since(start); took > 20*time.Second {
		t.Errorf("the dry run took %v", took.Round(time.Millisecond))
	}
	soundAndUnchanged(t, dir, before)
}
