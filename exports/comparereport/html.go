package comparereport

import (
	"bytes"
	_ "embed"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/presage-dvm/presage/exports/htmlstyle"
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

// WriteHTML writes c as one self-contained HTML page (inline CSS, no
// script): the summary, the measured and predicted execution time of every
// matched interval as paired bars, a table of characteristics per matched
// interval and the unmatched intervals. Nothing is written on error.
func WriteHTML(w io.Writer, c *compare.Comparison) error {
	var b bytes.Buffer
	if err := page.Execute(&b, buildView(c)); err != nil {
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
}

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
