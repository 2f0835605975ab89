package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/sim/sweep"
)

// fanTrace is an order trace whose main order makes k orders of 1 s
// (bytes of arguments and of result each) and waits for them all.
func fanTrace(name string, k, bytes int) string {
	var b strings.Builder
	fmt.Fprintf(&b, `{"format":"presage-orders","version":1,"program":%q,"unit":"s"}`+"\n", name)
	var reqs []string
	for i := range k {
		reqs = append(reqs, fmt.Sprintf(`{"order":%d,"at":0}`, i+2))
	}
	fmt.Fprintf(&b, `{"id":1,"parent":0,"proc":"main","made_at":0,"arg_bytes":0,"duration":0.001,"requests":[%s],"results":[{"at":0.001,"bytes":8}]}`+"\n",
		strings.Join(reqs, ","))
	for i := range k {
		fmt.Fprintf(&b, `{"id":%d,"parent":1,"proc":"work","made_at":0,"arg_bytes":%d,"duration":1,"results":[{"at":1,"bytes":%d}]}`+"\n",
			i+2, bytes, bytes)
	}
	return b.String()
}

// ordersDir is a folder whose store holds the order traces "fan" (24
// orders of 1 s, no data) and "far" (the same with 1000 bytes in and out).
func ordersDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, tr := range []struct {
		name  string
		bytes int
	}{{"fan", 0}, {"far", 1000}} {
		path := filepath.Join(dir, tr.name+".jsonl")
		if err := os.WriteFile(path, []byte(fanTrace(tr.name, 24, tr.bytes)), 0o644); err != nil {
			t.Fatal(err)
		}
		mustSucceed(t, presage(t, dir, "ingest", "orders", path))
	}
	return dir
}

var (
	smallestLine = regexp.MustCompile(`(?m)^(?:smallest cluster meeting \S+ s: (\d+) nodes?|no cluster of \d+\.\.\d+ nodes meets)`)
	searchLine   = regexp.MustCompile(`(?m)^searched by (bisection|scan)\b.*over (\d+)\.\.(\d+) nodes, probing ([\d ]+); (.*)$`)
	tableRow     = regexp.MustCompile(`(?m)^\s*(\d+)\*?\s+(\S+)\s`)
	ranNothing   = regexp.MustCompile(`\(\d+ already stored, 0 run\)`)
)

// runTimes are the run times of every size lo..hi, from a sweep over all
// of them in a store of their own: what the search is checked against.
func runTimes(t *testing.T, args []string, lo, hi int) map[int]float64 {
	t.Helper()
	dir := ordersDir(t)
	r := mustSucceed(t, presage(t, dir, append(args, "--nodes", fmt.Sprintf("%d..%d", lo, hi))...))
	times := map[int]float64{}
	for _, m := range tableRow.FindAllStringSubmatch(r.stdout, -1) {
		n, _ := strconv.Atoi(m[1])
		times[n], _ = strconv.ParseFloat(m[2], 64)
	}
	if len(times) != hi-lo+1 {
		t.Fatalf("sweep over %d..%d gave %d run times:\n%s", lo, hi, len(times), r.stdout)
	}
	return times
}

// fan and far are the sweeps of the two traces the tests below ask:
// run times that shrink with the nodes, and run times that latency makes
// grow from 2 to 4 nodes.
var (
	fan = []string{"orders", "sweep", "--orders", "fan"}
	far = []string{"orders", "sweep", "--orders", "far", "--latency", "6", "--bandwidth", "1000"}
)

// TestSmallestFor asks `orders sweep --deadline` for the smallest cluster
// on run times that shrink with the nodes (bisection) and on run times
// that do not (latency makes 2 to 4 nodes slower than 1: a scan), at the
// edges of the range too, and checks every answer against the run times
// of every size of the range. The answer may be a size --nodes does not
// list: it is stored in the sweep, and the same command run again
// simulates nothing.
func TestSmallestFor(t *testing.T) {
	t.Parallel() // its own folder and store; no timing
	for _, tc := range []struct {
		name     string
		args     []string
		nodes    string
		lo, hi   int
		deadline float64
		want     int // 0: none
		scanned  bool
	}{
		// fan: 24 s on 1 node, ceil(24/n) s on n: 5 nodes take 5 s, 6 take 4 s.
		{"monotone, between listed sizes", fan, "1..16:*2", 1, 16, 4.5, 6, false},
		{"monotone, the smallest listed", fan, "1..16:*2", 1, 16, 30, 1, false},
		{"monotone, the largest listed", fan, "3..24:*2", 3, 24, 1.5, 24, false},
		{"monotone, none", fan, "2..8", 2, 8, 1.5, 0, false},
		// far: 24 s on 1 node, 31 s on 2 to 4 (transfers), 23 s from 5 on.
		{"not monotone", far, "1..12:*2", 1, 8, 23.5, 5, true},
		{"not monotone, none", far, "1..4", 1, 4, 23.5, 0, true},
		{"not monotone, the smallest", far, "1..12:*2", 1, 8, 24.5, 1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			times := runTimes(t, tc.args, tc.lo, tc.hi)
			truth := 0
			for n := tc.lo; n <= tc.hi; n++ {
				if times[n] <= tc.deadline {
					truth = n
					break
				}
			}
			if truth != tc.want {
				t.Fatalf("the run times %v put the answer at %d, the case at %d: fix the case", times, truth, tc.want)
			}
			dir := ordersDir(t)
			args := slices.Concat(tc.args, []string{"--nodes", tc.nodes, "--deadline", fmt.Sprint(tc.deadline)})
			out := mustSucceed(t, presage(t, dir, args...)).stdout
			got, search := smallestLine.FindStringSubmatch(out), searchLine.FindStringSubmatch(out)
			if got == nil || search == nil {
				t.Fatalf("no answer or no search line:\n%s", out)
			}
			if n, _ := strconv.Atoi(got[1]); n != tc.want {
				t.Errorf("answer %q, want %d nodes:\n%s", got[0], tc.want, out)
			}
			if scanned := search[1] == "scan"; scanned != tc.scanned {
				t.Errorf("searched by %s, want scanned %v:\n%s", search[1], tc.scanned, out)
			}
			if search[2] != fmt.Sprint(tc.lo) || search[3] != fmt.Sprint(tc.hi) {
				t.Errorf("searched %s..%s, want %d..%d", search[2], search[3], tc.lo, tc.hi)
			}
			nodes, err := parseInts(tc.nodes)
			if err != nil {
				t.Fatal(err)
			}
			outside := tc.want > 0 && !slices.Contains(nodes, tc.want)
			if said := strings.Contains(out, "not in --nodes: simulated and stored now"); said != outside {
				t.Errorf("the answer is outside --nodes: %v; the command said so: %v\n%s", outside, said, out)
			}
			// Every size probed is stored in the sweep and shown.
			shown := map[string]bool{}
			for _, m := range tableRow.FindAllStringSubmatch(out, -1) {
				shown[m[1]] = true
			}
			for _, p := range strings.Fields(search[4]) {
				if !shown[p] {
					t.Errorf("probed size %s is not among the stored runs:\n%s", p, out)
				}
			}
			q := mustSucceed(t, presage(t, dir, "query", "--format", "csv", "SELECT count(DISTINCT nodes) AS n FROM v_order_runs"))
			if f := strings.Fields(q.stdout); len(f) != 2 || f[1] != fmt.Sprint(len(shown)) {
				t.Errorf("the store holds %v node counts, the table %d", f, len(shown))
			}
			// So the same command again simulates nothing, and answers the same.
			again := mustSucceed(t, presage(t, dir, args...)).stdout
			if g := smallestLine.FindString(again); g != got[0] {
				t.Errorf("run again: %q, first %q", g, got[0])
			}
			s := searchLine.FindStringSubmatch(again)
			if !ranNothing.MatchString(again) || s == nil || s[5] != "all stored already" || s[4] != search[4] {
				t.Errorf("run again, something was simulated or probed otherwise:\n%s", again)
			}
			if outside && !strings.Contains(again, "not in --nodes: stored by an earlier search") {
				t.Errorf("run again, the answer outside --nodes is not said to be stored:\n%s", again)
			}
		})
	}
}

var (
	cheapestLine = regexp.MustCompile(`(?m)^cheapest cluster meeting \S+ s: (?:(\d+) nodes?, (\S+) node-seconds|none of the \d+ simulated meets it)`)
	fastestLine  = regexp.MustCompile(`(?m)^fastest cluster within \S+ node-seconds: (?:(\d+) nodes?, run time \S+ s, (\S+) node-seconds|none of the \d+ simulated fits)`)
	costScanLine = regexp.MustCompile(`(?m)^by cost: a scan of the (\d+) sizes simulated`)
)

// TestOrdersSweepCost asks `orders sweep` the cost questions: with
// --budget, the fastest cluster simulated whose node-seconds fit it; with
// --deadline, the cheapest simulated that meets it (not always the
// smallest: 6 nodes of fan cost less than 5). Each answer is checked
// against the table the command prints, the sizes the deadline search
// simulated included, and the command says it scanned them all.
func TestOrdersSweepCost(t *testing.T) {
	t.Parallel() // its own folder and store; no timing
	for _, tc := range []struct {
		name             string
		args             []string
		nodes            string
		deadline, budget float64 // 0: not asked
		smallest         int     // the deadline search's answer, when asked
		cheapest         int     // 0: none
		fastest          int     // 0: none
	}{
		// fan: ceil(24/n) s on n nodes, 24 node-seconds where n divides
		// 24; 5 nodes (probed by the search) cost 25, 16 cost 32.
		{"cheapest is not the smallest", fan, "1..16:*2", 5.5, 25, 5, 6, 8},
		{"budget: every size fits", fan, "1..16:*2", 0, 32.1, 0, 0, 16},
		{"budget: none fits", fan, "1..16:*2", 0, 20, 0, 0, 0},
		{"deadline: none meets", fan, "1..16:*2", 1, 0, 0, 0, 0},
		// far: 24 s on 1 node, 31 s on 2 to 4 (transfers), 23 s from 5 on.
		{"budget: not monotone", far, "1..8", 0, 100, 0, 0, 1},
		{"budget: equal times, fewer nodes", far, "1..8", 0, 200, 0, 0, 5},
		{"deadline scanned: cheapest among the probes", far, "1..12:*2", 23.5, 0, 5, 5, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := ordersDir(t)
			args := slices.Concat(tc.args, []string{"--nodes", tc.nodes})
			if tc.deadline > 0 {
				args = append(args, "--deadline", fmt.Sprint(tc.deadline))
			}
			if tc.budget > 0 {
				args = append(args, "--budget", fmt.Sprint(tc.budget))
			}
			out := mustSucceed(t, presage(t, dir, args...)).stdout
			times := map[int]float64{}
			for _, m := range tableRow.FindAllStringSubmatch(out, -1) {
				n, _ := strconv.Atoi(m[1])
				times[n], _ = strconv.ParseFloat(m[2], 64)
			}
			for _, q := range []struct {
				what  string
				asked bool
				line  *regexp.Regexp
				want  int
				truth func() (sweep.Pick, error)
			}{
				{"cheapest", tc.deadline > 0, cheapestLine, tc.cheapest, func() (sweep.Pick, error) { return sweep.CheapestFor(times, tc.deadline) }},
				{"fastest", tc.budget > 0, fastestLine, tc.fastest, func() (sweep.Pick, error) { return sweep.FastestWithin(times, tc.budget) }},
			} {
				m := q.line.FindStringSubmatch(out)
				if !q.asked {
					if m != nil {
						t.Errorf("%s not asked, answered %q", q.what, m[0])
					}
					continue
				}
				if m == nil {
					t.Fatalf("%s: no answer:\n%s", q.what, out)
				}
				truth, err := q.truth()
				if err != nil {
					t.Fatal(err)
				}
				if truth.Size != q.want {
					t.Fatalf("%s: the table's run times %v put the answer at %d, the case at %d: fix the case", q.what, times, truth.Size, q.want)
				}
				if got, _ := strconv.Atoi(m[1]); got != q.want {
					t.Errorf("%s: %q, want %d nodes:\n%s", q.what, m[0], q.want, out)
				}
				if cost, _ := strconv.ParseFloat(m[2], 64); q.want > 0 && math.Abs(cost-truth.Cost) > 1e-5*truth.Cost {
					t.Errorf("%s: %q, want %.6g node-seconds", q.what, m[0], truth.Cost)
				}
			}
			scan := costScanLine.FindStringSubmatch(out)
			if asked := tc.deadline > 0 || tc.budget > 0; (scan != nil) != asked {
				t.Errorf("cost asked %v, scan said %v:\n%s", asked, scan != nil, out)
			} else if scan != nil && scan[1] != fmt.Sprint(len(times)) {
				t.Errorf("scanned %s sizes, the table shows %d:\n%s", scan[1], len(times), out)
			}
			if tc.deadline > 0 {
				got := smallestLine.FindStringSubmatch(out)
				if got == nil {
					t.Fatalf("no smallest answer:\n%s", out)
				}
				if n, _ := strconv.Atoi(got[1]); n != tc.smallest {
					t.Errorf("smallest: %q, want %d nodes", got[0], tc.smallest)
				}
			}
		})
	}
}
