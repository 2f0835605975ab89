package chart

import (
	"math"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/exports/internal/htmltest"
)

func TestStack(t *testing.T) {
	got := Stack([]Bar{{To: 1}, {To: -2}, {To: 3, From: 99}})
	want := [][2]float64{{0, 1}, {1, 1}, {1, 4}}
	for i, b := range got {
		if b.From != want[i][0] || b.To != want[i][1] {
			t.Errorf("bar %d from %g to %g, want %v", i, b.From, b.To, want[i])
		}
	}
}

// TestRowsGeometry: bars land in their row's track where the axis says,
// tree labels are indented by depth, clamped to the domain and at least
// MinW wide.
func TestRowsGeometry(t *testing.T) {
	c := &Rows{
		Frame: Frame{ID: "bars", Class: "bars", Title: "Lost time"},
		Width: Narrow, LabelW: 190, PadR: 24, RowH: 34, Tree: true, MinW: 0.5,
		Tracks: []Track{{Y: 3, H: 16}, {Y: 21, H: 5}},
		X:      Axis{Scale: Scale{Lo: 0, Hi: 2}, Label: "time, s"},
		Rows: []Row{
			{Label: "Main", Bars: Stack([]Bar{{To: 0.5, Class: "part"}, {To: 0.5, Class: "part"}})},
			{Label: "Seq line 8", Indent: 1, Bars: []Bar{{To: 5, Track: 1, Class: "potential"}}},
			{Label: "Par line 10", Indent: 9, Bars: []Bar{{To: 0, Class: "part"}}},
		},
	}
	doc := parse(t, c.SVG())
	rows := doc.All(htmltest.WithClass("row"))
	if len(rows) != 3 {
		t.Fatalf("%d rows, want 3", len(rows))
	}
	type rect struct{ x, y, w, h float64 }
	tests := []struct {
		row   int
		class string
		want  []rect
	}{
		{0, "part", []rect{{190, 8 + 3, 86.5, 16}, {276.5, 11, 86.5, 16}}}, // the plot spans 190..536: 173 px per second
		{1, "potential", []rect{{190, 8 + 34 + 21, 346, 5}}},               // 5 s is clamped to the axis' 2 s
		{2, "part", []rect{{190, 8 + 68 + 3, 0.5, 16}}},                    // an empty bar is MinW wide
	}
	for _, tt := range tests {
		bars := rows[tt.row].All(htmltest.WithClass(tt.class))
		if len(bars) != len(tt.want) {
			t.Fatalf("row %d: %d bars, want %d", tt.row, len(bars), len(tt.want))
		}
		for i, b := range bars {
			got := rect{attr(t, b, "x"), attr(t, b, "y"), attr(t, b, "width"), attr(t, b, "height")}
			if got != tt.want[i] {
				t.Errorf("row %d bar %d at %+v, want %+v", tt.row, i, got, tt.want[i])
			}
		}
	}
	var indents []string
	for _, r := range rows {
		indents = append(indents, r.All(htmltest.Named("text"))[0].Attr["x"])
	}
	if got := strings.Join(indents, " "); got != "8 18 68" {
		t.Errorf("label x %s, want 8 18 68 (indented by depth, at most 6 levels)", got)
	}
}

// TestRowsLabels: the labels' column fits the widest label (within a
// third of the chart, longer ones truncated), labels are right-aligned
// against the plot, and rows too low for a label are labelled one in
// every few.
func TestRowsLabels(t *testing.T) {
	tests := []struct {
		name     string
		labels   []string
		rowH     float64
		wantLeft float64
		labelled int
	}{
		{"nodes", []string{"node 0", "node 1", "node 10"}, 14, 7*7 + 16, 3},
		{"short labels keep 40 px", []string{"0", "1"}, 14, 40, 2},
		{"a long label is cut at a third", []string{strings.Repeat("x", 100)}, 20, Wide / 3, 1},
		{"4 px rows: every third labelled", []string{"0", "1", "2", "3", "4", "5", "6"}, 4, 40, 3},
	}
	for _, tt := range tests {
		c := &Rows{RowH: tt.rowH, X: Axis{Scale: Scale{Hi: 1}}}
		for _, l := range tt.labels {
			c.Rows = append(c.Rows, Row{Label: l, Bars: []Bar{{To: 1, Color: Green}}})
		}
		doc := parse(t, c.SVG())
		if left := attr(t, doc.First(t, "plot", htmltest.WithClass("plot")), "x"); left != tt.wantLeft {
			t.Errorf("%s: plot starts at %g, want %g", tt.name, left, tt.wantLeft)
		}
		var texts []*htmltest.Node
		for _, r := range doc.All(htmltest.WithClass("row")) {
			texts = append(texts, r.All(htmltest.Named("text"))...)
		}
		if len(texts) != tt.labelled {
			t.Errorf("%s: %d labels, want %d", tt.name, len(texts), tt.labelled)
		}
		for _, tx := range texts {
			if tx.Attr["text-anchor"] != "end" || attr(t, tx, "x") != tt.wantLeft-8 {
				t.Errorf("%s: label %q at x %s anchored %s, want right-aligned at %g", tt.name, tx.Text(), tx.Attr["x"], tx.Attr["text-anchor"], tt.wantLeft-8)
			}
			if w := TextWidth(tx.Text()); w > tt.wantLeft-16 {
				t.Errorf("%s: label %q (%g px) overflows its column", tt.name, tx.Text(), w)
			}
		}
	}
}

// TestRowsAroundOne: bars of ratios on a log2 axis start at ×1 and go
// left for a ratio below 1; outlines are frames; the rule marks ×1.
func TestRowsAroundOne(t *testing.T) {
	c := &Rows{
		Width: 600, LabelW: 100, PadR: 20,
		X:     Axis{Scale: Scale{Lo: 1.0 / 8, Hi: 8, Base: 2}, Format: func(v float64) string { return "×" + PowerLabel(v) }},
		Rules: []float64{1},
		Rows: []Row{{Label: "run 1", Strong: true, Bars: []Bar{
			{From: 1, To: 4, Class: "after"}, {From: 1, To: 0.25, Class: "before", Track: 1}, {From: 1, To: 2, Class: "path", Outline: true, Color: Vermillion}}}},
	}
	doc := parse(t, c.SVG())
	mid := 100 + 480/2.0
	for _, tt := range []struct {
		class string
		x, w  float64
	}{{"after", mid, 160}, {"before", mid - 160, 160}, {"path", mid, 80}} {
		b := doc.First(t, tt.class, htmltest.WithClass(tt.class))
		if x, w := attr(t, b, "x"), attr(t, b, "width"); math.Abs(x-tt.x) > 0.051 || math.Abs(w-tt.w) > 0.051 {
			t.Errorf("%s bar at x %g, %g wide; want %g, %g", tt.class, x, w, tt.x, tt.w)
		}
	}
	if p := doc.First(t, "path", htmltest.WithClass("path")); p.Attr["fill"] != "none" || p.Attr["stroke"] != Vermillion {
		t.Errorf("outline %v, want a vermillion frame", p.Attr)
	}
	if x := attr(t, doc.First(t, "rule", htmltest.WithClass("rule")), "x1"); x != mid {
		t.Errorf("rule at x %g, want %g", x, mid)
	}
	text := doc.Text()
	for _, want := range []string{"×1/8", "×1", "×8"} {
		if !strings.Contains(text, want) {
			t.Errorf("axis lacks the tick %q: %q", want, text)
		}
	}
	if doc.First(t, "label", htmltest.WithClass("strong")).Text() != "run 1" {
		t.Error("the strong row's label is not bold")
	}
}
