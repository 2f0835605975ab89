package tracegen

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/internal/golden"
)

func generateString(t *testing.T, opt Options) (string, int) {
	t.Helper()
	var buf bytes.Buffer
	n, err := Write(&buf, opt)
	if err != nil {
		t.Fatalf("Write(%+v): %v", opt, err)
	}
	return buf.String(), n
}

func TestWriteIsValid(t *testing.T) {
	tests := []struct {
		opt      Options
		maxLevel int // deepest interval nesting
	}{
		{Options{Program: Jacobi, N: 3, Iterations: 1}, 0},
		{Options{Program: Jacobi, N: 8, Iterations: 5, Seed: 3}, 0},
		{Options{Program: Jacobi, N: 40, Iterations: 7, Intervals: true}, 3},
		{Options{Program: Jacobi}, 0},
		{Options{Program: Gauss, N: 2, Iterations: 1}, 0},
		{Options{Program: Gauss, N: 10, Iterations: 3, Seed: 9}, 0},
		{Options{Program: Gauss, N: 17, Iterations: 2, Intervals: true}, 3},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s/N=%d/it=%d/iv=%v", tt.opt.Program, tt.opt.N, tt.opt.Iterations, tt.opt.Intervals), func(t *testing.T) {
			text, n := generateString(t, tt.opt)
			c, err := checkTrace(text)
			if err != nil {
				t.Fatal(err)
			}
			if len(c.calls) != n {
				t.Errorf("Write returned %d calls, the trace holds %d", n, len(c.calls))
			}
			opt, _ := tt.opt.normalize()
			fixed, per := plan(opt)
			if want := fixed + opt.Iterations*per; n != want {
				t.Errorf("%d calls, plan says %d + %d·%d = %d", n, fixed, opt.Iterations, per, want)
			}
			if c.maxLvl != tt.maxLevel {
				t.Errorf("interval nesting %d, want %d", c.maxLvl, tt.maxLevel)
			}
			if tt.opt.Intervals != (c.funcs["enloop_"] > 0) {
				t.Errorf("Intervals=%v but %d enloop_ calls", tt.opt.Intervals, c.funcs["enloop_"])
			}
		})
	}
}

func TestJacobiIteration(t *testing.T) {
	const its = 6
	text, _ := generateString(t, Options{Program: Jacobi, N: 16, Iterations: its})
	c, err := checkTrace(text)
	if err != nil {
		t.Fatal(err)
	}
	// Every iteration: one reduction, one shadow renewal, two loops of two
	// dopl_ each, one printed line; plus the initialisation loop.
	want := map[string]int{
		"crtrg_": its, "crtred_": its, "insred_": its, "strtrd_": its, "waitrd_": its, "delrg_": its,
		"crtshg_": its, "inssh_": its, "strtsh_": its, "waitsh_": its, "delshg_": its,
		"crtpl_": 2*its + 1, "mappl_": 2*its + 1, "dopl_": 4*its + 2, "endpl_": 2*its + 1,
		"dvm_void_printf": its + 1, "blkdiv_": 1, "distr_": 1, "crtda_": 2, "align_": 2,
		"begbl_": 1, "endbl_": 1, "arrcpy_": 1,
	}
	for fn, n := range want {
		if c.funcs[fn] != n {
			t.Errorf("%d %s calls, want %d", c.funcs[fn], fn, n)
		}
	}
}

// TestGaussLoadImbalance checks that the elimination loops shrink step by
// step, so that the rows' owners have unequal work.
func TestGaussLoadImbalance(t *testing.T) {
	const n = 12
	text, _ := generateString(t, Options{Program: Gauss, N: n})
	c, err := checkTrace(text)
	if err != nil {
		t.Fatal(err)
	}
	var firsts []string
	var bodies []float64
	for i, cl := range c.calls {
		if cl.fn == "mappl_" && cl.line == gauLineElimL {
			firsts = append(firsts, array(cl.in, "InInitIndexArray")[0])
		}
		if cl.fn == "dopl_" && cl.line == gauLineElimD && i > 0 && c.calls[i-1].fn == "dopl_" {
			bodies = append(bodies, cl.callT)
		}
	}
	if len(firsts) != n-1 {
		t.Fatalf("%d elimination loops, want %d", len(firsts), n-1)
	}
	for k, f := range firsts {
		if want := fmt.Sprint(k + 2); f != want {
			t.Errorf("step %d starts at row %s, want %s", k+1, f, want)
		}
	}
	for k := 1; k < len(bodies); k++ {
		if bodies[k] > bodies[k-1]*1.1 {
			t.Errorf("step %d body %.8f s longer than step %d's %.8f s", k+1, bodies[k], k, bodies[k-1])
		}
	}
}

func TestDeterministic(t *testing.T) {
	for _, p := range []Program{Jacobi, Gauss} {
		opt := Options{Program: p, N: 20, Iterations: 4, Intervals: true, Seed: 42}
		a, _ := generateString(t, opt)
		b, _ := generateString(t, opt)
		if a != b {
			t.Errorf("%s: two runs with seed 42 differ", p)
		}
		opt.Seed = 43
		c, _ := generateString(t, opt)
		if a == c {
			t.Errorf("%s: seeds 42 and 43 give the same trace", p)
		}
		if x, y := maskTimes(a), maskTimes(c); x != y {
			t.Errorf("%s: seeds 42 and 43 differ in more than times:\n%s", p, firstDiff(x, y))
		}
	}
}

var timeRE = regexp.MustCompile(`(TIME|TaskTime|TaskTraceTime|SystemTime|SystemTraceTime)=[0-9.]+`)

func maskTimes(s string) string { return timeRE.ReplaceAllString(s, "$1=T") }

func firstDiff(a, b string) string {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range min(len(la), len(lb)) {
		if la[i] != lb[i] {
			return fmt.Sprintf("line %d: %q vs %q", i+1, la[i], lb[i])
		}
	}
	return fmt.Sprintf("lengths %d vs %d lines", len(la), len(lb))
}

func TestCallsOption(t *testing.T) {
	tests := []Options{
		{Program: Jacobi, N: 32, Calls: 1000},
		{Program: Jacobi, N: 500, Calls: 54321, Intervals: true},
		{Program: Jacobi, Calls: 200_000},
		{Program: Gauss, N: 16, Calls: 20_000},
		{Program: Gauss, N: 30, Calls: 100_000, Intervals: true},
	}
	for _, opt := range tests {
		n, err := Write(io.Discard, opt)
		if err != nil {
			t.Fatal(err)
		}
		if d := float64(n-opt.Calls) / float64(opt.Calls); d < -0.02 || d > 0.02 {
			t.Errorf("%+v: %d calls, %.1f%% off", opt, n, 100*d)
		}
	}
}

func TestOptionErrors(t *testing.T) {
	tests := []struct {
		opt  Options
		want string
	}{
		{Options{}, "unknown program"},
		{Options{Program: "lu"}, "unknown program"},
		{Options{Program: Jacobi, N: 2}, "N = 2"},
		{Options{Program: Gauss, N: 1}, "N = 1"},
		{Options{Program: Gauss, N: MaxN + 1}, "N ="},
		{Options{Program: Jacobi, Iterations: -1}, "Iterations = -1"},
		{Options{Program: Jacobi, Calls: -5}, "Calls = -5"},
	}
	for _, tt := range tests {
		var buf bytes.Buffer
		_, err := Write(&buf, tt.opt)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Write(%+v) = %v, want an error containing %q", tt.opt, err, tt.want)
		}
		if buf.Len() != 0 {
			t.Errorf("Write(%+v) wrote %d bytes despite the error", tt.opt, buf.Len())
		}
	}
}

// failWriter fails after accepting limit bytes.
type failWriter struct{ limit int }

var errFull = errors.New("disk full")

func (w *failWriter) Write(p []byte) (int, error) {
	if len(p) > w.limit {
		n := w.limit
		w.limit = 0
		return n, errFull
	}
	w.limit -= len(p)
	return len(p), nil
}

func TestWriteError(t *testing.T) {
	_, err := Write(&failWriter{limit: 1000}, Options{Program: Jacobi, N: 100, Iterations: 100_000})
	if !errors.Is(err, errFull) {
		t.Fatalf("err = %v, want the writer's error", err)
	}
}

func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	opt := Options{Program: Gauss, N: 24, Iterations: 2, Seed: 5}
	want, wantCalls := generateString(t, opt)
	for _, name := range []string{"g.ptr", "g.ptr.gz"} {
		path := filepath.Join(dir, name)
		n, err := WriteFile(path, opt)
		if err != nil {
			t.Fatal(err)
		}
		if n != wantCalls {
			t.Errorf("%s: %d calls, want %d", name, n, wantCalls)
		}
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		got := raw
		if strings.HasSuffix(name, ".gz") {
			zr, err := gzip.NewReader(bytes.NewReader(raw))
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if got, err = io.ReadAll(zr); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if len(raw)*4 > len(got) {
				t.Errorf("%s: %d bytes compress only to %d", name, len(got), len(raw))
			}
		}
		if string(got) != want {
			t.Errorf("%s differs from Write's output", name)
		}
	}
	if _, err := WriteFile(filepath.Join(dir, "missing", "x.ptr"), opt); err == nil {
		t.Error("WriteFile into a missing directory succeeded")
	}
	if _, err := WriteFile(filepath.Join(dir, "bad.ptr"), Options{Program: "lu"}); err == nil {
		t.Error("WriteFile with a bad program succeeded")
	} else if _, serr := os.Stat(filepath.Join(dir, "bad.ptr")); serr == nil {
		t.Error("WriteFile left a file behind for bad options")
	}
}

func TestAppendTicks(t *testing.T) {
	for _, v := range []ticks{0, 1, 81, 95, 100, 99_999_999, 100_000_000, 123_456_789, 1_000_000_007, 98_765_432_101} {
		got := string(appendTicks(nil, v))
		if want := fmt.Sprintf("%.8f", float64(v)/ticksPerSecond); got != want {
			t.Errorf("appendTicks(%d) = %s, want %s", v, got, want)
		}
	}
	for _, tt := range []struct {
		v    ticks
		want string
	}{{0, "0.000000"}, {149, "0.000001"}, {151, "0.000002"}, {12_345_678_949, "123.456789"}} {
		if got := string(appendSeconds6(nil, tt.v)); got != tt.want {
			t.Errorf("appendSeconds6(%d) = %s, want %s", tt.v, got, tt.want)
		}
	}
}

// TestTimesArePlausible checks the time model: the start carries the
// processor-performance measurement, loop bodies grow with the number of
// elements, and no time is negative or absurd.
func TestTimesArePlausible(t *testing.T) {
	bodyTime := func(n int) (first, body float64) {
		text, _ := generateString(t, Options{Program: Jacobi, N: n, Iterations: 10, Seed: 1})
		c, err := checkTrace(text)
		if err != nil {
			t.Fatal(err)
		}
		for i, cl := range c.calls {
			if cl.callT < 0 || cl.retT < 0 || cl.retT > 0.01 {
				t.Errorf("N=%d: %s at line %d has times %.8f/%.8f", n, cl.fn, cl.at, cl.callT, cl.retT)
			}
			if cl.fn == "dopl_" && c.calls[i-1].fn == "dopl_" && cl.line != jacLineInitD {
				body += cl.callT
			}
		}
		return c.calls[0].callT, body
	}
	first, small := bodyTime(64)
	_, large := bodyTime(256)
	if first < 0.05 || first > 0.2 {
		t.Errorf("first call after %.3f s, want about 0.1 s", first)
	}
	// (254/62)² ≈ 16.8 times the elements, plus a fixed microsecond each.
	if r := large / small; r < 12 || r > 20 {
		t.Errorf("loop time grows %.1f times from N=64 to N=256, want about 16", r)
	}
}

// TestLooksLikeRealTraces compares the parameter lines of every generated
// function with those of the same function in real traces: with the values
// masked, each call's lines must equal those of some real call.
func TestLooksLikeRealTraces(t *testing.T) {
	real := map[string]map[string]bool{}
	for _, name := range []string{"jac_e4.ptr", "jac1d.ptr", "gauswh_lw.ptr"} {
		path := golden.Path(t, "traces", name)
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		calls, err := realCalls(string(raw))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, c := range calls {
			if real[c.fn] == nil {
				real[c.fn] = map[string]bool{}
			}
			real[c.fn][shape(c)] = true
		}
	}
	for _, opt := range []Options{
		{Program: Jacobi, N: 8, Iterations: 2, Intervals: true},
		{Program: Gauss, N: 10, Iterations: 1, Intervals: true},
	} {
		text, _ := generateString(t, opt)
		c, err := checkTrace(text)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		for _, cl := range c.calls {
			s := shape(cl)
			if cl.fn == "dvm_void_printf" || seen[cl.fn+s] {
				continue
			}
			seen[cl.fn+s] = true
			if real[cl.fn] == nil {
				t.Errorf("%s: %s does not occur in the real traces", opt.Program, cl.fn)
			} else if !real[cl.fn][s] {
				t.Errorf("%s: %s parameters\n%s\nmatch no real call", opt.Program, cl.fn, s)
			}
		}
	}
}

var valueRE = regexp.MustCompile(`=[^; ]*`)

// shape is a call's parameter lines with the values masked.
func shape(c tcall) string {
	return valueRE.ReplaceAllString(strings.Join(c.in, "\n")+"\n--\n"+strings.Join(c.out, "\n"), "=V")
}

// realCalls splits a real trace into calls without checking them.
func realCalls(text string) ([]tcall, error) {
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	from, err := checkHeader(lines)
	if err != nil {
		return nil, err
	}
	var calls []tcall
	inCall := false
	for _, l := range lines[from:] {
		if strings.TrimSpace(l) == "" {
			continue
		}
		if m := eventRE.FindStringSubmatch(l); m != nil {
			if m[1] == "Event" {
				break
			}
			if inCall = m[1] == "call"; inCall {
				calls = append(calls, tcall{fn: m[2]})
			}
			continue
		}
		if len(calls) == 0 {
			continue
		}
		c := &calls[len(calls)-1]
		if inCall {
			c.in = append(c.in, l)
		} else {
			c.out = append(c.out, l)
		}
	}
	return calls, nil
}
