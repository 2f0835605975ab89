package sweepreport

import (
	"fmt"
	"math"
)

// The geometry of the breakdown chart: one row per interval, labels on the
// left, a legend on top and the time axis at the bottom. It is as wide as
// the line charts and grows downwards with the intervals.
const (
	barW       = lineW
	barLabelW  = 190.0
	barPadR    = 24.0
	barRowH    = 34.0
	barIndent  = 10.0 // per level of the interval tree
	barIndents = 6    // levels indented at most, so that deep labels keep room
)

// barColors are the colours of barChars: the three parts of lost time,
// then load imbalance and synchronization.
var barColors = []string{"#7b5ea7", "#c8553d", "#e0a030", "#2f7f9e", "#6b8e23"}

// barChart is the lost-time breakdown of one configuration.
type barChart struct {
	ID, Title, Desc string
	Names           []string // of barChars
	Rows            []barRow
	X               scale // mapped onto the plot's width
}

// barRow is one interval: its stacked lost-time parts and its potential
// losses.
type barRow struct {
	Label  string // short, drawn
	Tip    string // full, in the tooltip
	Indent int    // tree depth below the first row
	Values []float64
}

// barPlot returns the horizontal pixel range of the bars.
func barPlot() (x0, x1 float64) { return barLabelW, barW - barPadR }

// barScale returns the time scale for rows: from zero to the largest of a
// row's lost time (the stack) and its potential losses.
func barScale(rows []barRow) scale {
	max := 0.0
	for _, r := range rows {
		stack := 0.0
		for i, v := range r.Values {
			v = math.Max(v, 0)
			if i < nStacked {
				stack += v
			} else {
				max = math.Max(max, v)
			}
		}
		max = math.Max(max, stack)
	}
	x0, x1 := barPlot()
	return scale{Lo: 0, Hi: niceCeil(max), P0: x0, P1: x1}
}

// SVG renders the chart.
func (c *barChart) SVG() string {
	x0, x1 := barPlot()
	var legend svgWriter
	yt := c.legend(&legend) + 12
	plotH := barRowH * float64(len(c.Rows))
	yb := yt + plotH
	h := yb + lineAxisH // the same axis room as the line charts
	var w svgWriter
	w.printf(`<svg xmlns="http://www.w3.org/2000/svg" class="chart bars" id="%s" viewBox="0 0 %s %s" width="%s" height="%s" role="img" aria-labelledby="%s-title %s-desc">`,
		esc(c.ID), px(barW), px(h), px(barW), px(h), esc(c.ID), esc(c.ID))
	w.printf(`<title id="%s-title">%s</title><desc id="%s-desc">%s</desc>`, esc(c.ID), esc(c.Title), esc(c.ID), esc(c.Desc))
	w.WriteString(legend.String())
	w.printf(`<rect class="plot" x="%s" y="%s" width="%s" height="%s" fill="#fbfcfd"/>`, px(x0), px(yt), px(x1-x0), px(plotH))
	ticks := spreadTicks(c.X, c.X.Ticks())
	w.printf(`<g class="grid" stroke="#e3e7ec" stroke-width="1">`)
	for _, v := range ticks {
		x := px(c.X.Pos(v))
		w.printf(`<line x1="%s" y1="%s" x2="%s" y2="%s"/>`, x, px(yt), x, px(yb))
	}
	w.printf(`</g>`)
	for i, r := range c.Rows {
		c.row(&w, r, yt+barRowH*float64(i))
	}
	w.printf(`<g class="axis x"><line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#5b6675"/>`, px(x0), px(yb), px(x1), px(yb))
	for _, v := range ticks {
		x := c.X.Pos(v)
		w.printf(`<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#5b6675"/><text x="%s" y="%s" text-anchor="middle">%s</text>`,
			px(x), px(yb), px(x), px(yb+5), px(x), px(yb+18), esc(tickLabel(v)))
	}
	w.printf(`<text class="label" x="%s" y="%s" text-anchor="middle">processor time, s</text></g>`, px((x0+x1)/2), px(yb+38))
	w.printf(`</svg>`)
	return w.String()
}

// legend draws the two groups of the legend, each a title followed by its
// items: the stacked parts of lost time, and the potential losses drawn
// apart. It returns the legend's height.
func (c *barChart) legend(w *svgWriter) float64 {
	groups := []struct {
		title    string
		from, to int
	}{{"Lost time, stacked:", 0, nStacked}, {"Not part of lost time:", nStacked, len(c.Names)}}
	y := 0.0
	for _, grp := range groups {
		w.printf(`<text class="label" x="8" y="%s" dy="0.32em">%s</text>`, px(y+legendRow/2), esc(grp.title))
		var items []legendItem
		for i := grp.from; i < grp.to; i++ {
			items = append(items, legendItem{Name: c.Names[i], Color: barColors[i], Box: true})
		}
		x := 8 + textWidth(grp.title) + 10
		rows := layoutLegend(items, barW-barPadR-x)
		drawLegend(w, items, x, y, barW-barPadR-x)
		y += float64(rows) * legendRow
	}
	return y
}

// row draws one interval at vertical offset y: its label, the stack of
// lost-time parts and, below it, one thin bar per potential loss.
func (c *barChart) row(w *svgWriter, r barRow, y float64) {
	w.printf(`<g class="row">`)
	lx := 8 + barIndent*float64(min(r.Indent, barIndents))
	maxChars := int((barLabelW - 16 - lx) / charWidth)
	w.printf(`<text x="%s" y="%s" dy="0.32em">%s<title>%s</title></text>`,
		px(lx), px(y+barRowH/2), esc(truncate(r.Label, maxChars)), esc(r.Tip))
	x := c.X.Pos(0)
	for i := 0; i < nStacked; i++ {
		v := math.Max(r.Values[i], 0)
		wd := c.X.Pos(v) - c.X.Pos(0)
		w.elem("rect", fmt.Sprintf(`class="part" x="%s" y="%s" width="%s" height="16" fill="%s"`, px(x), px(y+3), px(wd), barColors[i]),
			fmt.Sprintf("%s — %s: %s s", r.Tip, c.Names[i], short(r.Values[i])))
		x += wd
	}
	for i := nStacked; i < len(r.Values); i++ {
		v := math.Max(r.Values[i], 0)
		yy := y + 21 + 6*float64(i-nStacked)
		w.elem("rect", fmt.Sprintf(`class="potential" x="%s" y="%s" width="%s" height="5" fill="%s"`, px(c.X.Pos(0)), px(yy), px(c.X.Pos(v)-c.X.Pos(0)), barColors[i]),
			fmt.Sprintf("%s — %s: %s s", r.Tip, c.Names[i], short(r.Values[i])))
	}
	w.printf(`</g>`)
}
