// Package realityreport writes the DVM reality check's table (`presage
// reality`, compare.Reality): each program, size, grid and interval with
// its measured time over the rounds, the original-compatible prediction
// and the extended one, then the runs within the bound and the verdict of
// the reports held against the original's.
package realityreport

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/presage-dvm/presage/sim/compare"
)

// Bound is the relative error the extended model must hold every run to
// (or the rounds' spread where it is wider: compare.RealityRow.Holds);
// the summary line counts both columns with it.
const Bound = 0.10

// WriteText writes the table and the verdict as aligned text.
func WriteText(w io.Writer, r *compare.Reality) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "program\tsize\tgrid\tinterval\tmeasured s (median)\tspread (min–max)\trounds\tpredicted s\ttraces (min–max)\terror\textended s\terror\t")
	for _, row := range r.Rows {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%.3f\t%.3f–%.3f\t%d\t%.3f\t%.3f–%.3f\t%s\t%s\t%s\t\n",
			row.Program, row.Size, row.Grid, indent(row), row.Median(), row.Min(), row.Max(), len(row.Measured),
			row.Predicted, row.TracesMin(), row.TracesMax(), percent(row.RelPredicted()), seconds(row.Extended), percent(row.RelExtended()))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	p, e, n := r.Within(Bound)
	fmt.Fprintf(w, "\nruns (Main) within %.0f%% of the measured median (or the rounds' spread where wider): original-compatible %d of %d, extended %d of %d\n", Bound*100, p, n, e, n)
	fmt.Fprintf(w, "extended: %s\n", r.Extended)
	for _, l := range r.LeaveOneOut {
		fmt.Fprintf(w, "leave-one-out: %s\n", l)
	}
	for _, note := range r.Notes {
		fmt.Fprintf(w, "note: %s\n", note)
	}
	return writeVerdict(w, r)
}

// writeVerdict says how many of the original's reports Presage's equal,
// and lists every difference of the others.
func writeVerdict(w io.Writer, r *compare.Reality) error {
	total, equal, rounding := map[string]int{}, map[string]int{}, 0
	for _, c := range r.Reports {
		total[c.Kind]++
		if len(c.Diffs) == 0 {
			equal[c.Kind]++
		}
		rounding += c.Rounding
	}
	_, err := fmt.Fprintf(w, "reports equal to the original's: Predictor %d of %d (%d values within rounding), analyzer %d of %d\n",
		equal["predictor"], total["predictor"], rounding, equal["analyzer"], total["analyzer"])
	for _, c := range r.Mismatches() {
		fmt.Fprintf(w, "MISMATCH %s report %s against %s: %d differences\n", c.Kind, c.Original, c.Against, len(c.Diffs))
		for _, d := range c.Diffs[:min(len(c.Diffs), 10)] {
			fmt.Fprintf(w, "  %s\n", d)
		}
	}
	return err
}

// indent shows an interval's place in the tree: two spaces a level below
// the first.
func indent(row compare.RealityRow) string {
	return strings.Repeat("  ", max(row.Depth-1, 0)) + row.Interval
}

func percent(f float64) string {
	if math.IsNaN(f) {
		return "-"
	}
	return fmt.Sprintf("%+.1f%%", f*100)
}

func seconds(f float64) string {
	if math.IsNaN(f) {
		return "-"
	}
	return fmt.Sprintf("%.3f", f)
}

// jsonRow is a row with its derived values, NaN written as null.
type jsonRow struct {
	Trace        string    `json:"trace"`
	Program      string    `json:"program"`
	Size         string    `json:"size"`
	Grid         string    `json:"grid"`
	Interval     string    `json:"interval"`
	Depth        int       `json:"depth"`
	Measured     []float64 `json:"measured"`
	Median       float64   `json:"median"`
	Min          float64   `json:"min"`
	Max          float64   `json:"max"`
	Predicted    float64   `json:"predicted"`
	Predictions  []float64 `json:"predictions"` // of each round's trace
	RelPredicted *float64  `json:"rel_predicted"`
	Extended     *float64  `json:"extended"`
	RelExtended  *float64  `json:"rel_extended"`
}

func finite(f float64) *float64 {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil
	}
	return &f
}

// WriteJSON writes the whole check as one JSON object.
func WriteJSON(w io.Writer, r *compare.Reality) error {
	rows := make([]jsonRow, len(r.Rows))
	for i, row := range r.Rows {
		rows[i] = jsonRow{Trace: row.Trace, Program: row.Program, Size: row.Size, Grid: row.Grid, Interval: row.Interval,
			Depth: row.Depth, Measured: row.Measured, Median: row.Median(), Min: row.Min(), Max: row.Max(),
			Predicted: row.Predicted, Predictions: row.Predictions, RelPredicted: finite(row.RelPredicted()),
			Extended: finite(row.Extended), RelExtended: finite(row.RelExtended())}
	}
	p, e, n := r.Within(Bound)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(struct {
		Rounds             []string              `json:"rounds"`
		Machine            string                `json:"machine"`
		ExtendedMethod     string                `json:"extended_method"`
		Rows               []jsonRow             `json:"rows"`
		Bound              float64               `json:"bound"`
		Runs               int                   `json:"runs"`
		PredictedWithin    int                   `json:"predicted_within"`
		ExtendedWithin     int                   `json:"extended_within"`
		Reports            []compare.ReportCheck `json:"reports"`
		Notes              []string              `json:"notes"`
		LeaveOneOut        []string              `json:"leave_one_out,omitempty"`
		ReportsMismatching int                   `json:"reports_mismatching"`
	}{r.Rounds, r.Machine, r.Extended, rows, Bound, n, p, e, r.Reports, r.Notes, r.LeaveOneOut, len(r.Mismatches())})
}

// WriteCSV writes the table's rows, one line per row, for a spreadsheet.
func WriteCSV(w io.Writer, r *compare.Reality) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"trace", "program", "size", "grid", "interval", "depth", "rounds", "median_s", "min_s", "max_s",
		"predicted_s", "traces_min_s", "traces_max_s", "rel_predicted", "extended_s", "rel_extended"})
	f := func(v float64) string {
		if math.IsNaN(v) {
			return ""
		}
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	for _, row := range r.Rows {
		cw.Write([]string{row.Trace, row.Program, row.Size, row.Grid, row.Interval, strconv.Itoa(row.Depth),
			strconv.Itoa(len(row.Measured)), f(row.Median()), f(row.Min()), f(row.Max()),
			f(row.Predicted), f(row.TracesMin()), f(row.TracesMax()), f(row.RelPredicted()), f(row.Extended), f(row.RelExtended())})
	}
	cw.Flush()
	return cw.Error()
}
