package sweepreport

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/exports/internal/chart"
	"github.com/presage-dvm/presage/exports/internal/htmltest"
	"github.com/presage-dvm/presage/schema/stored"
	"github.com/presage-dvm/presage/sim/result"
)

// lineCharts returns the page's line charts by id.
func lineCharts(t *testing.T, doc *htmltest.Node) map[string]*htmltest.Node {
	t.Helper()
	out := map[string]*htmltest.Node{}
	for _, svg := range doc.All(htmltest.WithClass("line")) {
		if svg.Name == "svg" {
			out[svg.Attr["id"]] = svg
		}
	}
	return out
}

// TestPage: the page is well-formed, self-contained, and has the four
// charts, each labelled for assistive technology.
func TestPage(t *testing.T) {
	f := newSweep(t)
	page := f.render(t, Options{})
	doc := htmltest.Parse(t, page)
	svgs := doc.All(htmltest.Named("svg"))
	if len(svgs) != 4 {
		t.Fatalf("%d <svg> charts, want 4", len(svgs))
	}
	ids := map[string]bool{}
	for _, e := range doc.All(func(e *htmltest.Node) bool { return e.Attr["id"] != "" }) {
		if ids[e.Attr["id"]] {
			t.Errorf("id %q used twice", e.Attr["id"])
		}
		ids[e.Attr["id"]] = true
	}
	for _, svg := range svgs {
		if svg.Attr["role"] != "img" {
			t.Errorf("svg %s: role %q, want img", svg.Attr["id"], svg.Attr["role"])
		}
		for _, ref := range strings.Fields(svg.Attr["aria-labelledby"]) {
			if !ids[ref] {
				t.Errorf("svg %s: aria-labelledby names %q, which is not in the page", svg.Attr["id"], ref)
			}
		}
		title := svg.All(htmltest.Named("title"))
		if len(title) == 0 || title[0].Text() == "" {
			t.Errorf("svg %s has no title", svg.Attr["id"])
		}
	}
	for _, bad := range []string{"<script", "src=", "href=\"http", "url(", "@import", "@font-face"} {
		if bytes.Contains(page, []byte(bad)) {
			t.Errorf("page contains %q: it must be self-contained and script-free", bad)
		}
	}
}

// TestLines: each line chart has one polyline per series, with one point
// per processor count in increasing x, and a legend naming every series.
func TestLines(t *testing.T) {
	f := newSweep(t)
	doc := htmltest.Parse(t, f.render(t, Options{}))
	charts := lineCharts(t, doc)
	labels := []string{"bus · tstart from file", "cluster · tstart 20 µs", "mesh · tstart from file"}
	for _, id := range []string{"chart-time", "chart-efficiency", "chart-speedup"} {
		t.Run(id, func(t *testing.T) {
			svg := charts[id]
			if svg == nil {
				t.Fatalf("no line chart %s", id)
			}
			lines := svg.All(htmltest.Named("polyline"))
			if len(lines) != len(fixtureSeries) {
				t.Fatalf("%d polylines, want %d (one per series)", len(lines), len(fixtureSeries))
			}
			if paths := svg.All(htmltest.Named("path")); len(paths) != 0 {
				t.Errorf("%d paths besides the polylines", len(paths))
			}
			for i, pl := range lines {
				pts := points(t, pl)
				if len(pts) != len(fixtureGrids) {
					t.Errorf("series %d: %d points, want %d", i, len(pts), len(fixtureGrids))
				}
				for j := 1; j < len(pts); j++ {
					if pts[j][0] <= pts[j-1][0] {
						t.Errorf("series %d: x not increasing at point %d: %v", i, j, pts)
					}
				}
			}
			var legend []string
			for _, g := range svg.All(htmltest.WithClass("legend")) {
				for _, txt := range g.All(htmltest.Named("text")) {
					legend = append(legend, txt.OwnText())
				}
			}
			for _, l := range labels {
				if !contains(legend, l) {
					t.Errorf("legend %q does not name series %q", legend, l)
				}
			}
			if (id == "chart-speedup") != contains(legend, "ideal speedup") {
				t.Errorf("legend %q: the ideal speedup belongs to the speedup chart only", legend)
			}
		})
	}
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// plotLeft returns the left edge of a chart's plot area, which depends on
// its widest y tick label.
func plotLeft(t *testing.T, svg *htmltest.Node) float64 {
	t.Helper()
	rect := svg.First(t, "plot area", htmltest.WithClass("plot"))
	x, err := strconv.ParseFloat(rect.Attr["x"], 64)
	if err != nil {
		t.Fatalf("plot area x %q: %v", rect.Attr["x"], err)
	}
	return x
}

// TestKnownPixels: values of the fixture land where the axes say. The
// processor axis is log2 over [1, 32] from the plot's left edge to x =
// 542; efficiency is linear over [0, 1] on y = 254..14; the speedup of
// the first point is 1. The left edge leaves room for the y tick labels
// ("0.2" on the efficiency chart) beside the axis label.
func TestKnownPixels(t *testing.T) {
	f := newSweep(t)
	doc := htmltest.Parse(t, f.render(t, Options{}))
	charts := lineCharts(t, doc)
	procs := []int{1, 2, 4, 8, 16, 32}
	effLeft, spLeft := plotLeft(t, charts["chart-efficiency"]), plotLeft(t, charts["chart-speedup"])
	// 22 px for the axis title, 3 characters of 7 px for "0.2", 12 for the tick.
	if want := 22.0 + 3*7 + 12; effLeft != want {
		t.Errorf("efficiency plot starts at x %g, want %g", effLeft, want)
	}
	for s, fs := range fixtureSeries {
		eff := points(t, charts["chart-efficiency"].All(htmltest.Named("polyline"))[s])
		for i, p := range procs {
			wantX := effLeft + (542-effLeft)*math.Log2(float64(p))/5
			if math.Abs(eff[i][0]-wantX) > 0.051 {
				t.Errorf("%s: x of %d processors = %g, want %.1f", fs.network, p, eff[i][0], wantX)
			}
			tm := modelTime(p, fs.comm) // for bus on 16, 4x4: faster than 2x8
			wantY := 254 - 240*(10/(tm*float64(p)))
			if math.Abs(eff[i][1]-wantY) > 0.051 {
				t.Errorf("%s: efficiency y at %d processors = %g, want %.2f", fs.network, p, eff[i][1], wantY)
			}
		}
		sp := points(t, charts["chart-speedup"].All(htmltest.Named("polyline"))[s])
		if sp[0] != [2]float64{spLeft, 254} {
			t.Errorf("%s: first speedup point at %v, want (%g, 254): speedup 1 at the bottom of [1, 32]", fs.network, sp[0], spLeft)
		}
	}
}

// TestSameProcessorCount: of the bus series' grids 4x4 and 2x8 the line
// goes through the faster (4x4); the band reaches up to 2x8 at the same x,
// and the marker's tooltip gives both the best time and the spread.
func TestSameProcessorCount(t *testing.T) {
	f := newSweep(t)
	doc := htmltest.Parse(t, f.render(t, Options{}))
	svg := lineCharts(t, doc)["chart-time"]
	bus := svg.All(htmltest.WithClass("line"))[0]
	if bus.Attr["data-series"] != "bus · tstart from file" {
		t.Fatalf("first series is %q, want the bus one", bus.Attr["data-series"])
	}
	pts := points(t, bus.All(htmltest.Named("polyline"))[0])
	bands := svg.First(t, "bands", htmltest.WithClass("bands")).All(htmltest.Named("polygon"))
	if len(bands) != 1 {
		t.Fatalf("%d bands, want 1 (only bus has two grids at one processor count)", len(bands))
	}
	var top, bottom float64 = math.Inf(1), math.Inf(-1)
	for _, f := range strings.Fields(bands[0].Attr["points"]) {
		x, y, _ := strings.Cut(f, ",")
		if xv, _ := strconv.ParseFloat(x, 64); xv == pts[4][0] {
			yv, _ := strconv.ParseFloat(y, 64)
			top, bottom = math.Min(top, yv), math.Max(bottom, yv)
		}
	}
	if bottom != pts[4][1] || !(top < pts[4][1]) {
		t.Errorf("band at 16 processors spans y %g..%g, want from the line's %g up (slower)", top, bottom, pts[4][1])
	}
	var tips []string
	for _, m := range bus.All(htmltest.WithClass("mark")) {
		tips = append(tips, m.Text())
	}
	want := []string{"16 processors: 1.425 s (grid 4x4, run", fmt.Sprintf("2 configurations here span 1.425–%s s", short(slowerGrid*modelTime(16, 0.05)))}
	if all := strings.Join(tips, "\n"); !strings.Contains(all, want[0]) || !strings.Contains(all, want[1]) {
		t.Errorf("line markers %q do not give 4x4's time 1.425 s and the spread to 2x8", tips)
	}
}

// TestEscaping: markup in a program name comes out as text.
func TestEscaping(t *testing.T) {
	f := newSweep(t)
	page := f.render(t, Options{})
	if bytes.Contains(page, []byte("<script")) {
		t.Fatal("the program name's <script> reached the page unescaped")
	}
	doc := htmltest.Parse(t, page)
	if !strings.Contains(doc.Text(), fixtureProgram) {
		t.Errorf("the program name %q is not in the page's text", fixtureProgram)
	}
}

// TestSummary: the facts give the trace, counts and parameter ranges.
func TestSummary(t *testing.T) {
	f := newSweep(t)
	doc := htmltest.Parse(t, f.render(t, Options{}))
	got := map[string]string{}
	for _, d := range doc.All(htmltest.Named("div")) {
		dt, dd := d.All(htmltest.Named("dt")), d.All(htmltest.Named("dd"))
		if len(dt) == 1 && len(dd) == 1 {
			got[dt[0].Text()] = dd[0].Text()
		}
	}
	want := map[string]string{
		"Trace":          "jac",
		"Configurations": "19 stored of 20 (1 skipped: more processors than the machine has)",
		"Series":         "3",
		"Processors":     "1 – 32 (6 counts)",
		"Grids":          "1, 2, 2x2, 2x4, 4x4, 4x8, 2x8",
		"Networks":       "bus, cluster, mesh",
		"Start-up time":  "from file, 20 µs",
		"Machines":       "Predictor",
		"Kind":           "sweep",
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("fact %q = %q, want %q", k, got[k], v)
		}
	}
}

// TestTopTables: the three rankings are sorted by their criterion and the
// fastest configuration is the one the breakdown shows by default.
func TestTopTables(t *testing.T) {
	f := newSweep(t)
	doc := htmltest.Parse(t, f.render(t, Options{Top: 5}))
	tables := doc.All(htmltest.WithClass("top"))
	if len(tables) != 3 {
		t.Fatalf("%d top tables, want 3", len(tables))
	}
	col := map[string]int{"time": 5, "efficiency": 6, "cost": 7}
	dir := map[string]float64{"time": 1, "efficiency": -1, "cost": 1}
	for _, tab := range tables {
		key := strings.Fields(tab.Attr["class"])[1]
		rows := tab.All(htmltest.Named("tbody"))[0].All(htmltest.Named("tr"))
		if len(rows) != 5 {
			t.Errorf("%s: %d rows, want 5", key, len(rows))
		}
		prev := math.Inf(-1)
		for _, r := range rows {
			v, err := strconv.ParseFloat(r.All(htmltest.Named("td"))[col[key]].Text(), 64)
			if err != nil {
				t.Fatal(err)
			}
			if v*dir[key] < prev {
				t.Errorf("%s: not sorted: %g after %g", key, v, prev*dir[key])
			}
			prev = v * dir[key]
		}
	}
	fastest := tables[0].All(htmltest.Named("tbody"))[0].All(htmltest.Named("tr"))[0]
	if fastest.Attr["class"] != "chosen" {
		t.Error("the fastest configuration is not marked as the breakdown's")
	}
	// mesh on 32 processors: 10/32 + 0.002*32 s.
	if got := fastest.All(htmltest.Named("td"))[5].Text(); got != "0.3765" {
		t.Errorf("fastest time %s, want 0.3765", got)
	}
}

// TestBreakdown: one row per interval of the report tree; the stacked
// parts add up to the lost time and sit at the right pixels.
func TestBreakdown(t *testing.T) {
	f := newSweep(t)
	run := f.runs[3] // bus, 2x4
	doc := htmltest.Parse(t, f.render(t, Options{Run: run.ID}))
	svg := doc.All(htmltest.WithClass("bars"))[0]
	rows := svg.All(htmltest.WithClass("row"))
	if len(rows) != len(run.Intervals) {
		t.Fatalf("%d rows, want %d (one per interval)", len(rows), len(run.Intervals))
	}
	if !strings.Contains(svg.All(htmltest.Named("title"))[0].Text(), fmt.Sprintf("run %d, grid 2x4", run.ID)) {
		t.Errorf("breakdown title %q does not name run %d", svg.All(htmltest.Named("title"))[0].Text(), run.ID)
	}
	// Main's lost time is the largest stack; the axis ends at a round value
	// above it, on x = 190..536.
	lost := run.Intervals[0].Values[result.LostTime]
	hi := chart.NiceCeil(lost)
	parts := rows[0].All(htmltest.WithClass("part"))
	if len(parts) != nStacked {
		t.Fatalf("%d stacked parts, want %d", len(parts), nStacked)
	}
	x0, _ := strconv.ParseFloat(parts[0].Attr["x"], 64)
	sum := 0.0
	for _, p := range parts {
		w, _ := strconv.ParseFloat(p.Attr["width"], 64)
		sum += w
	}
	if x0 != 190 || math.Abs(sum-lost/hi*346) > 0.2 {
		t.Errorf("Main's stack from x %g, %g px wide; want from 190, %.1f px", x0, sum, lost/hi*346)
	}
	if n := len(rows[0].All(htmltest.WithClass("potential"))); n != 2 {
		t.Errorf("%d potential-loss bars, want 2 (Load_imbalance, Synchronization)", n)
	}
	indents := []string{}
	for _, r := range rows {
		indents = append(indents, r.All(htmltest.Named("text"))[0].Attr["x"])
	}
	if strings.Join(indents, " ") != "8 18 28 18" {
		t.Errorf("label indents %v, want by tree level 8 18 28 18", indents)
	}
}

// TestErrors: what cannot be reported is refused with a message, and
// nothing is written.
func TestErrors(t *testing.T) {
	f := newSweep(t)
	emptyID := f.newSweep(t, stored.Sweep{Command: "x", Hash: "h2"})
	outside := f.outside
	tests := []struct {
		name  string
		sweep int64
		opt   Options
		want  string
	}{
		{"unknown sweep", 99, Options{}, "sweep 99: no such sweep"},
		{"no runs", emptyID, Options{}, "no runs stored"},
		{"run of another sweep", f.sweepID, Options{Run: outside}, fmt.Sprintf("run %d is not one of its runs", outside)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			in, err := Load(context.Background(), f.st, tt.sweep, tt.opt)
			if err == nil {
				err = Write(&b, in, tt.opt)
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one containing %q", err, tt.want)
			}
			if b.Len() != 0 {
				t.Errorf("%d bytes written despite the error", b.Len())
			}
		})
	}
}

// TestSingleConfiguration: a sweep of one run, without a stored
// efficiency, still gives the four charts: one line of one point each,
// and the missing efficiency is drawn nowhere and shown as a dash.
func TestSingleConfiguration(t *testing.T) {
	f := newSweep(t)
	f.sweepID = f.newSweep(t, stored.Sweep{Command: "one", Hash: "h3"})
	f.save(t, f.traceID, f.sweepID, "mesh", 0, []int{2, 2}, 3)
	in := f.load(t, Options{})
	in.Sweep.Configs[0].Efficiency = stored.Null[float64]{} // as a store without it gives
	var b bytes.Buffer
	if err := Write(&b, in, Options{}); err != nil {
		t.Fatal(err)
	}
	doc := htmltest.Parse(t, b.Bytes())
	if n := len(doc.All(htmltest.Named("svg"))); n != 4 {
		t.Fatalf("%d charts, want 4", n)
	}
	charts := lineCharts(t, doc)
	for id, want := range map[string]int{"chart-time": 1, "chart-efficiency": 0, "chart-speedup": 1} {
		lines := charts[id].All(htmltest.Named("polyline"))
		if len(lines) != 1 {
			t.Fatalf("%s: %d polylines, want 1", id, len(lines))
		}
		if got := len(points(t, lines[0])); got != want {
			t.Errorf("%s: %d points, want %d", id, got, want)
		}
	}
	row := doc.All(htmltest.WithClass("top"))[0].All(htmltest.Named("tbody"))[0].All(htmltest.Named("tr"))[0]
	if got := row.All(htmltest.Named("td"))[6].Text(); got != "–" {
		t.Errorf("missing efficiency shown as %q, want –", got)
	}
}

// TestDoubtfulLeftOut: a doubtful configuration, however fast, is not the
// fastest the report shows unless asked for, and a note says so.
func TestDoubtfulLeftOut(t *testing.T) {
	f := newSweep(t)
	fast := f.save(t, f.traceID, f.sweepID, "bus", 0, []int{33}, 1e-6,
		result.Warning{Message: "doubtful: a template of 32 elements …", Count: 1, Doubtful: true})
	for _, tc := range []struct {
		include bool
		note    bool
	}{{false, true}, {true, false}} {
		in := f.load(t, Options{IncludeDoubtful: tc.include})
		if chosen := in.Run.ID == fast; chosen != tc.include {
			t.Errorf("include %v: the breakdown's run is %d (the doubtful one is %d)", tc.include, in.Run.ID, fast)
		}
		page := string(f.render(t, Options{IncludeDoubtful: tc.include}))
		if got := strings.Contains(page, "Doubtful configurations left out: 1."); got != tc.note {
			t.Errorf("include %v: note shown %v, want %v", tc.include, got, tc.note)
		}
	}
}

// TestPerCountTable: one row per series and processor count naming its
// fastest grid; at the bus series' 16 processors, 4x4 beats 2x8, the
// slowest by slowerGrid.
func TestPerCountTable(t *testing.T) {
	f := newSweep(t)
	doc := htmltest.Parse(t, f.render(t, Options{}))
	sec := doc.All(htmltest.WithClass("per-count"))
	if len(sec) != 1 {
		t.Fatalf("%d tables of the fastest grid per count, want 1", len(sec))
	}
	rows := sec[0].All(htmltest.Named("tbody"))[0].All(htmltest.Named("tr"))
	if len(rows) != 18 { // 3 series x 6 counts; the 64-processor run is outside the sweep
		t.Fatalf("%d rows, want 18", len(rows))
	}
	var bus16 []string
	for _, r := range rows {
		var cells []string
		for _, td := range r.All(htmltest.Named("td")) {
			cells = append(cells, td.Text())
		}
		if strings.HasPrefix(cells[0], "bus") && cells[1] == "16" {
			bus16 = cells
		}
	}
	want := []string{"4x4", num(modelTime(16, 0.05)), "2", fmt.Sprintf("%.3f", slowerGrid)}
	if len(bus16) != 8 || bus16[2] != want[0] || bus16[4] != want[1] || bus16[6] != want[2] || bus16[7] != want[3] {
		t.Errorf("bus at 16 processors: %q; want grid, time, grids and slowest %q", bus16, want)
	}
}
