package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

var simulatedOn = regexp.MustCompile(`on (\d+) nodes \(\S+\): makespan (\S+) s`)

// A cluster description file gives orders simulate its nodes, cores and
// network; its measured message times price the transfers, whatever the
// line beside them says, and the run keeps them.
func TestOrdersSimulateOnAClusterFile(t *testing.T) {
	dir := ordersDir(t)
	// 1000 bytes take 2 s by the points, as on a line of latency 1 s
	// and 1000 bytes/s; the file's own line (9 s) is not used.
	file := filepath.Join(dir, "cluster.json")
	if err := os.WriteFile(file, []byte(`{"format":"presage-cluster","nodes":4,"cores":1,"latency":9,"bandwidth":1,
		"messages":[{"bytes":0,"seconds":1},{"bytes":1000,"seconds":2},{"bytes":2000,"seconds":10}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	byFile := simulatedOn.FindStringSubmatch(mustSucceed(t, presage(t, dir, "orders", "simulate", "--orders", "far", "--cluster", file)).stdout)
	byLine := simulatedOn.FindStringSubmatch(mustSucceed(t, presage(t, dir, "orders", "simulate", "--orders", "far", "--nodes", "4",
		"--latency", "1", "--bandwidth", "1000")).stdout)
	if byFile == nil || byLine == nil || byFile[1] != "4" || byFile[2] != byLine[2] {
		t.Fatalf("on the file %q, on the line %q: want both on 4 nodes with the same makespan", byFile, byLine)
	}
	r := mustSucceed(t, presage(t, dir, "query", "--format", "csv", "SELECT nodes, latency, messages FROM order_runs ORDER BY run_id"))
	want := `4,9,"[{""bytes"":0,""seconds"":1},{""bytes"":1000,""seconds"":2},{""bytes"":2000,""seconds"":10}]"` + "\n4,1,\n"
	if !strings.HasSuffix(r.stdout, want) {
		t.Errorf("stored runs:\n%s\nwant them ending in\n%s", r.stdout, want)
	}
	// The line's time per byte in a DVM machine's form.
	tbyteFile := filepath.Join(dir, "tbyte.json")
	if err := os.WriteFile(tbyteFile, []byte(`{"format":"presage-cluster","nodes":4,"latency":1,"tbyte":0.001,"bandwidth":0}`), 0o644); err != nil {
		t.Fatal(err)
	}
	byTByte := simulatedOn.FindStringSubmatch(mustSucceed(t, presage(t, dir, "orders", "simulate", "--orders", "far", "--cluster", tbyteFile)).stdout)
	if byTByte == nil || byTByte[2] != byLine[2] {
		t.Errorf("with tbyte 0.001 %q, with bandwidth 1000 %q: want the same makespan", byTByte, byLine)
	}
	// The run's row says the bandwidth, 1/tbyte, for the reports.
	last := mustSucceed(t, presage(t, dir, "query", "--format", "csv", "SELECT latency, bandwidth FROM order_runs ORDER BY run_id DESC LIMIT 1"))
	if !strings.HasSuffix(last.stdout, "\n1,1000\n") {
		t.Errorf("the run on tbyte 0.001:\n%s\nwant latency 1 and bandwidth 1000", last.stdout)
	}
	bothFile := filepath.Join(dir, "both.json")
	if err := os.WriteFile(bothFile, []byte(`{"format":"presage-cluster","nodes":4,"latency":1,"tbyte":0.001,"bandwidth":1000}`), 0o644); err != nil {
		t.Fatal(err)
	}
	mustSucceed(t, presage(t, dir, "orders", "sweep", "--orders", "far", "--cluster", file, "--nodes", "1..4"))

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--cluster", file, "--latency", "1"}, "--cluster " + file + " and --cores, --power, --latency or --bandwidth: the file describes the cluster (expected one or the other)"},
		{[]string{"--cluster", bothFile}, "tbyte = 0.001 and bandwidth = 1000 (expected one form of the time per byte, or neither)"},
		{[]string{"--cluster", filepath.Join(dir, "none.json")}, "--cluster: open " + filepath.Join(dir, "none.json") + ": no such file or directory"},
	} {
		r := presage(t, dir, append([]string{"orders", "simulate", "--orders", "far"}, c.args...)...)
		if r.code == 0 || !strings.Contains(r.stderr, c.want) {
			t.Errorf("%v: exit %d, %q; want an error saying %q", c.args, r.code, r.stderr, c.want)
		}
	}
}

// A cluster file's runtime costs (as network mode times them on worker
// processes) are charged in place of the trace's: the run takes longer
// than on the same cluster without them, and its row keeps them, so that
// it is not taken for a run of other costs; a sweep on them is a sweep of
// its own.
func TestOrdersSimulateChargesTheClusterRuntimeCosts(t *testing.T) {
	dir := ordersDir(t)
	plain := filepath.Join(dir, "plain.json")
	costly := filepath.Join(dir, "costly.json")
	const cluster = `{"format":"presage-cluster","nodes":2,"cores":1,"latency":0.001,"bandwidth":1e6%s}`
	for file, extra := range map[string]string{plain: "", costly: `,"order_cost":0.5,"wait_cost":0.25`} {
		if err := os.WriteFile(file, []byte(fmt.Sprintf(cluster, extra)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	makespan := func(file string) float64 {
		m := simulatedOn.FindStringSubmatch(mustSucceed(t, presage(t, dir, "orders", "simulate", "--orders", "far", "--cluster", file)).stdout)
		if m == nil {
			t.Fatalf("no makespan simulating on %s", file)
		}
		v, err := strconv.ParseFloat(m[2], 64)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	without, with := makespan(plain), makespan(costly)
	if with < without+0.5 {
		t.Errorf("makespan %v with 0.5 s per order, %v without: want at least 0.5 s more", with, without)
	}
	r := mustSucceed(t, presage(t, dir, "query", "--format", "csv", "SELECT order_cost, wait_cost FROM order_runs ORDER BY run_id"))
	if !strings.HasSuffix(r.stdout, "\n0,0\n0.5,0.25\n") {
		t.Errorf("stored runs:\n%s\nwant the costs 0, 0 then 0.5, 0.25", r.stdout)
	}
	mustSucceed(t, presage(t, dir, "orders", "sweep", "--orders", "far", "--cluster", plain, "--nodes", "1..2"))
	mustSucceed(t, presage(t, dir, "orders", "sweep", "--orders", "far", "--cluster", costly, "--nodes", "1..2"))
	sweeps := mustSucceed(t, presage(t, dir, "query", "--format", "csv", "SELECT count(DISTINCT sweep_id), count(DISTINCT order_cost) FROM v_order_runs WHERE sweep_id > 0"))
	if !strings.HasSuffix(sweeps.stdout, "\n2,2\n") {
		t.Errorf("sweeps on the two files:\n%s\nwant two sweeps of two costs", sweeps.stdout)
	}
}
