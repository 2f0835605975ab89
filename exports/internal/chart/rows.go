package chart

import (
	"fmt"
	"math"
)

// Rows is a chart of labelled rows against one x axis at the bottom:
// horizontal bars, stacked (Stack) or around a reference value, and Gantt
// rows of spans over time, with the legend below.
type Rows struct {
	Frame
	Width float64 // 0: Wide
	// LabelW is the width of the labels' column; 0 fits the widest label
	// (at most a third of the chart), longer labels are truncated.
	LabelW float64
	PadR   float64 // right of the plot; 0: 18
	RowH   float64 // 0: 20
	// Tracks are the bands of a row that bars are drawn in, relative to
	// its top; nil: one track over the middle 70% of the row.
	Tracks []Track
	// Tree aligns the labels left, indented by depth; otherwise they are
	// aligned right against the plot.
	Tree bool
	// Lanes shades every row's lane; Edges separates adjacent bars with a
	// thin white edge.
	Lanes, Edges bool
	MinW         float64   // the least width of a bar, in pixels
	X            Axis      // the pixels of its scale are set when drawn
	Rules        []float64 // x values drawn as full-height lines (a reference)
	Rows         []Row
	Legend       []LegendGroup
}

// Track is a band of a row: its offset from the row's top and its height.
type Track struct{ Y, H float64 }

// Row is one row: its label and bars.
type Row struct {
	Label  string
	Tip    string // the label's tooltip
	Indent int    // depth, for a Tree
	Strong bool   // a label in bold
	Bars   []Bar
}

// Bar is a bar or span from From to To (in x's units, either order) in
// one track of its row.
type Bar struct {
	From, To float64
	Track    int
	Color    string
	Class    string
	Tip      string
	Outline  bool // a frame in Color instead of a filled bar
}

// Stack lays bars end to end from zero: each bar's To is its length on
// input (negative lengths count as zero), its From and To its place on
// output.
func Stack(bars []Bar) []Bar {
	at := 0.0
	for i := range bars {
		l := math.Max(bars[i].To, 0)
		bars[i].From, bars[i].To = at, at+l
		at += l
	}
	return bars
}

// The geometry of rows: the label's inset, the indentation per level and
// the levels indented at most (deep labels keep room), the room above
// the first row, the least height a label needs.
const (
	labelPad   = 8.0
	indentW    = 10.0
	maxIndents = 6
	rowsPadT   = 8.0
	labelH     = 12.0
)

func (c *Rows) width() float64 { return orDefault(c.Width, Wide) }
func (c *Rows) rowH() float64  { return orDefault(c.RowH, 20) }
func (c *Rows) padR() float64  { return orDefault(c.PadR, linePadR) }

// labelW is the width of the labels' column.
func (c *Rows) labelW() float64 {
	if c.LabelW > 0 {
		return c.LabelW
	}
	widest := 0.0
	for _, r := range c.Rows {
		widest = max(widest, TextWidth(r.Label))
	}
	return math.Min(math.Max(40, widest+2*labelPad), c.width()/3)
}

func (c *Rows) track(i int) Track {
	if i < len(c.Tracks) {
		return c.Tracks[i]
	}
	return Track{Y: 0.15 * c.rowH(), H: 0.7 * c.rowH()}
}

// SVG renders the chart.
func (c *Rows) SVG() string {
	b := box{x0: c.labelW(), y0: rowsPadT, x1: c.width() - c.padR()}
	b.y1 = b.y0 + c.rowH()*float64(len(c.Rows))
	c.X.P0, c.X.P1 = b.x0, b.x1
	legendW := c.width() - c.padR() - labelPad
	h := b.y1 + c.X.axisHeight() + legendHeight(c.Legend, legendW) + 6
	var w Writer
	w.open(c.Frame, c.width(), h)
	w.plot(b)
	if c.Lanes {
		for i := range c.Rows {
			w.Printf(`<rect x="%s" y="%s" width="%s" height="%s" fill="%s"/>`,
				Px(b.x0), Px(b.y0+c.rowH()*float64(i)+1), Px(b.x1-b.x0), Px(c.rowH()-2), LaneFill)
		}
	}
	ticks := SpreadTicks(c.X, c.X.ticks())
	w.grid(c.X, ticks, Axis{}, nil, b)
	for _, v := range c.Rules {
		x := Px(c.X.Pos(v))
		w.Printf(`<line class="rule" x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="1.5"/>`, x, Px(b.y0-4), x, Px(b.y1), AxisInk)
	}
	every := max(1, int(math.Ceil(labelH/c.rowH()-eps)))
	for i, r := range c.Rows {
		if i%every != 0 {
			r.Label = "" // no room: one row in every few is labelled
		}
		c.row(&w, r, b.y0+c.rowH()*float64(i), b.x0)
	}
	w.xAxis(c.X, ticks, b)
	w.legend(c.Legend, labelPad, b.y1+c.X.axisHeight(), legendW)
	w.Printf(`</svg>`)
	return w.String()
}

// row draws one row with its top at y, its label in a column labelW
// wide, then its bars.
func (c *Rows) row(w *Writer, r Row, y, labelW float64) {
	w.Printf(`<g class="row">`)
	if r.Label != "" {
		x, anchor := labelW-labelPad, "end"
		if c.Tree {
			x, anchor = labelPad+indentW*float64(min(r.Indent, maxIndents)), "start"
		}
		room := labelW - 2*labelPad
		if c.Tree {
			room -= x
		}
		class := ""
		if r.Strong {
			class = ` class="strong"`
		}
		tip := ""
		if r.Tip != "" {
			tip = "<title>" + Esc(r.Tip) + "</title>"
		}
		w.Printf(`<text%s x="%s" y="%s" dy="0.32em" text-anchor="%s">%s%s</text>`,
			class, Px(x), Px(y+c.rowH()/2), anchor, Esc(Truncate(r.Label, int(room/CharWidth))), tip)
	}
	for _, bar := range r.Bars {
		c.bar(w, bar, y)
	}
	w.Printf(`</g>`)
}

// bar draws one bar of a row whose top is at y.
func (c *Rows) bar(w *Writer, bar Bar, y float64) {
	t := c.track(bar.Track)
	x0, x1 := c.X.Pos(c.X.Clamp(bar.From)), c.X.Pos(c.X.Clamp(bar.To))
	x, wd := math.Min(x0, x1), math.Max(math.Abs(x1-x0), c.MinW)
	attrs := ""
	if bar.Class != "" {
		attrs = `class="` + Esc(bar.Class) + `" `
	}
	attrs += fmt.Sprintf(`x="%s" y="%s" width="%s" height="%s"`, Px(x), Px(y+t.Y), Px(wd), Px(t.H))
	switch {
	case bar.Outline:
		attrs += fmt.Sprintf(` fill="none" stroke="%s" stroke-width="2"`, bar.Color)
	case c.Edges:
		attrs += fmt.Sprintf(` fill="%s" stroke="#ffffff" stroke-width="0.6"`, bar.Color)
	default:
		attrs += fmt.Sprintf(` fill="%s"`, bar.Color)
	}
	w.Elem("rect", attrs, bar.Tip)
}
