package htmlreport

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/exports/internal/htmltest"
	"github.com/presage-dvm/presage/internal/golden"
	"github.com/presage-dvm/presage/sim/result"
)

// origPage is one interval page of an original Predictor report.
type origPage struct {
	id       int
	cells    []string // value cells in document order
	children []int    // IDs of the NESTED INTERVALS links
	nav      map[string]int
}

var (
	origAnchor = regexp.MustCompile(`<A NAME=\n"(\d+)"\n>`)
	origCell   = regexp.MustCompile(`<CENTER><FONT SIZE=-1>(?:<B>[^<]*</B>)?\n([^<\n]*)\n?</FONT></CENTER>`)
	origNested = regexp.MustCompile(`<A HREF=\n"#(\d+)"\n>\n\d+\n</A>`)
	origNav    = regexp.MustCompile(`<A HREF=\n"#(\d+)"\n>(UP|PRED|NEXT|HOME)</A>`)
)

// readOriginal splits an original report into its interval pages.
func readOriginal(t *testing.T, path string) []origPage {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var pages []origPage
	for _, doc := range strings.Split(string(b), "<HTML>")[1:] {
		m := origAnchor.FindStringSubmatch(doc)
		if m == nil {
			t.Fatalf("%s: page without anchor", path)
		}
		p := origPage{id: atoi(t, m[1]), nav: map[string]int{}}
		for _, c := range origCell.FindAllStringSubmatch(doc, -1) {
			p.cells = append(p.cells, c[1])
		}
		for _, c := range origNested.FindAllStringSubmatch(doc, -1) {
			p.children = append(p.children, atoi(t, c[1]))
		}
		for _, c := range origNav.FindAllStringSubmatch(doc, -1) {
			p.nav[c[2]] = atoi(t, c[1])
		}
		pages = append(pages, p)
	}
	return pages
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatalf("%q: expected an integer", s)
	}
	return n
}

// The value cells of a page, in the original's order (docs/model.md §8.1):
// 6 identity cells, the grid, 18 characteristics, 5x6 class cells, then 6
// cells per nested interval.
const identCells, charCells = 6, 18

var origChars = [charCells]result.Char{
	result.Efficiency, result.ExecutionTime, result.TotalTime,
	result.ProductiveTime, result.ProductiveCPUTime, result.ProductiveSYSTime, result.IOTime,
	result.LostTime, result.InsuffParallelism, result.InsuffParallelismUsr, result.InsuffParallelismSys,
	result.Communication, result.CommunicationSynch, result.Idle,
	result.LoadImbalance, result.Synchronization, result.TimeVariation, result.Overlap,
}

// runFromOriginal rebuilds the run an original report shows, with its
// 4-decimal values. A report starting below Main gets a Main (ID 1) above
// its first interval, as in the simulator's tree.
func runFromOriginal(t *testing.T, pages []origPage) *result.Run {
	t.Helper()
	run := &result.Run{Kind: result.Predicted, Program: "orig", ReportRoot: pages[0].id}
	parent := map[int]int{}
	for _, p := range pages {
		for _, c := range p.children {
			parent[c] = p.id
		}
	}
	if pages[0].id != 1 {
		run.Intervals = append(run.Intervals, &result.Interval{ID: 1, Type: result.Main, Children: []int{pages[0].id}})
		parent[pages[0].id] = 1
	}
	for _, p := range pages {
		iv, grid := intervalFromPage(t, p)
		iv.Parent = parent[p.id]
		run.Intervals = append(run.Intervals, iv)
		run.Config.Grid = grid
	}
	return run
}

func intervalFromPage(t *testing.T, p origPage) (*result.Interval, []int) {
	t.Helper()
	want := identCells + 1 + charCells + 30 + 6*len(p.children)
	if len(p.cells) != want {
		t.Fatalf("page %d: %d value cells, want %d", p.id, len(p.cells), want)
	}
	c := p.cells
	iv := &result.Interval{ID: p.id, Type: result.IntervalType(c[0]), Level: atoi(t, c[1]),
		Count: int64(atoi(t, c[2])), Line: atoi(t, c[3]), File: c[5], Children: p.children}
	if c[4] != "" {
		e := int64(atoi(t, c[4]))
		iv.Expr = &e
	}
	grid, err := result.ParseGrid(c[identCells])
	if err != nil {
		t.Fatal(err)
	}
	vals := c[identCells+1:]
	for i, ch := range origChars {
		iv.Values[ch] = parseFloat(t, vals[i])
	}
	for cl := result.OpIO; cl < result.NumOpClasses; cl++ {
		for col := result.OpCount; col <= result.OpOverlap; col++ {
			iv.Values[result.OpChar(cl, col)] = parseFloat(t, vals[charCells+int(cl)*6+col])
		}
	}
	return iv, grid
}

func parseFloat(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("%q: expected a number", s)
	}
	return v
}

// TestOriginalReports rebuilds the run of every original Predictor report,
// renders it and compares, section by section, the sections (pre-order from
// the report root), the navigation targets and every value the original
// prints, by label.
func TestOriginalReports(t *testing.T) {
	names, _ := filepath.Glob(golden.Path(t, "predictor", "*.html"))
	if len(names) == 0 {
		t.Fatal("no original reports found")
	}
	for _, name := range names {
		name = filepath.Base(name)
		t.Run(name, func(t *testing.T) {
			pages := readOriginal(t, golden.Path(t, "predictor", name))
			run := runFromOriginal(t, pages)
			doc := htmltest.Parse(t, render(t, run, Options{}))
			sections := doc.All(htmltest.WithClass("interval"))
			if len(sections) != len(pages) {
				t.Fatalf("%d sections, want %d", len(sections), len(pages))
			}
			for i, p := range pages {
				sec := sections[i]
				if sec.Attr["id"] != strconv.Itoa(p.id) {
					t.Fatalf("section %d has id %q, want %d", i, sec.Attr["id"], p.id)
				}
				compareNav(t, sec, p, pages)
				compareValues(t, sec, p)
			}
		})
	}
}

func compareNav(t *testing.T, sec *htmltest.Node, p origPage, pages []origPage) {
	t.Helper()
	shown := map[int]bool{}
	for _, q := range pages {
		shown[q.id] = true
	}
	for orig, class := range map[string]string{"UP": "up", "PRED": "prev", "NEXT": "next", "HOME": "home"} {
		want := "#top"
		if shown[p.nav[orig]] {
			want = fmt.Sprintf("#%d", p.nav[orig])
		}
		if got := sec.First(t, class+" link", htmltest.WithClass(class)).Attr["href"]; got != want {
			t.Errorf("interval %d: %s -> %s, want %s (original #%d)", p.id, orig, got, want, p.nav[orig])
		}
	}
}

// compareValues checks the characteristics and class tables of a section
// against the original's cells.
func compareValues(t *testing.T, sec *htmltest.Node, p origPage) {
	t.Helper()
	labels := []string{"Efficiency", "Execution time", "Total time", "Productive time", "CPU", "SYS", "I/O",
		"Lost time", "Insufficient parallelism", "USR", "SYS", "Communications", "SYN", "Idle time",
		"Load imbalance", "Synchronization", "Time variation", "Overlap"}
	var got []string
	var gotLabels []string
	for _, row := range sec.First(t, "characteristics table", htmltest.WithClass("chars")).Rows()[1:] {
		gotLabels = append(gotLabels, row[0])
		got = append(got, row[1])
		for _, part := range strings.Fields(row[2]) {
			if _, err := strconv.ParseFloat(part, 64); err == nil {
				got = append(got, part)
			} else {
				gotLabels = append(gotLabels, part)
			}
		}
	}
	want := p.cells[identCells+1 : identCells+1+charCells]
	if strings.Join(gotLabels, "|") != strings.Join(labels, "|") || strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("interval %d characteristics:\n got %v = %v\nwant %v = %v", p.id, gotLabels, got, labels, want)
	}
	got = got[:0]
	for _, row := range sec.First(t, "class table", htmltest.WithClass("classes")).Rows()[1:] {
		got = append(got, row[1:]...)
	}
	want = p.cells[identCells+1+charCells : identCells+1+charCells+30]
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("interval %d classes:\n got %v\nwant %v", p.id, got, want)
	}
}
