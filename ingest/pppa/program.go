package pppa

import (
	"strconv"
	"strings"
)

// ProgramName is the program a statistics file measured: its stored name
// without the processor grid the run's name ends with ("jac_e4.2x2" →
// "jac_e4", "jac.1" → "jac"), so that measured runs and predictions of a
// program share one program name in SQL, pandas and the Extra-P export.
// The grid stays a column of the run. A suffix whose processor count is
// not procs is part of the name and stays.
func ProgramName(name string, procs int) string {
	dot := strings.LastIndexByte(name, '.')
	if dot <= 0 {
		return name
	}
	if n, ok := gridProcs(name[dot+1:]); ok && n == procs {
		return name[:dot]
	}
	return name
}

// gridProcs is the processor count of a grid written as "2x2" or "4".
func gridProcs(s string) (int, bool) {
	n := 1
	for _, f := range strings.Split(s, "x") {
		d, err := strconv.Atoi(f)
		if err != nil || d < 1 || d > 1<<20 {
			return 0, false
		}
		n *= d
	}
	return n, true
}
