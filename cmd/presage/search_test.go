package main

import (
	"fmt"
	"strings"
	"testing"
)

// TestPlanAnswersFromStoredRuns: after a sweep, `plan` (search) of the
// same configurations answers the planning questions from the stored runs
// without simulating, and its answers are those a query over the views
// finds.
func TestPlanAnswersFromStoredRuns(t *testing.T) {
	t.Parallel() // its own folder and store; no timing
	// Large arrays on slow processors make the computation dominate: the
	// time falls with processors while the efficiency does too.
	dir := genDir(t, 512)
	mustSucceed(t, presage(t, dir, "sweep", "--trace", "gen", "--machine", "Predictor", "--procs", "1..16", "--power", "0.01"))
	sql := func(q string) string {
		out := mustSucceed(t, presage(t, dir, "query", "--format", "csv", q)).stdout
		return strings.TrimSpace(strings.SplitN(out, "\n", 2)[1])
	}
	const runs = `(SELECT r.procs, r.execution_time AS time, w.Efficiency AS efficiency
		FROM v_runs r JOIN v_intervals_wide w ON w.run_id = r.run_id AND w.level = 0)`
	// A deadline half-way between the fastest and the slowest run, and an
	// efficiency floor a quarter of the way up.
	var deadline, floor float64
	fmt.Sscan(sql(`SELECT (min(time) + max(time)) / 2 FROM `+runs), &deadline)
	fmt.Sscan(sql(`SELECT min(efficiency) + (max(efficiency) - min(efficiency)) / 4 FROM `+runs), &floor)
	meets := fmt.Sprintf("FROM %s WHERE time <= %.17g AND efficiency >= %.17g", runs, deadline, floor)
	answer := func(order string) string {
		return sql("SELECT procs || ' ' || printf('%.6f', time) " + meets + " ORDER BY " + order + " LIMIT 1")
	}
	want := map[string]string{ // processors and time: grids of equal times are equivalent
		"fastest":           answer("time, procs"),
		"cheapest":          answer("time * procs, time"),
		"most efficient":    answer("efficiency DESC, time"),
		"fewest processors": answer("procs, time"),
		"most processors":   answer("procs DESC, time"),
	}
	if len(map[string]bool{want["fastest"]: true, want["cheapest"]: true, want["most processors"]: true}) < 2 {
		t.Fatalf("the limits leave answers too alike to test: %v", want)
	}
	met := sql("SELECT count(*) " + meets)
	r := mustSucceed(t, presage(t, dir, "plan", "--trace", "gen", "--procs", "1..16", "--power", "0.01",
		"--deadline", fmt.Sprint(deadline), "--min-efficiency", fmt.Sprint(floor), "--per-count"))
	if !strings.Contains(r.stdout, "50 of them stored before, 0 simulated now") || !strings.Contains(r.stdout, "\n"+met+" of 50 meet") {
		t.Errorf("plan after a sweep of its grids, %s meeting the limits:\n%s", met, r.stdout)
	}
	for q, w := range want {
		if f := lineStarting(r.stdout, q); len(f) < 3 || f[1]+" "+f[2] != w {
			t.Errorf("%s: %v, want processors and time %s", q, f, w)
		}
	}
	var perCount []string
	for _, f := range tableAfter(r.stdout, "the fastest grid of each processor count:") {
		perCount = append(perCount, f[1]+" "+f[2])
	}
	wantPerCount := sql("SELECT group_concat(p, ';') FROM (SELECT procs || ' ' || printf('%.6f', min(time)) AS p " + meets + " GROUP BY procs ORDER BY procs)")
	if strings.Join(perCount, ";") != wantPerCount {
		t.Errorf("fastest of each count: %q, want %q", perCount, wantPerCount)
	}
	none := mustSucceed(t, presage(t, dir, "plan", "--trace", "gen", "--procs", "1..16", "--power", "0.01", "--deadline", "1e-9"))
	if !strings.Contains(none.stdout, "0 of 50 meet") || strings.Contains(none.stdout, "fastest") {
		t.Errorf("a deadline nothing meets:\n%s", none.stdout)
	}
}

// lineStarting returns the fields after label of the output's line that
// starts with it (leading spaces aside).
func lineStarting(out, label string) []string {
	for _, l := range strings.Split(out, "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(l), label+" "); ok {
			return strings.Fields(rest)
		}
	}
	return nil
}

// tableAfter returns the fields of the rows of the table under the line
// title (its header left out), up to the first empty line.
func tableAfter(out, title string) [][]string {
	_, rest, ok := strings.Cut(out, title+"\n")
	if !ok {
		return nil
	}
	var rows [][]string
	for _, l := range strings.Split(rest, "\n")[1:] {
		if strings.TrimSpace(l) == "" {
			break
		}
		rows = append(rows, strings.Fields(l))
	}
	return rows
}
