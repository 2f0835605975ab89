package htmlreport

import (
	"bytes"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/exports/internal/htmltest"
	"github.com/presage-dvm/presage/internal/storetest"
	"github.com/presage-dvm/presage/sim/result"
)

// TestAnchors: the report is well-formed, has a section per interval of the
// report in pre-order, and every internal link resolves.
func TestAnchors(t *testing.T) {
	tests := []struct {
		name string
		root int
		opt  Options
		want []string
	}{
		{"from Main", 1, Options{}, []string{"1", "2", "3", "4", "5", "6"}},
		{"from report root", 5, Options{}, []string{"5", "6"}},
		{"all intervals", 5, Options{AllIntervals: true}, []string{"1", "2", "3", "4", "5", "6"}},
		{"root not recorded", 0, Options{}, []string{"1", "2", "3", "4", "5", "6"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			run := testRun()
			run.ReportRoot = tt.root
			doc := htmltest.Parse(t, render(t, run, tt.opt))
			var ids []string
			for _, s := range doc.All(htmltest.WithClass("interval")) {
				ids = append(ids, s.Attr["id"])
			}
			if strings.Join(ids, " ") != strings.Join(tt.want, " ") {
				t.Errorf("sections %v, want %v", ids, tt.want)
			}
			anchors := map[string]bool{}
			for _, e := range doc.All(func(e *htmltest.Node) bool { return e.Attr["id"] != "" }) {
				if anchors[e.Attr["id"]] {
					t.Errorf("id %q used twice", e.Attr["id"])
				}
				anchors[e.Attr["id"]] = true
			}
			for _, a := range doc.All(htmltest.Named("a")) {
				if href := a.Attr["href"]; !anchors[strings.TrimPrefix(href, "#")] {
					t.Errorf("link %q (%s) goes nowhere", href, a.Text())
				}
			}
		})
	}
}

// TestNavigation checks the original's UP/PREV/NEXT/HOME rules on a 3-level
// tree (see testRun), from Main and from a report root below it, where
// links to Main go to the top of the report.
func TestNavigation(t *testing.T) {
	tests := []struct {
		name string
		root int
		want map[string][4]string // section -> up, prev, next, home
	}{
		{"from Main", 1, map[string][4]string{
			"1": {"#1", "#5", "#2", "#1"}, // root: up itself, prev last child, next first child
			"2": {"#1", "#1", "#5", "#1"}, // first child: prev is the parent
			"3": {"#2", "#2", "#4", "#1"},
			"4": {"#2", "#3", "#2", "#1"}, // last child: next is the parent
			"5": {"#1", "#2", "#1", "#1"},
			"6": {"#5", "#5", "#5", "#1"}, // only child: prev and next are the parent
		}},
		{"from Seq 2", 2, map[string][4]string{
			"2": {"#top", "#4", "#3", "#top"},
			"3": {"#2", "#2", "#4", "#top"},
			"4": {"#2", "#3", "#2", "#top"},
		}},
		{"from a leaf", 6, map[string][4]string{
			"6": {"#top", "#6", "#6", "#top"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			run := testRun()
			run.ReportRoot = tt.root
			doc := htmltest.Parse(t, render(t, run, Options{}))
			sections := doc.All(htmltest.WithClass("interval"))
			if len(sections) != len(tt.want) {
				t.Fatalf("%d sections, want %d", len(sections), len(tt.want))
			}
			for _, s := range sections {
				id := s.Attr["id"]
				var got [4]string
				for i, c := range []string{"up", "prev", "next", "home"} {
					got[i] = s.First(t, c, htmltest.WithClass(c)).Attr["href"]
				}
				if got != tt.want[id] {
					t.Errorf("interval %s: up/prev/next/home = %v, want %v", id, got, tt.want[id])
				}
			}
		})
	}
}

// TestNested: the nested-interval table lists the children in creation
// order, numbered from 1, each linking to its section.
func TestNested(t *testing.T) {
	doc := htmltest.Parse(t, render(t, testRun(), Options{}))
	sec := doc.First(t, "section 1", htmltest.WithID("1"))
	rows := sec.First(t, "nested table", htmltest.WithClass("nested")).Rows()[1:]
	want := [][]string{
		{"1", "Seq", "1", "2", "20", "", "jac.fdv", "0.0050", "0.2500"},
		{"2", "User", "1", "5", "50", "7", "jac.fdv", "0.0020", "0.2500"},
	}
	for i, row := range rows {
		if strings.Join(row, "|") != strings.Join(want[i], "|") {
			t.Errorf("nested row %d = %q, want %q", i, row, want[i])
		}
	}
	links := sec.First(t, "nested table", htmltest.WithClass("nested")).All(htmltest.Named("a"))
	if len(links) != 2 || links[0].Attr["href"] != "#2" || links[1].Attr["href"] != "#5" {
		t.Errorf("nested links wrong: %v", links)
	}
	if leaf := doc.First(t, "section 3", htmltest.WithID("3")); len(leaf.All(htmltest.WithClass("nested"))) != 0 {
		t.Error("a leaf interval has a nested-interval table")
	}
}

// TestTree: the interval tree at the top nests like the intervals and
// links to every section.
func TestTree(t *testing.T) {
	doc := htmltest.Parse(t, render(t, testRun(), Options{}))
	tree := doc.First(t, "interval tree", htmltest.WithClass("tree"))
	var hrefs []string
	depth := map[string]int{}
	var walk func(e *htmltest.Node, d int)
	walk = func(e *htmltest.Node, d int) {
		for _, k := range e.Kids {
			if k.Name == "ul" {
				d++
			}
			if k.Name == "a" {
				hrefs = append(hrefs, k.Attr["href"])
				depth[k.Attr["href"]] = d
			}
			walk(k, d)
			if k.Name == "ul" {
				d--
			}
		}
	}
	walk(tree, 0)
	if got := strings.Join(hrefs, " "); got != "#1 #2 #3 #4 #5 #6" {
		t.Errorf("tree links %s, want #1 #2 #3 #4 #5 #6", got)
	}
	for href, want := range map[string]int{"#1": 1, "#2": 2, "#3": 3, "#5": 2, "#6": 3} {
		if depth[href] != want {
			t.Errorf("tree node %s at depth %d, want %d", href, depth[href], want)
		}
	}
	if n := len(tree.All(htmltest.Named("details"))); n != 3 {
		t.Errorf("%d collapsible nodes, want 3 (the intervals with children)", n)
	}
	main := tree.All(htmltest.WithClass("row"))[1].Text() // after the column heads
	for _, want := range []string{"Main", "line 10", "0.0100", "0.2500"} {
		if !strings.Contains(main, want) {
			t.Errorf("tree row %q lacks %q", main, want)
		}
	}
	bar := tree.All(htmltest.WithClass("bar"))[0].Kids[0]
	if bar.Attr["style"] != "width: 75.0%" {
		t.Errorf("lost-time bar style %q, want width: 75.0%%", bar.Attr["style"])
	}
}

// TestFormat: values are printed as the original prints them.
func TestFormat(t *testing.T) {
	run := testRun()
	v := &run.Intervals[0].Values
	v[result.Efficiency] = 0.24154
	v[result.ExecutionTime] = 1.0 / 3
	v[result.Overlap] = -0.00001
	v[result.IOTime] = 12.34565
	v[result.OpChar(result.OpReduction, result.OpCount)] = 11
	v[result.OpChar(result.OpShadow, result.OpSynch)] = 0.00005
	doc := htmltest.Parse(t, render(t, run, Options{}))
	sec := doc.First(t, "section 1", htmltest.WithID("1"))
	chars := map[string][]string{}
	for _, row := range sec.First(t, "characteristics", htmltest.WithClass("chars")).Rows() {
		chars[row[0]] = row[1:]
	}
	for label, want := range map[string]string{
		"Processors": "2x2", "Efficiency": "0.2415", "Execution time": "0.3333", "Overlap": "-0.0000",
		"Productive time": "0.0100",
	} {
		if got := chars[label]; len(got) == 0 || got[0] != want {
			t.Errorf("%s = %v, want %s", label, got, want)
		}
	}
	// 12.34565 is 12.3456499... in binary: rounded as C's printf does.
	if got := chars["Productive time"][1]; !strings.Contains(got, "I/O 12.3456") {
		t.Errorf("Productive time parts %q, want I/O 12.3456", got)
	}
	classes := sec.First(t, "classes", htmltest.WithClass("classes")).Rows()
	if got := classes[2]; got[0] != "Reduction" || got[1] != "11" {
		t.Errorf("reduction row %v, want # op 11", got)
	}
	if got := classes[3]; got[0] != "Shadow" || got[4] != "0.0001" {
		t.Errorf("shadow row %v, want synch 0.0001", got)
	}
}

func TestNum(t *testing.T) {
	for _, tt := range []struct {
		v    float64
		want string
	}{
		{0, "0.0000"}, {0.24154, "0.2415"}, {0.24156, "0.2416"}, {-0.00001, "-0.0000"}, {1234.5, "1234.5000"},
	} {
		if got := num(tt.v); got != tt.want {
			t.Errorf("num(%v) = %q, want %q", tt.v, got, tt.want)
		}
	}
	for _, tt := range []struct {
		part, whole, want float64
	}{
		{1, 4, 25}, {5, 4, 100}, {-1, 4, 0}, {1, 0, -1}, {math.NaN(), 1, -1}, {1, math.Inf(1), -1},
	} {
		if got := share(tt.part, tt.whole); got != tt.want {
			t.Errorf("share(%v, %v) = %v, want %v", tt.part, tt.whole, got, tt.want)
		}
	}
}

// TestEscaping: names from traces cannot inject markup.
func TestEscaping(t *testing.T) {
	const evil = `<script>alert("x")</script>&.f`
	run := testRun()
	run.Program = evil
	run.Intervals[2].File = evil
	run.Config.Machine = `"><img src=x onerror=alert(1)>`
	run.Warnings = []result.Warning{{Message: "unknown function <b>f</b>", Count: 2}}
	out := render(t, run, Options{})
	for _, bad := range []string{"<script>", "<img", "<b>f"} {
		if bytes.Contains(out, []byte(bad)) {
			t.Errorf("output contains %q unescaped", bad)
		}
	}
	doc := htmltest.Parse(t, out)
	if got := doc.First(t, "title", htmltest.Named("title")).Text(); !strings.Contains(got, evil) {
		t.Errorf("title %q does not show the program name as text", got)
	}
	ident := doc.First(t, "section 3", htmltest.WithID("3")).First(t, "ident", htmltest.WithClass("ident")).Rows()
	if got := ident[1][5]; got != evil {
		t.Errorf("file cell %q, want %q", got, evil)
	}
	if n := len(doc.All(htmltest.Named("script"))); n != 0 {
		t.Errorf("%d script elements", n)
	}
}

func TestErrors(t *testing.T) {
	tests := []struct {
		name string
		edit func(*result.Run)
		want string
	}{
		{"missing root", func(r *result.Run) { r.ReportRoot = 9 }, "report root 9 is not an interval"},
		{"broken tree", func(r *result.Run) { r.Intervals[1].Children = []int{3, 8} }, "child 8, which is not in the run"},
		{"no intervals", func(r *result.Run) { r.Intervals = nil }, "no intervals"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			run := testRun()
			tt.edit(run)
			var b bytes.Buffer
			err := Write(&b, run, Options{})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one containing %q", err, tt.want)
			}
			if b.Len() != 0 {
				t.Errorf("%d bytes written despite the error", b.Len())
			}
		})
	}
}

// TestSummary: the run summary shows the configuration and the warnings.
func TestSummary(t *testing.T) {
	run := testRun()
	run.Config.TStart, run.Config.TByte = 7e-6, 4e-9
	run.Config.Options = []string{"close-intervals"}
	run.Warnings = []result.Warning{{Message: "unknown function foo_", Count: 3}}
	run.ReportRoot = 2
	doc := htmltest.Parse(t, render(t, run, Options{}))
	facts := map[string]string{}
	for _, d := range doc.First(t, "facts", htmltest.WithClass("facts")).All(htmltest.Named("div")) {
		facts[d.Kids[0].Text()] = d.Kids[1].Text()
	}
	for label, want := range map[string]string{
		"Program": "jac", "Machine": "Predictor", "Processors": "2x2 (4)", "Network": "cluster",
		"Start-up time": "7 µs", "Time per byte": "0.004 µs", "Processor power": "from the machine file",
		"Deviations from the original": "close-intervals",
	} {
		if facts[label] != want {
			t.Errorf("%s = %q, want %q", label, facts[label], want)
		}
	}
	if got := doc.First(t, "warnings", htmltest.WithClass("warnings")).Text(); !strings.Contains(got, "unknown function foo_ × 3") {
		t.Errorf("warnings %q", got)
	}
	if got := doc.First(t, "note", htmltest.WithClass("note")).Text(); !strings.Contains(got, "starts at interval "+strconv.Itoa(2)) {
		t.Errorf("note %q does not say where the report starts", got)
	}
}

// TestStoredRun: a run read back from the store renders as the run itself.
func TestStoredRun(t *testing.T) {
	run := testRun()
	run.ReportRoot = 2
	run.Warnings = []result.Warning{{Message: "unknown function foo_", Count: 3}}
	stored := storetest.RoundTrip(t, run)
	if want, got := render(t, run, Options{}), render(t, stored, Options{}); !bytes.Equal(got, want) {
		t.Errorf("stored run renders differently:\n%s\nwant\n%s", got, want)
	}
}

// TestMeasured: a measured run has no machine configuration to show.
func TestMeasured(t *testing.T) {
	run := testRun()
	run.Kind, run.Config = result.Measured, result.Config{Grid: []int{2}}
	doc := htmltest.Parse(t, render(t, run, Options{}))
	if got := doc.First(t, "subtitle", htmltest.WithClass("subtitle")).Text(); !strings.HasPrefix(got, "Measured performance · 2 = 2 processors") {
		t.Errorf("subtitle %q", got)
	}
	if got := doc.First(t, "facts", htmltest.WithClass("facts")).Text(); strings.Contains(got, "Machine") {
		t.Errorf("facts of a measured run show a machine: %q", got)
	}
}

// BenchmarkWrite renders a report of 1,000 intervals (a wide two-level tree).
func BenchmarkWrite(b *testing.B) {
	run := &result.Run{Kind: result.Predicted, Program: "big", Config: result.Config{Grid: []int{4, 4}}}
	main := &result.Interval{ID: 1, Type: result.Main}
	run.Intervals = append(run.Intervals, main)
	for id := 2; id <= 1000; id++ {
		main.Children = append(main.Children, id)
		iv := &result.Interval{ID: id, Parent: 1, Level: 1, Type: result.Par, Line: id, File: "big.fdv"}
		iv.Values[result.TotalTime], iv.Values[result.LostTime] = 1, 0.5
		run.Intervals = append(run.Intervals, iv)
	}
	var buf bytes.Buffer
	for b.Loop() {
		buf.Reset()
		if err := Write(&buf, run, Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(buf.Len()), "bytes/report")
}
