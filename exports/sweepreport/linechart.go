package sweepreport

import (
	"math"
	"slices"
)

// The geometry of a line chart, in SVG user units (pixels at scale 1).
const (
	lineW     = 560.0 // width of the whole chart
	linePadR  = 18.0
	linePadT  = 14.0
	linePlotH = 240.0
	lineAxisH = 46.0 // x tick labels and the x axis label
	legendRow = 19.0
	// The left margin is the y axis label (rotated) plus the widest tick
	// label plus the tick, so that they never overlap.
	yLabelW = 22.0
	yTickW  = 12.0
	// minTickGap is the least vertical distance between y tick labels.
	minTickGap = 16.0
)

// lineChart is a chart of one quantity against the number of processors.
type lineChart struct {
	ID, Title, Desc string
	XLabel, YLabel  string
	X, Y            scale     // domains; their pixels are set by SVG
	XTicks          []float64 // nil: X.Ticks()
	Lines           []line
	Banded          bool // some line has a band wider than its line
	// Ideal, when set, is a reference segment between two data points,
	// drawn dashed and named in the legend.
	Ideal     *[2]mark
	IdealName string
	padL      float64
}

// line is one series: the line through its best configurations, the band
// of all configurations, and markers with tooltips at a few points.
type line struct {
	Name   string
	Color  string
	Marker int
	Pts    []mark // by increasing X
	Band   []band // by increasing X
	Marks  []mark
}

// mark is a data point with its tooltip and the execution time of its
// configuration, which ranks the points that share a pixel column.
type mark struct {
	X, Y float64
	Tip  string
	Time float64
}

// band is the range of a quantity over the configurations at one abscissa.
type band struct{ X, Lo, Hi float64 }

// yTicks returns the y ticks, thinned so that their labels do not overlap
// on the plot's height.
func (c *lineChart) yTicks() []float64 {
	ts := c.Y.Ticks()
	for step := 2; len(ts) > 1 && linePlotH/float64(len(ts)-1) < minTickGap; step++ {
		ts = thinTicks(c.Y.Ticks(), step)
	}
	return ts
}

// thinTicks keeps every step-th tick, starting from the first.
func thinTicks(ts []float64, step int) []float64 {
	var out []float64
	for i := 0; i < len(ts); i += step {
		out = append(out, ts[i])
	}
	return out
}

// layout sets the scales' pixels: the left margin fits the widest y tick
// label.
func (c *lineChart) layout() {
	widest := 0.0
	for _, v := range c.yTicks() {
		widest = max(widest, textWidth(c.yTickLabel(v)))
	}
	c.padL = yLabelW + widest + yTickW
	c.X.P0, c.X.P1 = c.padL, lineW-linePadR
	c.Y.P0, c.Y.P1 = linePadT+linePlotH, linePadT
}

// yTickLabel writes the powers of two below 1 of a log2 axis as fractions
// (1/128 rather than 0.00781).
func (c *lineChart) yTickLabel(v float64) string {
	if c.Y.Base == 2 && v < 1 && v > 0 {
		if inv := 1 / v; inv == math.Trunc(inv) {
			return "1/" + tickLabel(inv)
		}
	}
	return tickLabel(v)
}

// SVG renders the chart.
func (c *lineChart) SVG() string {
	c.layout()
	legend := c.legendItems()
	rows := layoutLegend(legend, lineW-c.padL-linePadR)
	h := linePadT + linePlotH + lineAxisH + float64(rows)*legendRow + 6
	var w svgWriter
	w.printf(`<svg xmlns="http://www.w3.org/2000/svg" class="chart line" id="%s" viewBox="0 0 %s %s" width="%s" height="%s" role="img" aria-labelledby="%s-title %s-desc">`,
		esc(c.ID), px(lineW), px(h), px(lineW), px(h), esc(c.ID), esc(c.ID))
	w.printf(`<title id="%s-title">%s</title><desc id="%s-desc">%s</desc>`, esc(c.ID), esc(c.Title), esc(c.ID), esc(c.Desc))
	x0, x1, yt, yb := c.X.P0, c.X.P1, c.Y.P1, c.Y.P0
	w.printf(`<rect class="plot" x="%s" y="%s" width="%s" height="%s" fill="#fbfcfd"/>`, px(x0), px(yt), px(x1-x0), px(yb-yt))
	c.axes(&w)
	w.printf(`<g class="bands">`)
	for i := range c.Lines {
		c.drawBand(&w, &c.Lines[i])
	}
	w.printf(`</g><g class="series">`)
	if c.Ideal != nil {
		a, b := c.Ideal[0], c.Ideal[1]
		w.printf(`<line class="ideal" x1="%s" y1="%s" x2="%s" y2="%s" stroke="#8a94a3" stroke-width="1.2" stroke-dasharray="5 4"/>`,
			px(c.X.Pos(a.X)), px(c.Y.Pos(a.Y)), px(c.X.Pos(b.X)), px(c.Y.Pos(b.Y)))
	}
	for i := range c.Lines {
		c.drawLine(&w, &c.Lines[i])
	}
	w.printf(`</g>`)
	drawLegend(&w, legend, c.padL, linePadT+linePlotH+lineAxisH, lineW-c.padL-linePadR)
	w.printf(`</svg>`)
	return w.String()
}

// axes draws the gridlines, the ticks with their labels and the axis labels.
func (c *lineChart) axes(w *svgWriter) {
	x0, x1, yt, yb := c.X.P0, c.X.P1, c.Y.P1, c.Y.P0
	xt := c.XTicks
	if xt == nil {
		xt = c.X.Ticks()
	}
	xt = spreadTicks(c.X, xt)
	yt2 := c.yTicks()
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
			px(x0-5), px(y), px(x0), px(y), px(x0-8), px(y), esc(c.yTickLabel(v)))
	}
	my := (yt + yb) / 2
	w.printf(`<text class="label" x="12" y="%s" text-anchor="middle" transform="rotate(-90 12 %s)">%s</text></g>`, px(my), px(my), esc(c.YLabel))
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

// drawBand draws the band of a line as one translucent polygon, one
// column per pixel: a pixel shows the extremes of the counts it holds.
func (c *lineChart) drawBand(w *svgWriter, l *line) {
	cols := bandColumns(l.Band, c.X)
	if len(cols) < 2 || !slices.ContainsFunc(cols, func(b band) bool { return b.Lo < b.Hi }) {
		return // no wider than the line
	}
	w.printf(`<polygon fill="%s" fill-opacity="0.16" stroke="none" points="`, l.Color)
	for _, b := range cols {
		w.printf("%s,%s ", px(c.X.Pos(b.X)), px(c.Y.Pos(b.Hi)))
	}
	for i := len(cols) - 1; i >= 0; i-- {
		w.printf("%s,%s", px(c.X.Pos(cols[i].X)), px(c.Y.Pos(cols[i].Lo)))
		if i > 0 {
			w.WriteString(" ")
		}
	}
	w.printf(`"/>`)
}

// bandColumns merges the band's entries that fall in one pixel column.
func bandColumns(bs []band, x scale) []band {
	var out []band
	lastCol := math.Inf(-1)
	for _, b := range bs {
		col := math.Floor(x.Pos(b.X))
		if n := len(out); n > 0 && col == lastCol {
			out[n-1].Lo, out[n-1].Hi = math.Min(out[n-1].Lo, b.Lo), math.Max(out[n-1].Hi, b.Hi)
			continue
		}
		out, lastCol = append(out, b), col
	}
	return out
}

// linePixels returns the line's points in pixels, one per pixel column:
// where several processor counts share a column, the fastest of them (the
// others are within the band). Without this a line over 1024 counts
// would zigzag between the counts that suit the network and those (the
// primes) that do not, filling the chart with its own colour.
func linePixels(pts []mark, x, y scale) [][2]float64 {
	var out [][2]float64
	var best mark
	col := math.Inf(-1)
	for i, m := range pts {
		c := math.Floor(x.Pos(m.X))
		switch {
		case i == 0 || c != col:
			if i > 0 {
				out = append(out, [2]float64{x.Pos(best.X), y.Pos(best.Y)})
			}
			best, col = m, c
		case m.Time < best.Time:
			best = m
		}
	}
	if len(pts) > 0 {
		out = append(out, [2]float64{x.Pos(best.X), y.Pos(best.Y)})
	}
	return out
}

// drawLine draws one series: its polyline, then its markers on top.
func (c *lineChart) drawLine(w *svgWriter, l *line) {
	w.printf(`<g class="line" data-series="%s">`, esc(l.Name))
	w.printf(`<polyline fill="none" stroke="%s" stroke-width="2" stroke-linejoin="round" points="`, l.Color)
	for i, p := range linePixels(l.Pts, c.X, c.Y) {
		if i > 0 {
			w.WriteString(" ")
		}
		w.printf("%s,%s", px(p[0]), px(p[1]))
	}
	w.printf(`"><title>%s</title></polyline>`, esc(l.Name))
	for _, m := range l.Marks {
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
	Faint  bool // the box is translucent, like a band
	x, y   float64
}

func (c *lineChart) legendItems() []legendItem {
	var items []legendItem
	for _, l := range c.Lines {
		items = append(items, legendItem{Name: l.Name, Color: l.Color, Marker: l.Marker})
	}
	if c.Ideal != nil {
		items = append(items, legendItem{Name: c.IdealName, Color: "#8a94a3", Dash: "5 4", Marker: -1})
	}
	if c.Banded {
		items = append(items, legendItem{Name: "band: every configuration", Color: "#8a94a3", Box: true, Faint: true})
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
			opacity := ""
			if it.Faint {
				opacity = ` fill-opacity="0.3"`
			}
			w.printf(`<rect x="%s" y="%s" width="22" height="10" fill="%s"%s/>`, px(x), px(y-5), it.Color, opacity)
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

// seriesStyle returns the colour and marker of series i: each of the
// maxSeries series has its own of both, so that none relies on colour.
func seriesStyle(i int) (color string, marker int) {
	return palette[i%len(palette)], i % numMarks
}

// palette is the Okabe–Ito colour-blind-safe palette, ordered so that the
// first colours are the most distinct; its yellow, pale on white, comes
// last and black is a dark grey beside the axes.
var palette = []string{"#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#3a3a3a", "#c9b800"}
