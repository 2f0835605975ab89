package comparereport

import (
	"bytes"
	_ "embed"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/presage-dvm/presage/exports/internal/htmlstyle"
	"github.com/presage-dvm/presage/internal/ordercompare"
	"github.com/presage-dvm/presage/sim/compare"
	"github.com/presage-dvm/presage/sim/result"
)

var (
	//go:embed compare.tmpl
	pageTmpl string
	//go:embed style.css
	styleCSS string
)

var page = htmlstyle.Page("compare", pageTmpl, styleCSS)

// WriteHTML writes r as one self-contained HTML page (inline CSS, no
// script): the summary, the measured and predicted execution time of every
// matched interval as paired bars, a table of characteristics per matched
// interval, the unmatched intervals and, for orders runs, their orders
// (makespans, procedures with their mean durations as paired bars, the
// worst orders, the unmatched ones). Nothing is written on error.
func WriteHTML(w io.Writer, r *Report) error {
	v := buildView(r.Comparison)
	if r.Orders != nil {
		v.Orders = buildOrders(r.Orders, r.Worst)
	}
	var b bytes.Buffer
	if err := page().Execute(&b, v); err != nil {
		return fmt.Errorf("compare: html: %w", err)
	}
	_, err := w.Write(b.Bytes())
	return err
}

type view struct {
	Title, Heading, Subtitle, Note string
	Facts                          []fact
	Machines                       [][]string // label, measured, predicted
	Warnings                       []string
	Rows                           []row
	Sections                       []section
	Lists                          []refList
	Orders                         *ordersView
}

// ordersView is the order-by-order part of the page.
type ordersView struct {
	Makespan, MakespanTone, Summary string
	Warnings                        []string
	Tables                          []tableView
}

// tableView is a table of the orders part: its first Left columns text,
// the others numbers.
type tableView struct {
	Title string
	Head  []string
	Left  int
	Rows  []tableRow
	Bars  bool // rows end in paired bars
}

type tableRow struct {
	Cells []cell
	// Reason is why the row's order is unmatched; "" for the others.
	Reason           string
	MeasPct, PredPct float64
}

type cell struct{ Text, Class string }

type fact struct{ Label, Value string }

// row is a line of the execution-time overview.
type row struct {
	Anchor, Indent, Type, Where, By string
	Meas, Pred, Rel, Tone           string
	MeasPct, PredPct                float64
}

type section struct {
	Anchor, Type, Where, MeasKey, By string
	PredID, MeasID                   int
	Counts, Rel, Tone                string
	Values                           []valueRow
}

type valueRow struct{ Name, Meas, Pred, Abs, Rel, Tone string }

type refList struct {
	Title string
	Refs  []refRow
}

type refRow struct {
	Type, File, Expr, Exec, Reason string
	Line, ID, Level                int
	Count                          int64
}

func buildView(c *compare.Comparison) view {
	v := view{
		Title:    "Predicted vs measured: " + c.Predicted.Program,
		Heading:  c.Predicted.Program,
		Subtitle: fmt.Sprintf("%s against %s", sideName(c.Predicted), sideName(c.Measured)),
		Facts:    summaryFacts(c),
		Machines: machineRows(c),
		Warnings: c.Warnings,
	}
	if mr, pr := c.Measured.Root, c.Predicted.Root; mr.Key() != pr.Key() {
		v.Note = fmt.Sprintf("The two sides' own reports start at different intervals (the prediction at %s, "+
			"the measurement at %s); the comparison matches Main with Main and every interval by identity.", pr, mr)
	}
	for i := range c.Matches {
		m := &c.Matches[i]
		anchor := "m" + strconv.Itoa(i+1)
		v.Rows = append(v.Rows, overviewRow(m, anchor))
		v.Sections = append(v.Sections, matchSection(m, anchor))
	}
	for _, l := range []struct {
		title string
		refs  []compare.Ref
	}{
		{"Unmatched measured intervals", c.UnmatchedMeasured},
		{"Unmatched predicted intervals", c.UnmatchedPredicted},
	} {
		if len(l.refs) > 0 {
			v.Lists = append(v.Lists, refList{l.title, refRows(l.refs)})
		}
	}
	return v
}

func sideName(s compare.Side) string {
	name := string(s.Kind) + " run"
	if s.RunID != 0 {
		name += " " + strconv.FormatInt(s.RunID, 10)
	}
	return fmt.Sprintf("%s (%s, %s)", name, s.Program, s.Grid)
}

// sideFact is a side without the kind its label already says.
func sideFact(s compare.Side) string {
	run := "unsaved run"
	if s.RunID != 0 {
		run = "run " + strconv.FormatInt(s.RunID, 10)
	}
	return fmt.Sprintf("%s · %s · %s", run, s.Program, s.Grid)
}

func summaryFacts(c *compare.Comparison) []fact {
	s := c.Summary
	m := "undefined"
	if s.MAPECount > 0 {
		m = mape(s.MAPE) + " over " + intervals(s.MAPECount)
	}
	machine := c.Predicted.Machine
	if machine == "" {
		machine = "-"
	}
	return []fact{
		{"Measured", sideFact(c.Measured)},
		{"Predicted", sideFact(c.Predicted)},
		{"Machine", machine},
		{"Matched intervals", strconv.Itoa(s.Matched)},
		{"Unmatched measured", strconv.Itoa(s.UnmatchedMeasured)},
		{"Unmatched predicted", strconv.Itoa(s.UnmatchedPredicted)},
		{"Execution time MAPE", m},
	}
}

func overviewRow(m *compare.Match, anchor string) row {
	v, _ := m.Value(result.ExecutionTime)
	r := row{
		Anchor: anchor, Indent: indent(m.Predicted.Depth), Type: string(m.Predicted.Type),
		Where: where(m.Predicted), By: string(m.By),
		Meas: num(v.Measured), Pred: num(v.Predicted), Rel: pct(v.RelErr), Tone: tone(v.RelErr),
	}
	if top := math.Max(v.Measured, v.Predicted); top > 0 {
		r.MeasPct, r.PredPct = 100*v.Measured/top, 100*v.Predicted/top
	}
	return r
}

// indent is the class that indents an overview row by its depth.
func indent(depth int) string {
	switch {
	case depth <= 0:
		return "d0"
	case depth <= 4:
		return "d" + strconv.Itoa(depth)
	}
	return "deep"
}

func where(r compare.Ref) string {
	k := r.Key()
	s := fmt.Sprintf("%s:%d", k.File, k.Line)
	if k.HasExpr {
		s += " expr " + strconv.FormatInt(k.Expr, 10)
	}
	return s
}

func matchSection(m *compare.Match, anchor string) section {
	v, _ := m.Value(result.ExecutionTime)
	s := section{
		Anchor: anchor, Type: string(m.Predicted.Type), Where: where(m.Predicted), By: string(m.By),
		PredID: m.Predicted.ID, MeasID: m.Measured.ID,
		Counts: fmt.Sprintf("%d predicted · %d measured", m.Predicted.Count, m.Measured.Count),
		Rel:    pct(v.RelErr), Tone: tone(v.RelErr),
	}
	if m.Measured.Key() != m.Predicted.Key() {
		s.MeasKey = m.Measured.String()
	}
	for _, x := range m.Values {
		s.Values = append(s.Values, valueRow{
			Name: x.Char.String(), Meas: num(x.Measured), Pred: num(x.Predicted),
			Abs: signed(x.AbsErr), Rel: pct(x.RelErr), Tone: tone(x.RelErr),
		})
	}
	return s
}

// tone grades a relative error for colouring: within 10 %, within 50 %,
// beyond, or undefined.
func tone(rel float64) string {
	switch a := math.Abs(rel); {
	case math.IsNaN(rel) || math.IsInf(rel, 0):
		return "undef"
	case a <= 0.1:
		return "good"
	case a <= 0.5:
		return "fair"
	}
	return "poor"
}

func refRows(refs []compare.Ref) []refRow {
	out := make([]refRow, len(refs))
	for i, r := range refs {
		expr := "-"
		if r.Expr != nil {
			expr = strconv.FormatInt(*r.Expr, 10)
		}
		out[i] = refRow{
			Type: string(r.Type), File: r.File, Expr: expr, Exec: num(r.Exec), Reason: r.Reason,
			Line: r.Line, ID: r.ID, Level: r.Level, Count: r.Count,
		}
	}
	return out
}

func buildOrders(o *ordercompare.Comparison, worst int) *ordersView {
	v := &ordersView{Makespan: fmt.Sprintf("%s s (%s)", signed(o.Makespan.AbsErr), pct(o.Makespan.RelErr)),
		MakespanTone: tone(o.Makespan.RelErr), Summary: ordersSummary(o), Warnings: o.Warnings}
	sides := tableView{Title: "Runs", Head: []string{"Side", "Run", "Rule", "Nodes", "Orders with rows", "Makespan"}, Left: 3}
	for _, s := range [][]string{orderSide("measured", o.Measured), orderSide("predicted", o.Predicted)} {
		sides.Rows = append(sides.Rows, textRow(s, sides.Left, nil))
	}
	v.Tables = append(v.Tables, sides)
	if len(o.Procs) > 0 {
		t := tableView{Title: "Per procedure", Head: procHeader, Left: 1, Bars: true}
		for _, p := range o.Procs {
			r := textRow(procRow(p), t.Left, map[int]float64{6: p.MeanDuration.RelErr, 9: p.Work.RelErr})
			r.MeasPct, r.PredPct = bars(p.MeanDuration)
			t.Rows = append(t.Rows, r)
		}
		v.Tables = append(v.Tables, t)
	}
	if ws := o.Worst(worst); len(ws) > 0 {
		t := tableView{Title: worstTitle(len(ws)), Head: orderHeader, Left: 3, Bars: true}
		for _, m := range ws {
			r := textRow(orderRow(m), t.Left, map[int]float64{10: m.Duration.RelErr})
			r.MeasPct, r.PredPct = bars(m.Duration)
			t.Rows = append(t.Rows, r)
		}
		v.Tables = append(v.Tables, t)
	}
	for _, l := range unmatchedSides(o, worst) {
		t := tableView{Title: l.title(), Head: unmatchedHeader, Left: 2}
		for _, u := range l.shown {
			r := textRow(unmatchedRow(u), t.Left, nil)
			r.Reason = u.Reason
			t.Rows = append(t.Rows, r)
		}
		v.Tables = append(v.Tables, t)
	}
	return v
}

// textRow makes cells of texts, numbers from column left on; rel gives
// the relative error of the columns that hold one, for their tone.
func textRow(texts []string, left int, rel map[int]float64) tableRow {
	r := tableRow{Cells: make([]cell, len(texts))}
	for i, t := range texts {
		r.Cells[i].Text = t
		if i >= left {
			r.Cells[i].Class = "num"
		}
		if e, ok := rel[i]; ok {
			r.Cells[i].Class += " " + tone(e)
		}
	}
	return r
}

// bars scales a pair to the larger of its two values.
func bars(p ordercompare.Pair) (meas, pred float64) {
	if top := math.Max(p.Measured, p.Predicted); top > 0 {
		return 100 * p.Measured / top, 100 * p.Predicted / top
	}
	return 0, 0
}
