package compare

import (
	"strconv"
	"strings"

	"github.com/presage-dvm/presage/sim/result"
)

// runFacts is what a run says of its machine: the processes, the grid,
// the machine file of a prediction and its network, the execution time of
// Main on every processor (for a measurement on an oversubscribed machine
// these differ by far more than the program's imbalance).
func runFacts(r *result.Run) []Fact {
	f := []Fact{{"Processes", strconv.Itoa(r.Config.Procs())}, {"Grid", result.GridString(r.Config.Grid)}}
	if r.Config.Machine != "" {
		f = append(f, Fact{"Machine file", r.Config.Machine})
	}
	if r.Config.Network != "" {
		f = append(f, Fact{"Network model", r.Config.Network})
	}
	if len(r.Intervals) > 0 && len(r.Intervals[0].Procs) > 0 {
		times := make([]string, len(r.Intervals[0].Procs))
		for i, p := range r.Intervals[0].Procs {
			times[i] = num(p.Values[result.ExecutionTime])
		}
		f = append(f, Fact{"Main time per processor (s)", strings.Join(times, " ")})
	}
	return f
}

// machineRows puts the machine facts of the two sides side by side, one
// row per label (label, measured, predicted), labels in order of first
// appearance.
func machineRows(c *Comparison) [][]string {
	var labels []string
	vals := map[string]*[2]string{}
	for side, facts := range [][]Fact{c.Measured.MachineFacts, c.Predicted.MachineFacts} {
		for _, f := range facts {
			v := vals[f.Label]
			if v == nil {
				v = &[2]string{"-", "-"}
				vals[f.Label] = v
				labels = append(labels, f.Label)
			}
			v[side] = f.Value
		}
	}
	rows := make([][]string, len(labels))
	for i, l := range labels {
		rows[i] = []string{l, vals[l][0], vals[l][1]}
	}
	return rows
}
