package sweepreport

import "fmt"

// The geometry of a line chart, in SVG user units (pixels at scale 1).
const (
	lineW     = 560.0 // width of the whole chart
	linePadL  = 64.0  // room for the y tick labels and the y axis label
	linePadR  = 18.0
	linePadT  = 14.0
	linePlotH = 240.0
	lineAxisH = 46.0 // x tick labels and the x axis label
	legendRow = 19.0
)

// plotBox returns the pixel ranges of a line chart's plot area.
func plotBox() (x0, x1, yTop, yBottom float64) {
	return linePadL, lineW - linePadR, linePadT, linePadT + linePlotH
}

// lineChart is a chart of one quantity against the number of processors.
type lineChart struct {
	ID, Title, Desc string
	XLabel, YLabel  string
	X, Y            scale     // already mapped onto plotBox
	XTicks          []float64 // nil: X.Ticks()
	Lines           []line
	// Ideal, when set, is a reference segment between two data points,
	// drawn dashed and named in the legend.
	Ideal     *[2]mark
	IdealName string
}

// line is one series: the points of the line and hollow markers for the
// other configurations at the same abscissas.
type line struct {
	Name   string
	Color  string
	Dash   string // stroke-dasharray, "" for solid
	Marker int
	Pts    []mark
	Alts   []mark
}

// mark is a data point with its tooltip.
type mark struct {
	X, Y float64
	Tip  string
}

// SVG renders the chart.
func (c *lineChart) SVG() string {
	legend := c.legendItems()
	rows := layoutLegend(legend, lineW-linePadL-linePadR)
	h := linePadT + linePlotH + lineAxisH + float64(rows)*legendRow + 6
	var w svgWriter
	w.printf(`<svg xmlns="http://www.w3.org/2000/svg" class="chart line" id="%s" viewBox="0 0 %s %s" width="%s" height="%s" role="img" aria-labelledby="%s-title %s-desc">`,
		esc(c.ID), px(lineW), px(h), px(lineW), px(h), esc(c.ID), esc(c.ID))
	w.printf(`<title id="%s-title">%s</title><desc id="%s-desc">%s</desc>`, esc(c.ID), esc(c.Title), esc(c.ID), esc(c.Desc))
	x0, x1, yt, yb := plotBox()
	w.printf(`<rect class="plot" x="%s" y="%s" width="%s" height="%s" fill="#fbfcfd"/>`, px(x0), px(yt), px(x1-x0), px(yb-yt))
	c.axes(&w)
	w.printf(`<g class="series">`)
	if c.Ideal != nil {
		a, b := c.Ideal[0], c.Ideal[1]
		w.printf(`<line class="ideal" x1="%s" y1="%s" x2="%s" y2="%s" stroke="#8a94a3" stroke-width="1.2" stroke-dasharray="5 4"/>`,
			px(c.X.Pos(a.X)), px(c.Y.Pos(a.Y)), px(c.X.Pos(b.X)), px(c.Y.Pos(b.Y)))
	}
	for i := range c.Lines {
		c.drawLine(&w, &c.Lines[i])
	}
	w.printf(`</g>`)
	drawLegend(&w, legend, linePadL, linePadT+linePlotH+lineAxisH, lineW-linePadL-linePadR)
	w.printf(`</svg>`)
	return w.String()
}

// axes draws the gridlines, the ticks with their labels and the axis labels.
func (c *lineChart) axes(w *svgWriter) {
	x0, x1, yt, yb := plotBox()
	xt := c.XTicks
	if xt == nil {
		xt = c.X.Ticks()
	}
	xt = spreadTicks(c.X, xt)
	yt2 := c.Y.Ticks()
	w.printf(`<g class="grid" stroke="#e3e7ec" stroke-width="1">`)
	for _, v := range xt {
		x := px(c.X.Pos(v))
		w.printf(`<line x1="%s" y1="%s" x2="%s" y2="%s"/>`, x, px(yt), x, px(yb))
	}
	for _, v := range yt2 {
		y := px(c.Y.Pos(v))
		w.printf(`<line x1="%s" y1="%s" x2="%s" y2="%s"/>`, px(x0), y, px(x1), y)
	}
	w.printf(`</g>`)
	w.printf(`<g class="axis x"><line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#5b6675"/>`, px(x0), px(yb), px(x1), px(yb))
	for _, v := range xt {
		x := c.X.Pos(v)
		w.printf(`<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#5b6675"/><text x="%s" y="%s" text-anchor="middle">%s</text>`,
			px(x), px(yb), px(x), px(yb+5), px(x), px(yb+18), esc(tickLabel(v)))
	}
	w.printf(`<text class="label" x="%s" y="%s" text-anchor="middle">%s</text></g>`, px((x0+x1)/2), px(yb+38), esc(c.XLabel))
	w.printf(`<g class="axis y"><line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#5b6675"/>`, px(x0), px(yt), px(x0), px(yb))
	for _, v := range yt2 {
		y := c.Y.Pos(v)
		w.printf(`<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#5b6675"/><text x="%s" y="%s" text-anchor="end" dy="0.32em">%s</text>`,
			px(x0-5), px(y), px(x0), px(y), px(x0-8), px(y), esc(tickLabel(v)))
	}
	my := (yt + yb) / 2
	w.printf(`<text class="label" x="14" y="%s" text-anchor="middle" transform="rotate(-90 14 %s)">%s</text></g>`, px(my), px(my), esc(c.YLabel))
}

// spreadTicks drops ticks whose labels would overlap the previous one's.
func spreadTicks(s scale, ts []float64) []float64 {
	var out []float64
	last := 0.0
	for _, v := range ts {
		x := s.Pos(v)
		if len(out) > 0 {
			room := (textWidth(tickLabel(v)) + textWidth(tickLabel(out[len(out)-1]))) / 2
			if x-last < room+4 {
				continue
			}
		}
		out = append(out, v)
		last = x
	}
	return out
}

// drawLine draws one series: its polyline, then the hollow markers of the
// other grids, then the markers of the line's points on top.
func (c *lineChart) drawLine(w *svgWriter, l *line) {
	w.printf(`<g class="line" data-series="%s">`, esc(l.Name))
	w.printf(`<polyline fill="none" stroke="%s" stroke-width="2.5" stroke-linejoin="round"`, l.Color)
	if l.Dash != "" {
		w.printf(` stroke-dasharray="%s"`, l.Dash)
	}
	w.printf(` points="`)
	for i, m := range l.Pts {
		if i > 0 {
			w.WriteString(" ")
		}
		w.printf("%s,%s", px(c.X.Pos(m.X)), px(c.Y.Pos(m.Y)))
	}
	w.printf(`"><title>%s</title></polyline>`, esc(l.Name))
	for _, m := range l.Alts {
		w.elem("circle", fmt.Sprintf(`class="alt" cx="%s" cy="%s" r="2.8" fill="#ffffff" stroke="%s" stroke-width="1.3"`,
			px(c.X.Pos(m.X)), px(c.Y.Pos(m.Y)), l.Color), m.Tip)
	}
	for _, m := range l.Pts {
		w.marker(l.Marker, c.X.Pos(m.X), c.Y.Pos(m.Y), l.Color, m.Tip)
	}
	w.printf(`</g>`)
}

// legendItem is one entry of a legend: a swatch and a name.
type legendItem struct {
	Name   string
	Color  string
	Dash   string
	Marker int  // -1: none
	Box    bool // a filled box (bars) instead of a line
	x, y   float64
}

func (c *lineChart) legendItems() []legendItem {
	var items []legendItem
	for _, l := range c.Lines {
		items = append(items, legendItem{Name: l.Name, Color: l.Color, Dash: l.Dash, Marker: l.Marker})
	}
	if c.Ideal != nil {
		items = append(items, legendItem{Name: c.IdealName, Color: "#8a94a3", Dash: "5 4", Marker: -1})
	}
	return items
}

// legendSwatch is the width of a legend item's swatch and its gap to the
// text; legendGap separates items on a row.
const (
	legendSwatch = 30.0
	legendGap    = 18.0
)

// layoutLegend places the items left to right in rows of the given width
// (relative to the legend's origin) and returns the number of rows.
func layoutLegend(items []legendItem, width float64) int {
	if len(items) == 0 {
		return 0
	}
	x, row := 0.0, 0
	for i := range items {
		w := legendSwatch + textWidth(items[i].Name)
		if x > 0 && x+w > width {
			x, row = 0, row+1
		}
		items[i].x, items[i].y = x, float64(row)*legendRow
		x += w + legendGap
	}
	return row + 1
}

// drawLegend draws laid-out items with their origin at (x0, y0).
func drawLegend(w *svgWriter, items []legendItem, x0, y0, width float64) {
	w.printf(`<g class="legend">`)
	for _, it := range items {
		x, y := x0+it.x, y0+it.y+legendRow/2
		name := truncate(it.Name, int((width-legendSwatch)/charWidth))
		w.printf(`<g class="item">`)
		if it.Box {
			w.printf(`<rect x="%s" y="%s" width="22" height="10" fill="%s"/>`, px(x), px(y-5), it.Color)
		} else {
			w.printf(`<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="2.5"`, px(x), px(y), px(x+22), px(y), it.Color)
			if it.Dash != "" {
				w.printf(` stroke-dasharray="%s"`, it.Dash)
			}
			w.printf(`/>`)
			if it.Marker >= 0 {
				w.marker(it.Marker, x+11, y, it.Color, "")
			}
		}
		w.printf(`<text x="%s" y="%s" dy="0.32em">%s</text></g>`, px(x+legendSwatch), px(y), esc(name))
	}
	w.printf(`</g>`)
}

// seriesStyle returns the colour, dash pattern and marker of series i:
// colours first, then dash patterns and markers, so that many series stay
// distinguishable.
func seriesStyle(i int) (color, dash string, marker int) {
	dashes := []string{"", "7 4", "2 3"}
	return palette[i%len(palette)], dashes[(i/len(palette))%len(dashes)], i % numMarks
}

// palette is the Okabe–Ito colour-blind-safe palette without its yellow
// (too pale on white) and black (taken by the axes), plus a wine red.
var palette = []string{"#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#882255"}
