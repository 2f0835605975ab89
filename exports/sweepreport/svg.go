package sweepreport

import (
	"fmt"
	"html"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// svgWriter accumulates SVG markup. Text goes through esc, so the output is
// well-formed XML as well as HTML5.
type svgWriter struct{ strings.Builder }

func (w *svgWriter) printf(format string, args ...any) { fmt.Fprintf(&w.Builder, format, args...) }

// esc escapes text and attribute values (& < > " ').
func esc(s string) string { return html.EscapeString(s) }

// px formats a coordinate with one decimal, without trailing zeros.
func px(v float64) string {
	return strconv.FormatFloat(math.Round(v*10)/10, 'f', -1, 64)
}

// charWidth is the advance assumed per character of 12px text, a little
// more than system fonts need, so that estimated widths do not overlap.
const charWidth = 7.0

func textWidth(s string) float64 { return charWidth * float64(utf8.RuneCountInString(s)) }

// truncate shortens s to at most n characters, ending with an ellipsis.
func truncate(s string, n int) string {
	if n < 2 || utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// The marker shapes, which tell series apart without colour.
const (
	markCircle = iota
	markSquare
	markTriangle
	markDiamond
	markTriangleDown
	markCross
	markPlus
	markStar
	numMarks
)

// marker writes a filled marker of the given shape centred on (x, y), with
// a tooltip when tip is not empty.
func (w *svgWriter) marker(shape int, x, y float64, color, tip string) {
	const r = 3.6
	style := fmt.Sprintf(` class="mark" fill="%s" stroke="#ffffff" stroke-width="1"`, color)
	switch shape {
	case markSquare:
		w.elem("rect", fmt.Sprintf(`x="%s" y="%s" width="%s" height="%s"`, px(x-r), px(y-r), px(2*r), px(2*r))+style, tip)
	case markTriangle:
		w.elem("polygon", fmt.Sprintf(`points="%s,%s %s,%s %s,%s"`,
			px(x), px(y-r-0.8), px(x+r+0.6), px(y+r*0.8), px(x-r-0.6), px(y+r*0.8))+style, tip)
	case markDiamond:
		w.elem("polygon", fmt.Sprintf(`points="%s,%s %s,%s %s,%s %s,%s"`,
			px(x), px(y-r-0.8), px(x+r+0.8), px(y), px(x), px(y+r+0.8), px(x-r-0.8), px(y))+style, tip)
	case markTriangleDown:
		w.elem("polygon", fmt.Sprintf(`points="%s,%s %s,%s %s,%s"`,
			px(x), px(y+r+0.8), px(x+r+0.6), px(y-r*0.8), px(x-r-0.6), px(y-r*0.8))+style, tip)
	case markCross, markPlus, markStar:
		w.elem("polygon", `points="`+polygon(shapes[shape], x, y, r+1)+`"`+style, tip)
	default:
		w.elem("circle", fmt.Sprintf(`cx="%s" cy="%s" r="%s"`, px(x), px(y), px(r))+style, tip)
	}
}

// elem writes an empty element with the given (already escaped)
// attributes, with a tooltip child when tip is not empty: browsers show it
// on hover and screen readers read it.
func (w *svgWriter) elem(name, attrs, tip string) {
	if tip == "" {
		w.printf("<%s %s/>", name, attrs)
		return
	}
	w.printf("<%s %s><title>%s</title></%s>", name, attrs, esc(tip), name)
}

// shapes are the outlines of the polygon markers, on a unit circle.
var shapes = map[int][][2]float64{
	markPlus:  plusOutline(0.36),
	markCross: rotate(plusOutline(0.36), math.Pi/4),
	markStar:  starOutline(5, 0.45),
}

// plusOutline is a plus sign of arm half-width a.
func plusOutline(a float64) [][2]float64 {
	return [][2]float64{{-a, -1}, {a, -1}, {a, -a}, {1, -a}, {1, a}, {a, a}, {a, 1}, {-a, 1}, {-a, a}, {-1, a}, {-1, -a}, {-a, -a}}
}

// starOutline is a star of n points whose inner radius is inner.
func starOutline(n int, inner float64) [][2]float64 {
	var out [][2]float64
	for i := 0; i < 2*n; i++ {
		r := 1.0
		if i%2 == 1 {
			r = inner
		}
		a := math.Pi * float64(i) / float64(n)
		out = append(out, [2]float64{r * math.Sin(a), -r * math.Cos(a)})
	}
	return out
}

func rotate(pts [][2]float64, a float64) [][2]float64 {
	out := make([][2]float64, len(pts))
	for i, p := range pts {
		out[i] = [2]float64{p[0]*math.Cos(a) - p[1]*math.Sin(a), p[0]*math.Sin(a) + p[1]*math.Cos(a)}
	}
	return out
}

// polygon places a unit outline at (x, y) with radius r.
func polygon(outline [][2]float64, x, y, r float64) string {
	var b strings.Builder
	for i, p := range outline {
		if i > 0 {
			b.WriteString(" ")
		}
		b.WriteString(px(x+r*p[0]) + "," + px(y+r*p[1]))
	}
	return b.String()
}
