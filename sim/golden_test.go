package sim

import (
	"encoding/json"
	"fmt"
	"github.com/presage-dvm/presage/ingest/machinefile"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/presage-dvm/presage/ingest/ptr"
	"github.com/presage-dvm/presage/internal/golden"
	"github.com/presage-dvm/presage/sim/machine"
	"github.com/presage-dvm/presage/sim/result"
)

// report is one of the original's HTML reports as numbers.
type report struct {
	Trace     string `json:"trace"`
	Machine   string `json:"machine"`
	Grid      string `json:"grid"`
	Intervals []struct {
		Type  string             `json:"type"`
		Level int                `json:"level"`
		Count int64              `json:"count"`
		Line  int                `json:"line"`
		Expr  *int64             `json:"expr"`
		File  string             `json:"file"`
		Chars map[string]float64 `json:"characteristics"`
	} `json:"intervals"`
}

// traceFile finds the trace of a report (plain or gzip).
func traceFile(t *testing.T, name string) string {
	for _, f := range []string{name + ".ptr", name + ".ptr.gz"} {
		p := golden.Path(t, "traces", f)
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	t.Fatalf("no trace for %s", name)
	return ""
}

func loadMachine(t testing.TB, name string) *machine.Machine {
	p := golden.Path(t, "machines", name+".par")
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := machinefile.Parse(f, filepath.Base(p))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// predictFile runs Predict straight from a trace file.
func predictFile(t testing.TB, trace string, m *machine.Machine, grid []int) (*result.Run, error) {
	r, err := ptr.OpenFile(trace)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return Predict(r.Header(), r, m, result.Config{Grid: grid}, Options{TraceFile: filepath.Base(trace)})
}

// TestGoldenPredictor compares every characteristic of every report of the
// original with ours at 4 decimals.
func TestGoldenPredictor(t *testing.T) {
	dir := golden.Path(t, "predictor-json")
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no reports in %s: %v", dir, err)
	}
	if only := os.Getenv("GOLDEN"); only != "" {
		var keep []string
		for _, f := range files {
			if strings.Contains(filepath.Base(f), only) {
				keep = append(keep, f)
			}
		}
		files = keep
	}
	var rounding, failed atomic.Int64
	t.Cleanup(func() {
		t.Logf("golden: %d files, %d failed, %d values accepted by rounding", len(files), failed.Load(), rounding.Load())
	})
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			n := compareReport(t, f)
			rounding.Add(int64(n))
			if t.Failed() {
				failed.Add(1)
			}
		})
	}
}

func compareReport(t *testing.T, file string) (roundingCases int) {
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var rep report
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	grid, err := result.ParseGrid(rep.Grid)
	if err != nil {
		t.Fatal(err)
	}
	run, err := predictFile(t, traceFile(t, rep.Trace), loadMachine(t, rep.Machine), grid)
	if err != nil {
		t.Fatal(err)
	}
	ivs := run.Subtree(run.ReportRoot)
	if len(ivs) != len(rep.Intervals) {
		t.Errorf("%d intervals from the report root, original has %d", len(ivs), len(rep.Intervals))
	}
	var bad []string
	for i := 0; i < len(ivs) && i < len(rep.Intervals); i++ {
		ours, want := ivs[i], rep.Intervals[i]
		id := fmt.Sprintf("interval %d (%s line %d)", i, want.Type, want.Line)
		if string(ours.Type) != want.Type || ours.Level != want.Level || ours.Line != want.Line ||
			ours.File != want.File || !sameExpr(ours.Expr, want.Expr) || ours.Count != want.Count {
			t.Errorf("%s: identity differs: ours %s level %d line %d file %s count %d",
				id, ours.Type, ours.Level, ours.Line, ours.File, ours.Count)
			continue
		}
		names := make([]string, 0, len(want.Chars))
		for k := range want.Chars {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			c, ok := result.CharByName(k)
			if !ok {
				t.Errorf("unknown characteristic %s", k)
				continue
			}
			got, orig := ours.Values[c], want.Chars[k]
			r := math.Round(got*1e4) / 1e4
			if math.Abs(r-orig) < 1e-9 {
				continue
			}
			if math.Abs(got-orig) <= 0.6e-4 {
				roundingCases++
				t.Logf("rounding: %s %s: ours %.6f, original %.4f", id, k, got, orig)
				continue
			}
			bad = append(bad, fmt.Sprintf("%s %s: ours %.6f original %.4f", id, k, got, orig))
		}
	}
	if len(bad) > 0 {
		t.Errorf("%s %s %s: %d mismatches:\n  %s", rep.Trace, rep.Machine, rep.Grid, len(bad), strings.Join(bad, "\n  "))
	}
	return roundingCases
}

func sameExpr(a, b *int64) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}
