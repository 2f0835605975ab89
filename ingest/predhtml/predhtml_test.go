package predhtml

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/internal/golden"
	"github.com/presage-dvm/presage/sim/result"
)

// TestGoldenReports reads every original report and checks it against the
// same report as numbers (predictor-json): the intervals from the report
// root, their identity and every characteristic.
func TestGoldenReports(t *testing.T) {
	files, _ := filepath.Glob(golden.Path(t, "predictor", "*.html"))
	if len(files) == 0 {
		t.Fatal("no original reports in ../shared/data/predictor")
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".html")
		t.Run(name, func(t *testing.T) {
			in, err := os.Open(f)
			if err != nil {
				t.Fatal(err)
			}
			defer in.Close()
			run, err := Read(in, f)
			if err != nil {
				t.Fatal(err)
			}
			sameAsJSON(t, run, golden.Path(t, "predictor-json", name+".json"))
		})
	}
}

func sameAsJSON(t *testing.T, run *result.Run, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Intervals []struct {
			Type  string
			Line  int
			Count int64
			Chars map[string]float64 `json:"characteristics"`
		}
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	ivs := run.Subtree(run.ReportRoot)
	// The grid is not compared: the original prints 1 in its reports of
	// task-parallel programs (tsk_ra) whatever the grid.
	if len(ivs) != len(rep.Intervals) {
		t.Fatalf("%d intervals, want %d", len(ivs), len(rep.Intervals))
	}
	for i, want := range rep.Intervals {
		iv := ivs[i]
		if string(iv.Type) != want.Type || iv.Line != want.Line || iv.Count != want.Count {
			t.Errorf("interval %d: %s line %d count %d, want %s line %d count %d", i, iv.Type, iv.Line, iv.Count, want.Type, want.Line, want.Count)
		}
		for k, v := range want.Chars {
			c, ok := result.CharByName(k)
			if !ok {
				t.Fatalf("unknown characteristic %s", k)
			}
			if math.Abs(iv.Values[c]-v) > 1e-9 {
				t.Errorf("interval %d %s: %v, want %v", i, k, iv.Values[c], v)
			}
		}
	}
}
