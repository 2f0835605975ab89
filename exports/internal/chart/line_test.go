package chart

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/exports/internal/htmltest"
)

// parse parses a chart's SVG as the browser would, inline in a page.
func parse(t *testing.T, svg string) *htmltest.Node {
	t.Helper()
	return htmltest.Parse(t, []byte("<!DOCTYPE html><html><body>"+svg+"</body></html>"))
}

func attr(t *testing.T, n *htmltest.Node, name string) float64 {
	t.Helper()
	var f float64
	if _, err := fmt.Sscan(n.Attr[name], &f); err != nil {
		t.Fatalf("<%s> %s=%q: %v", n.Name, name, n.Attr[name], err)
	}
	return f
}

// polylinePoints reads the "x,y x,y …" of a polyline.
func polylinePoints(t *testing.T, n *htmltest.Node) [][2]float64 {
	t.Helper()
	var nums []float64
	for _, f := range strings.Fields(strings.ReplaceAll(n.Attr["points"], ",", " ")) {
		v, err := strconv.ParseFloat(f, 64)
		if err != nil {
			t.Fatalf("points %q: %v", n.Attr["points"], err)
		}
		nums = append(nums, v)
	}
	out := make([][2]float64, len(nums)/2)
	for i := range out {
		out[i] = [2]float64{nums[2*i], nums[2*i+1]}
	}
	return out
}

// efficiencyChart is a narrow chart of efficiency (linear, 0..1) against
// processors (log2, 1..32), with one line.
func efficiencyChart(pts ...Point) *LineChart {
	return &LineChart{
		Frame: Frame{ID: "eff", Class: "line", Title: "Efficiency", Desc: "efficiency against processors"},
		X:     Axis{Scale: Scale{Lo: 1, Hi: 32, Base: 2}, Label: "processors"},
		Y:     Axis{Scale: Scale{Lo: 0, Hi: 1}, Label: "efficiency"},
		Lines: []Line{{Name: "bus", Color: Blue, Marker: Circle, Pts: pts, Marks: pts}},
	}
}

// TestLineChartPixels: the plot's left edge leaves room for the y title,
// the widest tick label ("0.2": 3 characters) and the tick; values land
// where the axes say.
func TestLineChartPixels(t *testing.T) {
	doc := parse(t, efficiencyChart(Point{X: 1, Y: 1}, Point{X: 4, Y: 0.5}, Point{X: 32, Y: 0.25}).SVG())
	left := attr(t, doc.First(t, "plot", htmltest.WithClass("plot")), "x")
	if want := yLabelW + 3*CharWidth + yTickW; left != want {
		t.Errorf("plot starts at x %g, want %g", left, want)
	}
	pts := polylinePoints(t, doc.First(t, "line", htmltest.Named("polyline")))
	want := [][2]float64{{left, 14}, {left + (542-left)*2/5, 134}, {542, 194}}
	if len(pts) != len(want) {
		t.Fatalf("%d points, want %d", len(pts), len(want))
	}
	for i := range want {
		if math.Abs(pts[i][0]-want[i][0]) > 0.051 || math.Abs(pts[i][1]-want[i][1]) > 0.051 {
			t.Errorf("point %d at %v, want %v", i, pts[i], want[i])
		}
	}
	if n := len(doc.All(htmltest.WithClass("mark"))); n != 3 {
		t.Errorf("%d markers, want 3", n)
	}
	svg := doc.First(t, "svg", htmltest.Named("svg"))
	if svg.Attr["aria-labelledby"] != "eff-title eff-desc" || svg.Attr["role"] != "img" || svg.Attr["class"] != "chart line" {
		t.Errorf("svg attributes %v", svg.Attr)
	}
}

// TestLinePixelColumns: of the points that share a pixel column the line
// goes through the one of least rank; the band spans them all.
func TestLinePixelColumns(t *testing.T) {
	c := efficiencyChart(Point{X: 16, Y: 0.5, Rank: 2}, Point{X: 16.01, Y: 0.4, Rank: 1}, Point{X: 32, Y: 0.3})
	c.Lines[0].Band = []Band{{X: 16, Lo: 0.5, Hi: 0.5}, {X: 16.01, Lo: 0.2, Hi: 0.6}, {X: 32, Lo: 0.3, Hi: 0.3}}
	c.BandName = "every grid"
	doc := parse(t, c.SVG())
	pts := polylinePoints(t, doc.First(t, "line", htmltest.Named("polyline")))
	if len(pts) != 2 || math.Abs(pts[0][1]-(14+240*0.6)) > 0.051 {
		t.Errorf("points %v, want 2, the first at efficiency 0.4 (y %g)", pts, 14+240*0.6)
	}
	bands := doc.First(t, "bands", htmltest.WithClass("bands")).All(htmltest.Named("polygon"))
	if len(bands) != 1 || len(strings.Fields(bands[0].Attr["points"])) != 4 {
		t.Errorf("bands %v, want one polygon of 2 columns", bands)
	}
	if !strings.Contains(doc.First(t, "legend", htmltest.WithClass("legend")).Text(), "every grid") {
		t.Error("the legend does not name the band")
	}
	c.Lines[0].Band = []Band{{X: 16, Lo: 0.5, Hi: 0.5}, {X: 32, Lo: 0.3, Hi: 0.3}}
	if doc := parse(t, c.SVG()); len(doc.All(htmltest.Named("polygon"))) != 0 || strings.Contains(doc.Text(), "every grid") {
		t.Error("a band no wider than its line is drawn or named")
	}
}

// TestScatterAndRefs: a scatter has markers and no line; marks take their
// own colour and classes; a named reference is a dashed line in the
// legend.
func TestScatterAndRefs(t *testing.T) {
	c := &LineChart{
		Frame: Frame{Title: "T against f"},
		X:     Axis{Scale: LogScale(10, 10, 1000)},
		Y:     Axis{Scale: LogScale(10, 1e-5, 1e-3)},
		Lines: []Line{{Name: "a run", Color: Blue, Scatter: true, Marks: []Point{
			{X: 10, Y: 1e-5}, {X: 100, Y: 1e-4, Color: Vermillion, Class: "current", Tip: "this one"}, {X: 1000, Y: 1e-3}}}},
		Refs: []Ref{{X0: 10, Y0: 1e-4, X1: 1000, Y1: 1e-4, Name: "mean", Tip: "mean = 1e-4"}},
	}
	doc := parse(t, c.SVG())
	if n := len(doc.All(htmltest.Named("polyline"))); n != 0 {
		t.Errorf("%d polylines in a scatter", n)
	}
	marks := doc.All(htmltest.WithClass("mark"))
	if len(marks) != 3 {
		t.Fatalf("%d marks, want 3 (the legend's swatches are not marks)", len(marks))
	}
	if m := marks[1]; m.Attr["fill"] != Vermillion || m.Attr["class"] != "mark current" || m.Text() != "this one" {
		t.Errorf("the current mark: %v %q", m.Attr, m.Text())
	}
	ref := doc.First(t, "ref", htmltest.WithClass("ref"))
	if ref.Attr["stroke-dasharray"] == "" || ref.Attr["y1"] != ref.Attr["y2"] || ref.Text() != "mean = 1e-4" {
		t.Errorf("reference %v %q, want a dashed horizontal line with its tooltip", ref.Attr, ref.Text())
	}
	svg := doc.First(t, "svg", htmltest.Named("svg"))
	if svg.Attr["aria-label"] != "T against f" || svg.Attr["id"] != "" {
		t.Errorf("a chart without an id: attributes %v, want aria-label", svg.Attr)
	}
	legend := doc.First(t, "legend", htmltest.WithClass("legend")).Text()
	if !strings.Contains(legend, "a run") || !strings.Contains(legend, "mean") {
		t.Errorf("legend %q", legend)
	}
}

func TestIdealSpeedup(t *testing.T) {
	tests := []struct {
		name                string
		base, from, to, yHi float64
		want                *Ref
	}{
		{"clipped at the axis top", 2, 2, 64, 16, &Ref{X0: 2, Y0: 1, X1: 32, Y1: 16}},
		{"to the last count", 1, 1, 16, 32, &Ref{X0: 1, Y0: 1, X1: 16, Y1: 16}},
		{"speedup = cores from 2 cores", 1, 2, 16, 16, &Ref{X0: 2, Y0: 2, X1: 16, Y1: 16}},
		{"a single count", 4, 4, 4, 8, nil},
		{"no axis above 1", 1, 1, 16, 1, nil},
	}
	for _, tt := range tests {
		got := IdealSpeedup(tt.base, tt.from, tt.to, tt.yHi)
		if (got == nil) != (tt.want == nil) || got != nil && (got.X0 != tt.want.X0 || got.Y0 != tt.want.Y0 || got.X1 != tt.want.X1 || got.Y1 != tt.want.Y1) {
			t.Errorf("%s: IdealSpeedup = %+v, want %+v", tt.name, got, tt.want)
		}
	}
}

// TestEscaping: names and tooltips come out as text.
func TestEscaping(t *testing.T) {
	c := efficiencyChart(Point{X: 2, Y: 0.5, Tip: `<script>"x"</script>`})
	c.Lines[0].Name = "<b>bus</b>"
	c.Title = "a & b"
	out := c.SVG()
	if strings.Contains(out, "<script>") || strings.Contains(out, "<b>") {
		t.Errorf("markup reached the SVG unescaped")
	}
	if doc := parse(t, out); !strings.Contains(doc.Text(), "<b>bus</b>") {
		t.Error("the series name is not in the chart's text")
	}
}
