package extrap_test

import (
	"bufio"
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
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

// TestWriteFixture exports a synthetic store and checks that the files of
// each sweep hold every interval value once, with one set of parameter
// names per file and metrics that are characteristics.
func TestWriteFixture(t *testing.T) {
	for _, spec := range []fixture.Spec{
		fixture.Small, // every sweep mixes runs with and without overrides
		{Runs: 4, Intervals: 3, Procs: 4, Sweeps: 1, Seed: 3}, // sweep 1 holds the odd runs, all with overrides
	} {
		db, _, built := fixture.NewStore(t, spec)
		dir := t.TempDir()
		sum, err := extrap.Write(context.Background(), db, dir, extrap.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range append([]int64{0}, built.Sweeps...) {
			want, err := built.IntervalValues(s)
			if err != nil {
				t.Fatal(err)
			}
			files, _ := filepath.Glob(filepath.Join(dir, "sweep_id="+itoa(s), "*.jsonl"))
			var n int64
			var total float64
			for _, path := range files {
				lines := readLines(t, path)
				keys := paramKeys(lines[0].Params)
				for i, l := range lines {
					n, total = n+1, total+l.Value
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
			}
			if n != want.Rows || math.Abs(total-want.Sum) > 1e-9*want.Sum {
				t.Errorf("sweep %d: %d lines in %d files, sum %g; store has %d interval values, sum %g", s, n, len(files), total, want.Rows, want.Sum)
			}
		}
		if len(sum.Files) < 1+len(built.Sweeps) {
			t.Errorf("%d files, want at least one per sweep (%d)", len(sum.Files), 1+len(built.Sweeps))
		}
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

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
