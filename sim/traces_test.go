package sim

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/ingest/golden"
	"github.com/presage-dvm/presage/sim/result"
)

// TestAllTracesPredict runs every shared trace, including those on which
// the original crashes, on several grids: no error, finite numbers.
func TestAllTracesPredict(t *testing.T) {
	files, err := filepath.Glob(golden.Path(t, "traces", "*.ptr*"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no traces: %v", err)
	}
	m := loadMachine(t, "Predictor")
	grids := [][]int{{1}, {4}, {2, 2}, {8, 8}}
	for _, f := range files {
		name := filepath.Base(f)
		if testing.Short() && strings.Contains(name, "x40000") {
			continue
		}
		for _, g := range grids {
			if strings.Contains(name, "x40000") && len(g) == 2 && g[0] == 8 {
				continue // covered by the benchmark; too slow for a unit test
			}
			t.Run(name+"."+result.GridString(g), func(t *testing.T) {
				run, err := predictFile(t, f, m, g)
				if err != nil {
					t.Fatal(err)
				}
				if len(run.Intervals) == 0 || run.Interval(run.ReportRoot) == nil {
					t.Fatalf("no intervals or no report root %d", run.ReportRoot)
				}
				for _, iv := range run.Intervals {
					for c, v := range iv.Values {
						if math.IsNaN(v) || math.IsInf(v, 0) {
							t.Errorf("interval %d: %s = %v", iv.ID, result.Char(c), v)
						}
					}
				}
			})
		}
	}
}
