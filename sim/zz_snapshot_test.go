package sim

// TEMPORARY (removed before hand-off): exact dump of every prediction for
// bit-for-bit regression checks while optimising.

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/ingest/golden"
	"github.com/presage-dvm/presage/sim/result"
)

func TestZZSnapshot(t *testing.T) {
	out := os.Getenv("SNAPSHOT")
	if out == "" {
		t.Skip()
	}
	machines := []string{"Predictor", "Predictor-NCI", "Predictor-flat1024", "Predictor-myri4", "Predictor-slownet", "Predictor-transputer"}
	grids := [][]int{{1}, {2}, {4}, {2, 2}, {4, 4}, {8, 8}, {2, 2, 2}, {16, 16}, {3, 5}}
	files, _ := filepath.Glob(golden.Path(t, "traces", "*.ptr*"))
	var b strings.Builder
	for _, f := range files {
		if strings.Contains(f, "x40000") || strings.Contains(f, "L500") {
			continue
		}
		for _, mn := range machines {
			m := loadMachine(t, mn)
			for _, g := range grids {
				run, err := predictFile(t, f, m, g)
				fmt.Fprintf(&b, "== %s %s %v\n", filepath.Base(f), mn, g)
				if err != nil {
					fmt.Fprintf(&b, "err %v\n", err)
					continue
				}
				dump(&b, run)
			}
		}
	}
	for _, f := range []string{"jac_e4_L500_it4000.ptr.gz"} {
		m := loadMachine(t, "Predictor")
		for _, g := range [][]int{{2, 2}, {8, 8}} {
			run, err := predictFile(t, golden.Path(t, "traces", f), m, g)
			fmt.Fprintf(&b, "== %s %v\n", f, g)
			if err != nil {
				fmt.Fprintf(&b, "err %v\n", err)
				continue
			}
			dump(&b, run)
		}
	}
	os.WriteFile(out, []byte(b.String()), 0o644)
}

func dump(b *strings.Builder, run *result.Run) {
	fmt.Fprintf(b, "root %d warn %v\n", run.ReportRoot, run.Warnings)
	for _, iv := range run.Intervals {
		fmt.Fprintf(b, "iv %d %d %d %s %d %d %s %v %v\n", iv.ID, iv.Parent, iv.Level, iv.Type, iv.Count, iv.Line, iv.File, iv.Expr != nil, iv.Children)
		for c, v := range iv.Values {
			if v != 0 {
				fmt.Fprintf(b, " %d=%x", c, v)
			}
		}
		b.WriteString("\n")
		for _, p := range iv.Procs {
			fmt.Fprintf(b, " p%d", p.Proc)
			for c, v := range p.Values {
				if v != 0 {
					fmt.Fprintf(b, " %d=%x", c, v)
				}
			}
			b.WriteString("\n")
		}
	}
}
