package chart

import (
	"fmt"
	"html"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Writer accumulates SVG markup. Text and attribute values go through
// Esc, so the output is well-formed XML as well as HTML5.
type Writer struct{ strings.Builder }

// Printf appends formatted markup.
func (w *Writer) Printf(format string, args ...any) { fmt.Fprintf(&w.Builder, format, args...) }

// Esc escapes text and attribute values (& < > " ').
func Esc(s string) string { return html.EscapeString(s) }

// Px formats a coordinate with one decimal, without trailing zeros.
func Px(v float64) string {
	return strconv.FormatFloat(math.Round(v*10)/10, 'f', -1, 64)
}

// CharWidth is the advance assumed per character of the charts' 12px
// text, a little more than system fonts need, so that estimated widths
// do not overlap.
const CharWidth = 7.0

// TextWidth estimates the width of s in the charts' text.
func TextWidth(s string) float64 { return CharWidth * float64(utf8.RuneCountInString(s)) }

// Truncate shortens s to at most n characters, ending with an ellipsis.
func Truncate(s string, n int) string {
	if n < 2 || utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// Elem writes an empty element with the given (already escaped)
// attributes, with a tooltip child when tip is not empty: browsers show
// it on hover and screen readers read it.
func (w *Writer) Elem(name, attrs, tip string) {
	if tip == "" {
		w.Printf("<%s %s/>", name, attrs)
		return
	}
	w.Printf("<%s %s><title>%s</title></%s>", name, attrs, Esc(tip), name)
}

// Frame names a chart for its readers.
type Frame struct {
	// ID, when set, is the svg element's id, and its title and
	// description are referenced by ID-title and ID-desc; it must be
	// unique in the page. Without it the title is the aria-label.
	ID    string
	Class string // classes besides "chart"
	Title string
	Desc  string
}

// open starts the svg element of a chart of the given size.
func (w *Writer) open(f Frame, width, height float64) {
	class := "chart"
	if f.Class != "" {
		class += " " + f.Class
	}
	w.Printf(`<svg xmlns="http://www.w3.org/2000/svg" class="%s"`, Esc(class))
	if f.ID != "" {
		w.Printf(` id="%s"`, Esc(f.ID))
	}
	w.Printf(` viewBox="0 0 %s %s" width="%s" height="%s" role="img"`, Px(width), Px(height), Px(width), Px(height))
	id := Esc(f.ID)
	switch {
	case f.ID != "" && f.Desc != "":
		w.Printf(` aria-labelledby="%s-title %s-desc"><title id="%s-title">%s</title><desc id="%s-desc">%s</desc>`,
			id, id, id, Esc(f.Title), id, Esc(f.Desc))
	case f.ID != "":
		w.Printf(` aria-labelledby="%s-title"><title id="%s-title">%s</title>`, id, id, Esc(f.Title))
	default:
		w.Printf(` aria-label="%s"><title>%s</title>`, Esc(f.Title), Esc(f.Title))
		if f.Desc != "" {
			w.Printf(`<desc>%s</desc>`, Esc(f.Desc))
		}
	}
}

// box is a plot area in pixels: x0 < x1, y0 (top) < y1 (bottom).
type box struct{ x0, y0, x1, y1 float64 }

// plot fills the plot area with its tint.
func (w *Writer) plot(b box) {
	w.Printf(`<rect class="plot" x="%s" y="%s" width="%s" height="%s" fill="%s"/>`,
		Px(b.x0), Px(b.y0), Px(b.x1-b.x0), Px(b.y1-b.y0), PlotFill)
}
