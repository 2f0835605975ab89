package chart

import (
	"math"
	"slices"
)

// Chart widths: Narrow charts stand two in a row of a page, Wide ones
// fill it.
const (
	Narrow = 560.0
	Wide   = 960.0
)

// The margins of a line chart besides its axes'.
const (
	linePadR  = 18.0
	linePadT  = 14.0
	linePlotH = 240.0
)

// LineChart is a chart of series against a numeric x axis: lines through
// points, the bands they span, markers with tooltips and reference
// lines, with the legend below.
type LineChart struct {
	Frame
	Width float64 // 0: Narrow
	PlotH float64 // the plot's height; 0: 240
	X, Y  Axis    // the pixels of their scales are set when drawn
	Lines []Line
	Refs  []Ref
	// BandName names the bands in the legend, when some band is wider
	// than its line.
	BandName string
	Extra    []LegendItem // after the lines, references and band
}

// Line is one series.
type Line struct {
	Name   string
	Color  string
	Marker Marker
	// Pts are the line's points by increasing X. Where several share a
	// pixel column the line goes through the one of least Rank (the
	// others lie in the band): a line over a thousand x values draws
	// one point per column.
	Pts  []Point
	Band []Band // by increasing X
	// BandTip is the band's tooltip.
	BandTip string
	// Marks are the points that get a marker and a tooltip.
	Marks []Point
	// Scatter draws the marks alone, without a line.
	Scatter bool
}

// Point is a point of a line or a marker.
type Point struct {
	X, Y  float64
	Tip   string  // a marker's tooltip
	Rank  float64 // of points sharing a pixel column the least is drawn
	Color string  // a marker's colour when not the line's
	Class string  // a marker's classes besides "mark"
}

// Band is the range of a series at one abscissa.
type Band struct{ X, Lo, Hi float64 }

// Ref is a reference segment drawn dashed, such as the ideal speedup or a
// mean, named in the legend when Name is not empty.
type Ref struct {
	X0, Y0, X1, Y1 float64
	Name, Tip      string
}

// IdealSpeedup is the segment of linear speedup, x/base, from x = from
// to x = to, ending where it leaves a y axis that reaches yHi; nil when
// nothing of it is left.
func IdealSpeedup(base, from, to, yHi float64) *Ref {
	end := math.Min(to, yHi*base)
	if !(base > 0) || !(from > 0) || end <= from {
		return nil
	}
	return &Ref{X0: from, Y0: from / base, X1: end, Y1: end / base, Name: "ideal speedup"}
}

// SVG renders the chart.
func (c *LineChart) SVG() string {
	b, height := c.layout()
	var w Writer
	w.open(c.Frame, c.width(), height)
	w.plot(b)
	xt, yt := SpreadTicks(c.X, c.X.ticks()), StackTicks(c.Y.ticks(), b.y1-b.y0)
	w.grid(c.X, xt, c.Y, yt, b)
	w.xAxis(c.X, xt, b)
	w.yAxis(c.Y, yt, b)
	w.Printf(`<g class="bands">`)
	for i := range c.Lines {
		c.drawBand(&w, &c.Lines[i])
	}
	w.Printf(`</g><g class="series">`)
	for _, r := range c.Refs {
		w.Elem("line", `class="ref" x1="`+Px(c.X.Pos(r.X0))+`" y1="`+Px(c.Y.Pos(r.Y0))+`" x2="`+Px(c.X.Pos(r.X1))+`" y2="`+Px(c.Y.Pos(r.Y1))+
			`" stroke="`+Reference+`" stroke-width="1.2" stroke-dasharray="5 4"`, r.Tip)
	}
	for i := range c.Lines {
		c.drawLine(&w, &c.Lines[i])
	}
	w.Printf(`</g>`)
	w.legend(c.legend(), b.x0, b.y1+c.X.axisHeight(), c.width()-b.x0-linePadR)
	w.Printf(`</svg>`)
	return w.String()
}

func (c *LineChart) width() float64 { return orDefault(c.Width, Narrow) }

// orDefault is v when it is set (positive), d otherwise.
func orDefault(v, d float64) float64 {
	if v > 0 {
		return v
	}
	return d
}

// layout sets the scales' pixels and returns the plot area and the
// chart's height: the left margin fits the widest y tick label beside
// the axis title, the bottom the x axis and the legend.
func (c *LineChart) layout() (box, float64) {
	plotH := orDefault(c.PlotH, linePlotH)
	widest := 0.0
	for _, v := range StackTicks(c.Y.ticks(), plotH) {
		widest = max(widest, TextWidth(c.Y.tickLabel(v)))
	}
	b := box{x0: yLabelW + widest + yTickW, y0: linePadT, x1: c.width() - linePadR, y1: linePadT + plotH}
	c.X.P0, c.X.P1 = b.x0, b.x1
	c.Y.P0, c.Y.P1 = b.y1, b.y0
	h := b.y1 + c.X.axisHeight() + legendHeight(c.legend(), b.x1-b.x0) + 6
	return b, h
}

// legend lists the lines, the named references, the band and the extra
// items.
func (c *LineChart) legend() []LegendGroup {
	var items []LegendItem
	for _, l := range c.Lines {
		it := LegendItem{Name: l.Name, Color: l.Color, Marker: l.Marker}
		if l.Scatter {
			it.Swatch, it.Marker = SwatchMark, max(l.Marker, Circle)
		}
		items = append(items, it)
	}
	for _, r := range c.Refs {
		if r.Name != "" {
			items = append(items, LegendItem{Name: r.Name, Color: Reference, Dash: "5 4"})
		}
	}
	if c.BandName != "" && slices.ContainsFunc(c.Lines, func(l Line) bool {
		return slices.ContainsFunc(l.Band, func(b Band) bool { return b.Lo < b.Hi })
	}) {
		items = append(items, LegendItem{Name: c.BandName, Color: Reference, Swatch: SwatchBand})
	}
	return []LegendGroup{{Items: append(items, c.Extra...)}}
}

// drawBand draws the band of a line as one translucent polygon, one
// column per pixel: a pixel shows the extremes of the values it holds.
func (c *LineChart) drawBand(w *Writer, l *Line) {
	cols := bandColumns(l.Band, c.X)
	if len(cols) < 2 || !slices.ContainsFunc(cols, func(b Band) bool { return b.Lo < b.Hi }) {
		return // no wider than the line
	}
	w.Printf(`<polygon fill="%s" fill-opacity="0.16" stroke="none" points="`, l.Color)
	for _, b := range cols {
		w.Printf("%s,%s ", Px(c.X.Pos(b.X)), Px(c.Y.Pos(b.Hi)))
	}
	for i := len(cols) - 1; i >= 0; i-- {
		w.Printf("%s,%s", Px(c.X.Pos(cols[i].X)), Px(c.Y.Pos(cols[i].Lo)))
		if i > 0 {
			w.WriteString(" ")
		}
	}
	if l.BandTip == "" {
		w.Printf(`"/>`)
		return
	}
	w.Printf(`"><title>%s</title></polygon>`, Esc(l.BandTip))
}

// bandColumns merges the band's entries that fall in one pixel column.
func bandColumns(bs []Band, x Axis) []Band {
	var out []Band
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
// where several share a column, the one of least rank. Without this a
// line over 1024 processor counts would zigzag between the counts that
// suit a network and those (the primes) that do not, filling the chart
// with its own colour.
func linePixels(pts []Point, x, y Axis) [][2]float64 {
	var out [][2]float64
	var best Point
	col := math.Inf(-1)
	for i, p := range pts {
		c := math.Floor(x.Pos(p.X))
		switch {
		case i == 0 || c != col:
			if i > 0 {
				out = append(out, [2]float64{x.Pos(best.X), y.Pos(best.Y)})
			}
			best, col = p, c
		case p.Rank < best.Rank:
			best = p
		}
	}
	if len(pts) > 0 {
		out = append(out, [2]float64{x.Pos(best.X), y.Pos(best.Y)})
	}
	return out
}

// drawLine draws one series: its polyline, then its markers on top.
func (c *LineChart) drawLine(w *Writer, l *Line) {
	w.Printf(`<g class="line" data-series="%s">`, Esc(l.Name))
	if !l.Scatter {
		w.Printf(`<polyline fill="none" stroke="%s" stroke-width="2" stroke-linejoin="round" points="`, l.Color)
		for i, p := range linePixels(l.Pts, c.X, c.Y) {
			if i > 0 {
				w.WriteString(" ")
			}
			w.Printf("%s,%s", Px(p[0]), Px(p[1]))
		}
		w.Printf(`"><title>%s</title></polyline>`, Esc(l.Name))
	}
	for _, m := range l.Marks {
		color, class := l.Color, "mark"
		if m.Color != "" {
			color = m.Color
		}
		if m.Class != "" {
			class += " " + m.Class
		}
		w.mark(max(l.Marker, Circle), c.X.Pos(m.X), c.Y.Pos(m.Y), color, class, m.Tip)
	}
	w.Printf(`</g>`)
}
