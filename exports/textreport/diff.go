package textreport

import (
	"fmt"
	"strings"
)

// AnalyzerLine is the report line (0-based) naming the analyzer's own
// version, which differs naturally between the original's and ours and is
// left out of every comparison.
const AnalyzerLine = 2

// DiffOriginal lists the lines where our report got differs from the
// original analyzer's want, ignoring the analyzer-version line: the one
// comparison of the golden test (TestGoldenReports) and of the DVM reality
// check, so that both hold the same rule. A want that the original left
// unfinished (it crashed while writing) is compared as a prefix.
func DiffOriginal(got, want string) []string {
	g := strings.Split(got, "\n")
	w := strings.Split(want, "\n")
	truncated := !strings.Contains(want, "Name (number) and performance time of processors")
	var out []string
	interval := ""
	for i := 0; i < len(w) || (!truncated && i < len(g)); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if strings.HasPrefix(wl, "INTERVAL") {
			interval = wl
		}
		if i == AnalyzerLine {
			continue
		}
		if truncated && i == len(w)-1 && strings.HasPrefix(gl, wl) {
			continue
		}
		if gl != wl {
			out = append(out, fmt.Sprintf("line %d in %s\n   ours: %q\n   orig: %q", i+1, interval, gl, wl))
		}
	}
	return out
}
