package comparereport

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/internal/comparetest"
	"github.com/presage-dvm/presage/sim/compare"
	"github.com/presage-dvm/presage/sim/result"
)

// iv is an interval of a test run (comparetest.Iv).
var iv = comparetest.Iv

// tables splits text output into its blocks (separated by blank lines).
func blocks(s string) [][]string {
	var out [][]string
	for _, b := range strings.Split(strings.TrimRight(s, "\n"), "\n\n") {
		out = append(out, strings.Split(b, "\n"))
	}
	return out
}

func TestWriteText(t *testing.T) {
	c := comparetest.MustCompare(t, comparetest.JacMeasured(8, 2, 0, 4, 2), comparetest.JacPredicted(10, 1, 1, 3, 2))
	out := string(render(t, c, WriteText))
	bs := blocks(out)
	// Header, machines, overview, 5 interval tables, the predicted Main
	// (start-up included) unmatched, summary.
	if len(bs) != 10 {
		t.Fatalf("%d blocks, want 10:\n%s", len(bs), out)
	}
	for i, blk := range bs[2 : len(bs)-2] {
		// The last column is right-aligned: every row of a table ends in
		// the same column.
		rows := blk[1:]
		for _, r := range rows[1:] {
			if len(r) != len(rows[0]) {
				t.Errorf("block %d: row %q is %d wide, header %d", i+1, r, len(r), len(rows[0]))
			}
		}
	}
	wantLines := []string{
		"  Seq jac.fdv:8       main        8.000000  10.000000     +25.0%",
		"    Seq jac.fdv:22    path        0.000000   1.000000          -",
		"Seq jac.fdv:8 (predicted interval 2, count 1) = Main jac.fdv:8 (measured interval 1, count 1), matched by main",
		"  Execution_time           8.000000  10.000000  +2.000000     +25.0%",
		"  Efficiency              0.000000   0.250000  +0.250000          -",
		"  Main jac.fdv:8   1      0      1       10.000000",
		"      because Main of a trace compiled with -e4: the traced run's start-up before the program-level loop, then that loop, which the other side's Main is compared with",
		"Summary: 5 matched, 0 unmatched measured, 1 unmatched predicted intervals; Execution_time MAPE 25.0% over 4 intervals",
	}
	for _, w := range wantLines {
		if !strings.Contains(out, w+"\n") {
			t.Errorf("no line %q in\n%s", w, out)
		}
	}
	if strings.Contains(out, "NaN") {
		t.Errorf("NaN printed:\n%s", out)
	}
}

func TestWriteTextUnmatchedAndWarnings(t *testing.T) {
	m := comparetest.JacMeasured(0, 0, 0, 0, 0)
	m.Config.Grid = []int{4}
	p := comparetest.JacPredicted(1, 1, 1, 1, 1)
	p.Intervals[2].Line = 11 // Par jac.fdv:10 becomes 11: unmatched on both sides
	c := comparetest.MustForce(t, m, p)
	out := string(render(t, c, WriteText))
	for _, w := range []string{
		"warning: processor grids differ: measured 4, predicted 2x2 (compared anyway)\n",
		"warning: compared with --force: the prediction has no interval level 1 Par jac.fdv:10\n",
		"Unmatched measured intervals\n  Interval        ID  Level  Count  Execution time\n  Par jac.fdv:10   2      1      1        0.000000\n" +
			"      because no predicted interval Par jac.fdv:10 under Main jac.fdv:8\n",
		"  Par jac.fdv:11   3      2      1        1.000000\n      because no measured interval Par jac.fdv:11 under Seq jac.fdv:8\n",
		"Summary: 4 matched, 1 unmatched measured, 2 unmatched predicted intervals; Execution_time MAPE undefined (no matched interval has a measured execution time)\n",
	} {
		if !strings.Contains(out, w) {
			t.Errorf("no %q in\n%s", w, out)
		}
	}
}

// TestForcedWarning checks that every format says when the runs were
// compared with --force.
func TestForcedWarning(t *testing.T) {
	other := comparetest.NewRun(result.Predicted, []int{2, 2}, 1, iv(1, 0, result.Main, "jac1d.cdv", 25, nil, 5))
	other.Program = "jac1d"
	c, err := compare.Compare(comparetest.JacMeasured(5, 1, 4, 2, 2), other, compare.Options{Force: true})
	if err != nil {
		t.Fatal(err)
	}
	for name, w := range map[string]func(io.Writer, *Report) error{"text": WriteText, "json": WriteJSON, "html": WriteHTML} {
		if out := render(t, c, w); !bytes.Contains(out, []byte("compared with --force")) {
			t.Errorf("%s output lacks the --force warning", name)
		}
	}
}
