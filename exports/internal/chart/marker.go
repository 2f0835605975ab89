package chart

import (
	"fmt"
	"math"
	"strings"
)

// Marker is the shape of a series' markers, which tells series apart
// without colour.
type Marker int

// The marker shapes; NoMarker draws none.
const (
	NoMarker Marker = iota
	Circle
	Square
	Triangle
	Diamond
	TriangleDown
	Cross
	Plus
	Star
)

// numMarkers is the number of shapes.
const numMarkers = int(Star)

// markerR is a marker's radius.
const markerR = 3.6

// mark writes a filled marker of the given shape centred on (x, y), with
// the given class ("" for none) and a tooltip when tip is not empty.
func (w *Writer) mark(shape Marker, x, y float64, color, class, tip string) {
	const r = markerR
	style := fmt.Sprintf(` fill="%s" stroke="#ffffff" stroke-width="1"`, color)
	if class != "" {
		style = ` class="` + Esc(class) + `"` + style
	}
	switch shape {
	case NoMarker:
	case Square:
		w.Elem("rect", fmt.Sprintf(`x="%s" y="%s" width="%s" height="%s"`, Px(x-r), Px(y-r), Px(2*r), Px(2*r))+style, tip)
	case Triangle:
		w.Elem("polygon", fmt.Sprintf(`points="%s,%s %s,%s %s,%s"`,
			Px(x), Px(y-r-0.8), Px(x+r+0.6), Px(y+r*0.8), Px(x-r-0.6), Px(y+r*0.8))+style, tip)
	case Diamond:
		w.Elem("polygon", fmt.Sprintf(`points="%s,%s %s,%s %s,%s %s,%s"`,
			Px(x), Px(y-r-0.8), Px(x+r+0.8), Px(y), Px(x), Px(y+r+0.8), Px(x-r-0.8), Px(y))+style, tip)
	case TriangleDown:
		w.Elem("polygon", fmt.Sprintf(`points="%s,%s %s,%s %s,%s"`,
			Px(x), Px(y+r+0.8), Px(x+r+0.6), Px(y-r*0.8), Px(x-r-0.6), Px(y-r*0.8))+style, tip)
	case Cross, Plus, Star:
		w.Elem("polygon", `points="`+polygon(outlines[shape], x, y, r+1)+`"`+style, tip)
	default:
		w.Elem("circle", fmt.Sprintf(`cx="%s" cy="%s" r="%s"`, Px(x), Px(y), Px(r))+style, tip)
	}
}

// outlines are the polygon markers' shapes, on a unit circle.
var outlines = map[Marker][][2]float64{
	Plus:  plusOutline(0.36),
	Cross: rotate(plusOutline(0.36), math.Pi/4),
	Star:  starOutline(5, 0.45),
}

// plusOutline is a plus sign of arm half-width a.
func plusOutline(a float64) [][2]float64 {
	return [][2]float64{{-a, -1}, {a, -1}, {a, -a}, {1, -a}, {1, a}, {a, a}, {a, 1}, {-a, 1}, {-a, a}, {-1, a}, {-1, -a}, {-a, -a}}
}

// starOutline is a star of n points whose inner radius is inner.
func starOutline(n int, inner float64) [][2]float64 {
	var out [][2]float64
	for i := range 2 * n {
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
		b.WriteString(Px(x+r*p[0]) + "," + Px(y+r*p[1]))
	}
	return b.String()
}
