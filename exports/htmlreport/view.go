package htmlreport

import (
	"fmt"
	"strconv"

	"github.com/presage-dvm/presage/sim/result"
)

// document is what the template renders.
type document struct {
	Title    string
	Heading  string
	Subtitle string
	Facts    []fact
	Warnings []result.Warning
	Note     string // why the report does not start at Main, if it does not
	Tree     *node
	Timeline *timelineView // nil when the report has none
	Sections []section
}

type fact struct{ Label, Value string }

// node is one entry of the interval tree at the top of the report.
type node struct {
	ID       int
	Type     string
	Line     int
	Exec     string
	Effic    string
	LostPct  float64 // lost share of total time, -1 when undefined
	Children []*node
}

// header is the identity of an interval as the original's INTERVAL table
// shows it.
type header struct {
	ID                             int
	Type, Level, Count, Line, Expr string
	File                           string
}

type section struct {
	header
	Grid    string
	Rows    []charRow
	Classes []classRow
	Nested  []nestedRow
	Nav     links
	ProdPct float64 // productive share of total time, -1 when undefined
	LostPct float64
	Exec    string
	Effic   string
	Procs   *procTable // nil when the run has no per-processor values
}

// charRow is one line of the characteristics table; Depth is its
// indentation under Total time (1) and Lost time (2).
type charRow struct {
	Label string
	Value string
	Depth int
	Parts []fact
}

type classRow struct {
	Name  string
	Cells []string // # op, Communications, Real synch, Synch, Variation, Overlap
}

type nestedRow struct {
	Ord int // 1-based position among the children, the original's "Go"
	header
	Exec, Effic string
}

type links struct{ Up, Prev, Next, Home string }

// build makes the document of the subtree of root.
func build(run *result.Run, root *result.Interval, opt Options) *document {
	ivs := run.Subtree(root.ID)
	shown := make(map[int]bool, len(ivs))
	for _, iv := range ivs {
		shown[iv.ID] = true
	}
	href := func(id int) string {
		if shown[id] {
			return "#" + strconv.Itoa(id)
		}
		return "#top" // Main when the report starts below it
	}
	nav := navigation(run, root)
	doc := &document{
		Title:    fmt.Sprintf("%s — %s report", run.Program, kindName(run.Kind, false)),
		Heading:  run.Program,
		Subtitle: subtitle(run),
		Facts:    facts(run),
		Warnings: run.Warnings,
		Note:     note(run, root),
		Tree:     tree(run, root),
		Timeline: newTimelineView(opt.Timeline),
	}
	grid := result.GridString(run.Config.Grid)
	for _, iv := range ivs {
		t := nav[iv.ID]
		s := newSection(run, iv, grid)
		s.Nav = links{href(t.Up), href(t.Prev), href(t.Next), href(t.Home)}
		doc.Sections = append(doc.Sections, s)
	}
	return doc
}
