package reality

import (
	"fmt"
	"io"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
)

// DefaultWorkers returns 1, 2 and every power of two up to the machine's
// cores: the worker counts a check covers unless told otherwise.
func DefaultWorkers() []int {
	ws := []int{1}
	for w := 2; w <= runtime.NumCPU(); w *= 2 {
		ws = append(ws, w)
	}
	return ws
}

// WriteTable writes figs as one table: a row per program, size and
// placement, a column per number of workers, each cell the prediction's
// error against the best measured run.
func WriteTable(w io.Writer, figs []Figure) error {
	type rowKey struct {
		program string
		size    int
		pl      Placement
	}
	var rows []rowKey
	var workers []int
	cell := map[rowKey]map[int]Figure{}
	for _, f := range figs {
		k := rowKey{f.Program, f.Size, f.Placement}
		if cell[k] == nil {
			cell[k] = map[int]Figure{}
			rows = append(rows, k)
		}
		cell[k][f.Workers] = f
		if !slices.Contains(workers, f.Workers) {
			workers = append(workers, f.Workers)
		}
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "program\tn\tplacement\t")
	for _, n := range workers {
		fmt.Fprintf(tw, "%d workers\t", n)
	}
	fmt.Fprintln(tw)
	for _, k := range rows {
		fmt.Fprintf(tw, "%s\t%d\t%s\t", k.program, k.size, k.pl)
		for _, n := range workers {
			if f, ok := cell[k][n]; ok {
				fmt.Fprintf(tw, "%+.1f%% (%.1f ms)\t", 100*f.Error(), 1e3*f.Measured)
			} else {
				fmt.Fprint(tw, "–\t")
			}
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
}

// ParseCounts reads a comma-separated list of positive numbers, such as
// worker counts.
func ParseCounts(list string) ([]int, error) {
	var out []int
	for _, s := range strings.Split(list, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n <= 0 {
			return nil, fmt.Errorf("%q (expected positive numbers separated by commas)", s)
		}
		out = append(out, n)
	}
	return out, nil
}
