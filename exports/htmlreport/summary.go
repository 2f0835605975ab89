package htmlreport

import (
	"fmt"
	"strings"

	"github.com/presage-dvm/presage/sim/result"
)

// The run summary and the interval tree at the top of the report.

// kindName says what the numbers of a run are, capitalised or not.
func kindName(k result.Kind, capital bool) string {
	what := "predicted"
	if k == result.Measured {
		what = "measured"
	}
	if capital {
		what = strings.ToUpper(what[:1]) + what[1:]
	}
	return what + " performance"
}

func subtitle(run *result.Run) string {
	c := run.Config
	parts := []string{kindName(run.Kind, true)}
	if c.Machine != "" {
		parts = append(parts, "machine "+c.Machine)
	}
	parts = append(parts, fmt.Sprintf("%s = %d processors", result.GridString(c.Grid), c.Procs()))
	if run.ID != 0 {
		parts = append(parts, fmt.Sprintf("run %d", run.ID))
	}
	return strings.Join(parts, " · ")
}

func facts(run *result.Run) []fact {
	c := run.Config
	fs := []fact{
		{"Program", run.Program},
		{"Kind", string(run.Kind)},
		{"Processors", fmt.Sprintf("%s (%d)", result.GridString(c.Grid), c.Procs())},
	}
	if run.Kind == result.Predicted {
		fs = append(fs,
			fact{"Machine", c.Machine},
			fact{"Network", c.Network},
			fact{"Start-up time", seconds(c.TStart)},
			fact{"Time per byte", seconds(c.TByte)},
			fact{"Processor power", power(c.Power)})
	}
	opts := "none"
	if len(c.Options) > 0 {
		opts = strings.Join(c.Options, ", ")
	}
	return append(fs, fact{"Deviations from the original", opts})
}

func note(run *result.Run, root *result.Interval) string {
	if root.Parent == 0 {
		return ""
	}
	return fmt.Sprintf("The report starts at interval %d (%s, line %d), the interval current at the end of the trace, "+
		"as the original Predictor's does; Main and its other intervals are left out. Main's execution time, which predict, "+
		"list runs, the sweeps and the exports give, is %s s (presage report html --all starts the report there).",
		root.ID, root.Type, root.Line, num(run.Intervals[0].Values[result.ExecutionTime]))
}

func tree(run *result.Run, iv *result.Interval) *node {
	v := &iv.Values
	n := &node{
		ID: iv.ID, Type: string(iv.Type), Line: iv.Line,
		Exec: num(v[result.ExecutionTime]), Effic: num(v[result.Efficiency]),
		LostPct: share(v[result.LostTime], v[result.TotalTime]),
	}
	for _, c := range iv.Children {
		n.Children = append(n.Children, tree(run, run.Interval(c)))
	}
	return n
}
