package chart

import (
	"math"
	"strconv"
	"strings"
)

// Axis is a scale with its ticks and its title.
type Axis struct {
	Scale
	// Ticks are the values to mark; nil: the scale's. Those whose labels
	// would overlap are left out when drawn.
	Ticks []float64
	Label string // the axis title, "" for none
	// Format writes a tick's label; nil: TickLabel, and on a log2 axis
	// the powers below 1 as fractions (1/8).
	Format func(float64) string
}

// tickLabel is the label of tick v.
func (a Axis) tickLabel(v float64) string {
	if a.Format != nil {
		return a.Format(v)
	}
	if a.Base == 2 {
		return PowerLabel(v)
	}
	return TickLabel(v)
}

func (a Axis) ticks() []float64 {
	if a.Ticks != nil {
		return a.Ticks
	}
	return a.Scale.Ticks()
}

// TickLabel formats a tick value shortly: whole numbers below a million
// in full (processor counts such as 1024, 131072) unless they are round
// ten thousands from 100000 on, others with 3 significant digits and
// exponents without padding ("2e5", "1e-5", not "1e-05").
func TickLabel(v float64) string {
	round := math.Abs(v) >= 1e5 && math.Mod(v, 1e4) == 0
	if v == math.Trunc(v) && math.Abs(v) < 1e6 && !round {
		return strconv.FormatFloat(cleanZero(v), 'f', 0, 64)
	}
	s := strconv.FormatFloat(v, 'g', 3, 64)
	if mant, exp, ok := strings.Cut(s, "e"); ok {
		sign := exp[:1]
		digits := strings.TrimLeft(exp[1:], "0")
		if sign == "+" {
			sign = ""
		}
		s = mant + "e" + sign + digits
	}
	return s
}

// PowerLabel is TickLabel, except that the reciprocals of whole numbers
// are written as fractions (1/128 rather than 0.00781), as the powers of
// two below 1 read best.
func PowerLabel(v float64) string {
	if v < 1 && v > 0 {
		if inv := 1 / v; inv == math.Trunc(inv) {
			return "1/" + TickLabel(inv)
		}
	}
	return TickLabel(v)
}

// SpreadTicks drops the ticks of a horizontal axis whose labels would
// overlap the previous one's.
func SpreadTicks(a Axis, ts []float64) []float64 {
	var out []float64
	last := 0.0
	for _, v := range ts {
		x := a.Pos(v)
		if len(out) > 0 {
			room := (TextWidth(a.tickLabel(v)) + TextWidth(a.tickLabel(out[len(out)-1]))) / 2
			if math.Abs(x-last) < room+4 {
				continue
			}
		}
		out = append(out, v)
		last = x
	}
	return out
}

// minTickGap is the least vertical distance between y tick labels.
const minTickGap = 16.0

// StackTicks thins the ticks of a vertical axis of the given height in
// pixels to every second, third… one, so that their labels do not
// overlap.
func StackTicks(ts []float64, height float64) []float64 {
	out := ts
	for step := 2; len(out) > 1 && height/float64(len(out)-1) < minTickGap; step++ {
		out = nil
		for i := 0; i < len(ts); i += step {
			out = append(out, ts[i])
		}
	}
	return out
}

// Spread keeps at most n of xs, evenly spaced, the first and the last
// kept: the series, markers or labels a chart can show of many.
func Spread[T any](xs []T, n int) []T {
	if len(xs) <= n || n < 2 {
		return xs
	}
	out := make([]T, n)
	for i := range out {
		out[i] = xs[(i*(len(xs)-1)+(n-1)/2)/(n-1)]
	}
	return out
}

// The room of the axes, in pixels: the x tick labels and title below the
// plot, the rotated y title and the tick marks left of it.
const (
	xTickH  = 26.0 // below the plot: tick marks and labels
	xLabelH = 20.0 // below those: the title
	yLabelW = 22.0
	yTickW  = 12.0
)

// axisHeight is the room below the plot of an x axis.
func (a Axis) axisHeight() float64 {
	if a.Label == "" {
		return xTickH
	}
	return xTickH + xLabelH
}

// grid draws the gridlines of the x ticks and the y ticks across b.
func (w *Writer) grid(x Axis, xt []float64, y Axis, yt []float64, b box) {
	w.Printf(`<g class="grid" stroke="%s" stroke-width="1">`, GridLine)
	for _, v := range xt {
		p := Px(x.Pos(v))
		w.Printf(`<line x1="%s" y1="%s" x2="%s" y2="%s"/>`, p, Px(b.y0), p, Px(b.y1))
	}
	for _, v := range yt {
		p := Px(y.Pos(v))
		w.Printf(`<line x1="%s" y1="%s" x2="%s" y2="%s"/>`, Px(b.x0), p, Px(b.x1), p)
	}
	w.Printf(`</g>`)
}

// xAxis draws the x axis along the bottom of b: its line, ticks, labels
// and title.
func (w *Writer) xAxis(a Axis, ts []float64, b box) {
	w.Printf(`<g class="axis x"><line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s"/>`, Px(b.x0), Px(b.y1), Px(b.x1), Px(b.y1), AxisInk)
	for _, v := range ts {
		x := a.Pos(v)
		w.Printf(`<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s"/><text x="%s" y="%s" text-anchor="middle">%s</text>`,
			Px(x), Px(b.y1), Px(x), Px(b.y1+5), AxisInk, Px(x), Px(b.y1+18), Esc(a.tickLabel(v)))
	}
	if a.Label != "" {
		w.Printf(`<text class="label" x="%s" y="%s" text-anchor="middle">%s</text>`, Px((b.x0+b.x1)/2), Px(b.y1+38), Esc(a.Label))
	}
	w.Printf(`</g>`)
}

// yAxis draws the y axis along the left of b: its line, ticks, labels
// and the rotated title at the chart's left edge.
func (w *Writer) yAxis(a Axis, ts []float64, b box) {
	w.Printf(`<g class="axis y"><line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s"/>`, Px(b.x0), Px(b.y0), Px(b.x0), Px(b.y1), AxisInk)
	for _, v := range ts {
		y := a.Pos(v)
		w.Printf(`<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s"/><text x="%s" y="%s" text-anchor="end" dy="0.32em">%s</text>`,
			Px(b.x0-5), Px(y), Px(b.x0), Px(y), AxisInk, Px(b.x0-8), Px(y), Esc(a.tickLabel(v)))
	}
	my := (b.y0 + b.y1) / 2
	w.Printf(`<text class="label" x="12" y="%s" text-anchor="middle" transform="rotate(-90 12 %s)">%s</text></g>`, Px(my), Px(my), Esc(a.Label))
}
