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
			// Six decimals, as the comparison's reports print times.
			times[i] = strconv.FormatFloat(p.Values[result.ExecutionTime], 'f', 6, 64)
		}
		f = append(f, Fact{"Main time per processor (s)", strings.Join(times, " ")})
	}
	return f
}
