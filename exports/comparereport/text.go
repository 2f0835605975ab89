package comparereport

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/presage-dvm/presage/internal/ordercompare"
	"github.com/presage-dvm/presage/sim/compare"
	"github.com/presage-dvm/presage/sim/result"
)

// WriteText writes r as plain text: the two runs, the execution time of
// every matched interval, one aligned table of characteristics per matched
// interval, the unmatched intervals, for orders runs their orders
// (makespans, procedures, the worst orders, the unmatched ones, a line of
// their own), and a summary line.
func WriteText(w io.Writer, r *Report) error {
	c := r.Comparison
	b := bufio.NewWriter(w)
	fmt.Fprintf(b, "Predicted vs measured: %s\n", c.Predicted.Program)
	writeAligned(b, "  ", [][]string{
		sideLine("measured", c.Measured),
		sideLine("predicted", c.Predicted),
	}, 5)
	for _, msg := range c.Warnings {
		fmt.Fprintf(b, "warning: %s\n", msg)
	}
	if rows := machineRows(c); len(rows) > 0 {
		fmt.Fprintf(b, "\nMachines\n")
		writeAligned(b, "  ", append([][]string{{"", "Measured", "Predicted"}}, rows...), 3)
	}
	if len(c.Matches) > 0 {
		fmt.Fprintf(b, "\nExecution time of the matched intervals\n")
		rows := [][]string{{"Interval", "Matched by", "Measured", "Predicted", "Rel error"}}
		for i := range c.Matches {
			m := &c.Matches[i]
			v, _ := m.Value(result.ExecutionTime)
			label := strings.Repeat("  ", max(m.Predicted.Depth, 0)) + m.Predicted.String()
			rows = append(rows, []string{label, string(m.By), num(v.Measured), num(v.Predicted), pct(v.RelErr)})
		}
		writeAligned(b, "  ", rows, 2)
	}
	for i := range c.Matches {
		writeMatch(b, &c.Matches[i])
	}
	writeRefs(b, "Unmatched measured intervals", c.UnmatchedMeasured)
	writeRefs(b, "Unmatched predicted intervals", c.UnmatchedPredicted)
	if r.Orders != nil {
		writeOrders(b, r.Orders, r.Worst)
	}
	fmt.Fprintf(b, "\n%s\n", summaryLine(c))
	return b.Flush()
}

// writeOrders writes the order-by-order comparison.
func writeOrders(b *bufio.Writer, o *ordercompare.Comparison, worst int) {
	fmt.Fprintf(b, "\nOrders, matched by their place in the tree of orders\n")
	writeAligned(b, "  ", [][]string{orderSide("measured", o.Measured), orderSide("predicted", o.Predicted)}, 5)
	for _, msg := range o.Warnings {
		fmt.Fprintf(b, "warning: %s\n", msg)
	}
	fmt.Fprintf(b, "  makespan error %s s (%s)\n", signed(o.Makespan.AbsErr), pct(o.Makespan.RelErr))
	if len(o.Procs) > 0 {
		fmt.Fprintf(b, "\nPer procedure (duration: end - start, waits included; work: running time of all its orders)\n")
		rows := [][]string{procHeader}
		for _, p := range o.Procs {
			rows = append(rows, procRow(p))
		}
		writeAligned(b, "  ", rows, 1)
	}
	if ws := o.Worst(worst); len(ws) > 0 {
		fmt.Fprintf(b, "\n%s\n", worstTitle(len(ws)))
		rows := [][]string{orderHeader}
		for _, m := range ws {
			rows = append(rows, orderRow(m))
		}
		writeAligned(b, "  ", rows, 0)
	}
	for _, l := range unmatchedSides(o, worst) {
		fmt.Fprintf(b, "\n%s\n", l.title())
		rows := [][]string{unmatchedHeader}
		reasons := make([]string, len(l.shown))
		for i, u := range l.shown {
			rows = append(rows, unmatchedRow(u))
			reasons[i] = u.Reason
		}
		writeBecause(b, rows, 0, reasons)
	}
	fmt.Fprintf(b, "\nOrders: %s\n", ordersSummary(o))
}

func sideLine(what string, s compare.Side) []string {
	run := "run " + fmt.Sprint(s.RunID)
	if s.RunID == 0 {
		run = "unsaved run"
	}
	prog := s.Program
	if s.Machine != "" {
		prog += " on " + s.Machine
	}
	return []string{what, run, prog, "grid " + s.Grid,
		fmt.Sprintf("own report from %s (interval %d)", s.Root, s.Root.ID)}
}

func writeMatch(b *bufio.Writer, m *compare.Match) {
	fmt.Fprintf(b, "\n%s (predicted interval %d, count %d) = %s (measured interval %d, count %d), matched by %s\n",
		m.Predicted, m.Predicted.ID, m.Predicted.Count, m.Measured, m.Measured.ID, m.Measured.Count, m.By)
	rows := [][]string{{"Characteristic", "Measured", "Predicted", "Abs error", "Rel error"}}
	for _, v := range m.Values {
		rows = append(rows, []string{v.Char.String(), num(v.Measured), num(v.Predicted), signed(v.AbsErr), pct(v.RelErr)})
	}
	writeAligned(b, "  ", rows, 1)
}

func writeRefs(b *bufio.Writer, title string, refs []compare.Ref) {
	if len(refs) == 0 {
		return
	}
	fmt.Fprintf(b, "\n%s\n", title)
	rows := [][]string{{"Interval", "ID", "Level", "Count", "Execution time"}}
	reasons := make([]string, len(refs))
	for i, r := range refs {
		rows = append(rows, []string{r.String(), fmt.Sprint(r.ID), fmt.Sprint(r.Level), fmt.Sprint(r.Count), num(r.Exec)})
		reasons[i] = r.Reason
	}
	writeBecause(b, rows, 1, reasons)
}

// writeBecause writes rows aligned as writeAligned does, each row after
// the header followed by why (reasons[i] for row i+1).
func writeBecause(b *bufio.Writer, rows [][]string, left int, reasons []string) {
	var lines strings.Builder
	lb := bufio.NewWriter(&lines)
	writeAligned(lb, "  ", rows, left)
	lb.Flush()
	for i, l := range strings.Split(strings.TrimSuffix(lines.String(), "\n"), "\n") {
		b.WriteString(l + "\n")
		if i > 0 {
			fmt.Fprintf(b, "      because %s\n", reasons[i-1])
		}
	}
}

// summaryLine is the last line of the text output.
func summaryLine(c *compare.Comparison) string {
	s := c.Summary
	line := fmt.Sprintf("Summary: %d matched, %d unmatched measured, %d unmatched predicted intervals; ",
		s.Matched, s.UnmatchedMeasured, s.UnmatchedPredicted)
	if s.MAPECount == 0 {
		return line + "Execution_time MAPE undefined (no matched interval has a measured execution time)"
	}
	return line + fmt.Sprintf("Execution_time MAPE %s over %s", mape(s.MAPE), intervals(s.MAPECount))
}

// writeAligned writes rows as columns separated by two spaces, the first
// left columns left-aligned and the others right-aligned.
func writeAligned(b *bufio.Writer, indent string, rows [][]string, left int) {
	var width []int
	for _, r := range rows {
		for i, cell := range r {
			if i == len(width) {
				width = append(width, 0)
			}
			width[i] = max(width[i], utf8.RuneCountInString(cell))
		}
	}
	for _, r := range rows {
		var line strings.Builder
		line.WriteString(indent)
		for i, cell := range r {
			if i > 0 {
				line.WriteString("  ")
			}
			pad := strings.Repeat(" ", width[i]-utf8.RuneCountInString(cell))
			if i < left {
				line.WriteString(cell)
				if i < len(r)-1 {
					line.WriteString(pad)
				}
			} else {
				line.WriteString(pad + cell)
			}
		}
		b.WriteString(strings.TrimRight(line.String(), " ") + "\n")
	}
}
