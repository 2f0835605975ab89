package chart

import (
	"strings"
	"testing"

	"github.com/presage-dvm/presage/exports/internal/htmltest"
)

// TestLayoutLegend: items run left to right and wrap at the width; a
// titled group starts a row after its title, and its wrapped items line
// up after the title too.
func TestLayoutLegend(t *testing.T) {
	item := func(name string) LegendItem { return LegendItem{Name: name} } // 30 + 7 per character wide
	tests := []struct {
		name   string
		groups []LegendGroup
		width  float64
		places [][2]float64
		height float64
	}{
		{"one row", []LegendGroup{{Items: []LegendItem{item("aaaa"), item("bb")}}}, 200, [][2]float64{{0, 0}, {76, 0}}, 19},
		{"wraps", []LegendGroup{{Items: []LegendItem{item("aaaa"), item("bbbbbbbbbb")}}}, 120, [][2]float64{{0, 0}, {0, 19}}, 38},
		{"a long item alone on its row", []LegendGroup{{Items: []LegendItem{item(strings.Repeat("a", 50))}}}, 120, [][2]float64{{0, 0}}, 19},
		{"titled groups", []LegendGroup{
			{Title: "Lost:", Items: []LegendItem{item("aaaa"), item("bbbb")}},
			{Title: "Not:", Items: []LegendItem{item("c")}},
			{Title: "Empty:"},
		}, 150, [][2]float64{{45, 0}, {45, 19}, {38, 38}}, 57},
	}
	for _, tt := range tests {
		_, items, h := layoutLegend(tt.groups, tt.width)
		if h != tt.height || len(items) != len(tt.places) {
			t.Errorf("%s: %d items, height %g; want %d, %g", tt.name, len(items), h, len(tt.places), tt.height)
			continue
		}
		for i, it := range items {
			if [2]float64{it.x, it.y} != tt.places[i] {
				t.Errorf("%s: item %d at (%g, %g), want %v", tt.name, i, it.x, it.y, tt.places[i])
			}
		}
	}
}

// TestSwatches: each kind of swatch draws its own shape, none of them
// with a class a chart's tests count (mark, path, part).
func TestSwatches(t *testing.T) {
	tests := []struct {
		swatch Swatch
		marker Marker
		dash   string
		elem   string
		check  func(*htmltest.Node) bool
	}{
		{SwatchLine, NoMarker, "", "line", func(n *htmltest.Node) bool { return n.Attr["stroke"] == Blue }},
		{SwatchLine, NoMarker, "5 4", "line", func(n *htmltest.Node) bool { return n.Attr["stroke-dasharray"] == "5 4" }},
		{SwatchLine, Square, "", "rect", func(n *htmltest.Node) bool { return n.Attr["fill"] == Blue }},
		{SwatchBox, NoMarker, "", "rect", func(n *htmltest.Node) bool { return n.Attr["fill"] == Blue && n.Attr["fill-opacity"] == "" }},
		{SwatchBand, NoMarker, "", "rect", func(n *htmltest.Node) bool { return n.Attr["fill-opacity"] == "0.3" }},
		{SwatchOutline, NoMarker, "", "rect", func(n *htmltest.Node) bool { return n.Attr["fill"] == "none" && n.Attr["stroke"] == Blue }},
		{SwatchMark, NoMarker, "", "circle", func(n *htmltest.Node) bool { return n.Attr["fill"] == Blue }},
	}
	for i, tt := range tests {
		var w Writer
		w.legend([]LegendGroup{{Items: []LegendItem{{Name: "x", Color: Blue, Swatch: tt.swatch, Marker: tt.marker, Dash: tt.dash}}}}, 0, 0, 300)
		doc := parse(t, "<svg>"+w.String()+"</svg>")
		els := doc.All(htmltest.Named(tt.elem))
		if len(els) == 0 || !tt.check(els[0]) {
			t.Errorf("swatch %d: no <%s> drawn as it should be in %s", i, tt.elem, w.String())
		}
		for _, e := range doc.All(func(n *htmltest.Node) bool { return n.Attr["class"] != "" }) {
			if c := e.Attr["class"]; c != "legend" && c != "item" {
				t.Errorf("swatch %d: element <%s> of class %q", i, e.Name, c)
			}
		}
	}
}
