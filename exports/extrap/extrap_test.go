package extrap_test

import (
	"bufio"
	"context"
	"encoding/json"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/exports/extrap"
	"github.com/presage-dvm/presage/internal/fixture"
	"github.com/presage-dvm/presage/sim/result"
)

type line struct {
	Params   map[string]float64 `json:"params"`
	Callpath string             `json:"callpath"`
	Metric   string             `json:"metric"`
	Value    float64            `json:"value"`
}

func TestWrite(t *testing.T) {
	sawOverrides := false
	for _, spec := range []fixture.Spec{
		fixture.Small, // every sweep mixes runs with and without overrides
		{Runs: 4, Intervals: 3, Procs: 4, Sweeps: 1, Seed: 3}, // sweep 1 holds the odd runs, all with overrides
	} {
		if testWrite(t, spec) {
			sawOverrides = true
		}
	}
	if !sawOverrides {
		t.Error("no file had tstart among its parameters")
	}
}

// testWrite exports a store built per spec and checks every file; it
// reports whether a file had the tstart parameter.
func testWrite(t *testing.T, spec fixture.Spec) (sawOverrides bool) {
	db, _, built := fixture.NewStore(t, spec)
	ctx := context.Background()
	dir := t.TempDir()
	sum, err := extrap.Write(ctx, db, dir, extrap.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(sum.Files) != 1+len(built.Sweeps) {
		t.Fatalf("%d files, want one per sweep (%d)", len(sum.Files), 1+len(built.Sweeps))
	}
	for _, s := range append([]int64{0}, built.Sweeps...) {
		path := extrap.Path(dir, s, "fixture")
		lines := readLines(t, path)
		want, err := built.IntervalValues(s)
		if err != nil {
			t.Fatal(err)
		}
		var total float64
		keys := paramKeys(lines[0].Params)
		for i, l := range lines {
			total += l.Value
			if k := paramKeys(l.Params); k != keys {
				t.Fatalf("%s:%d: parameters %s, first line has %s", path, i+1, k, keys)
			}
			if _, ok := result.CharByName(l.Metric); !ok {
				t.Errorf("%s:%d: metric %q is not a characteristic", path, i+1, l.Metric)
			}
			if !strings.HasPrefix(l.Callpath, "Main") {
				t.Errorf("%s:%d: callpath %q does not start at Main", path, i+1, l.Callpath)
			}
		}
		if int64(len(lines)) != want.Rows || math.Abs(total-want.Sum) > 1e-9*want.Sum {
			t.Errorf("%s: %d lines, sum %g; store has %d interval values, sum %g", path, len(lines), total, want.Rows, want.Sum)
		}
		wantKeys := expectedKeys(built, s)
		if keys != wantKeys {
			t.Errorf("%s: parameters %s, want %s", path, keys, wantKeys)
		}
		sawOverrides = sawOverrides || strings.Contains(keys, "tstart")
	}
	return sawOverrides
}

// expectedKeys derives the parameters of a sweep's file from the runs as
// built: procs, the grid dimensions when all grids have the same rank, and
// each machine override that every run has.
func expectedKeys(b *fixture.Built, sweep int64) string {
	rank, all := -1, map[string]bool{"tstart": true, "tbyte": true, "power": true}
	for _, r := range b.Runs {
		if r.SweepID != sweep {
			continue
		}
		if rank == -1 {
			rank = len(r.Config.Grid)
		} else if rank != len(r.Config.Grid) {
			rank = 0
		}
		all["tstart"] = all["tstart"] && r.Config.TStart != 0
		all["tbyte"] = all["tbyte"] && r.Config.TByte != 0
		all["power"] = all["power"] && r.Config.Power != 0
	}
	keys := map[string]float64{"procs": 0}
	for d := 1; d <= rank; d++ {
		keys["grid_d"+strconv.Itoa(d)] = 0
	}
	for k, ok := range all {
		if ok {
			keys[k] = 0
		}
	}
	return paramKeys(keys)
}

func paramKeys(p map[string]float64) string {
	var k []string
	for name := range p {
		k = append(k, name)
	}
	sort.Strings(k)
	return strings.Join(k, ",")
}

func readLines(t *testing.T, path string) []line {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []line
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		var l line
		dec := json.NewDecoder(strings.NewReader(sc.Text()))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&l); err != nil {
			t.Fatalf("%s:%d: %v", path, n, err)
		}
		out = append(out, l)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(out) == 0 {
		t.Fatalf("%s: empty", path)
	}
	return out
}
