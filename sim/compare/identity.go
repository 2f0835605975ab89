package compare

import (
	"fmt"
	"sort"
	"strings"
)

// A prediction and a measurement are comparable when they are of one
// program: the same source files, and the intervals of one side all found
// on the other with the same identity (type, level, line, file and
// expression; the level counted below Main, looking through the
// program-level loop of an -e4 trace). One side may have fewer intervals
// (a trace recorded without intervals has Main only), not different ones.

// NotComparableError says why two runs are not of one program.
type NotComparableError struct {
	Measured, Predicted string // the programs
	Reason              string
}

func (e *NotComparableError) Error() string {
	return fmt.Sprintf("measured %s and predicted %s are not the same program: %s (compare --force compares them anyway)",
		e.Measured, e.Predicted, e.Reason)
}

// comparable returns nil when m and p are of one program, else a
// *NotComparableError.
func comparable(m, p *tree) error {
	fail := func(format string, args ...any) error {
		return &NotComparableError{Measured: m.run.Program, Predicted: p.run.Program, Reason: fmt.Sprintf(format, args...)}
	}
	mf, pf := sourceFiles(m), sourceFiles(p)
	if strings.Join(mf, ",") != strings.Join(pf, ",") {
		return fail("the measured run's source files are %s, the prediction's %s", strings.Join(mf, ", "), strings.Join(pf, ", "))
	}
	if km, kp := key(m.main), key(p.main); km != kp {
		return fail("the measured Main is %s, the predicted Main %s", km, kp)
	}
	mi, pi := m.identities(), p.identities()
	small, large, missing := mi, pi, "the prediction"
	if len(pi) < len(mi) {
		small, large, missing = pi, mi, "the measured run"
	}
	for _, id := range sortedKeys(small) {
		if !large[id] {
			return fail("%s has no interval %s", missing, id)
		}
	}
	return nil
}

// sourceFiles lists the base names of a side's source files, sorted.
func sourceFiles(t *tree) []string {
	set := map[string]bool{}
	for _, iv := range t.run.Intervals {
		set[baseName(iv.File)] = true
	}
	return sortedKeys(set)
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
