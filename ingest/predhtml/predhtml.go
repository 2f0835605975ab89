// Package predhtml reads the original DVM Predictor's HTML report back into
// the run it shows, so that Presage's prediction of the same trace can be
// held against the original's numbers on files nobody stored as goldens
// (the DVM reality check, `presage reality`). The report is a sequence of
// <HTML> documents, one per interval, in the original's order
// (docs/model.md §8.1); the patterns are those of exports/htmlreport's
// golden test, which reads the golden reports the same way.
package predhtml

import (
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	"github.com/presage-dvm/presage/sim/result"
)

var (
	anchor = regexp.MustCompile(`<A NAME=\n"(\d+)"\n>`)
	cell   = regexp.MustCompile(`<CENTER><FONT SIZE=-1>(?:<B>[^<]*</B>)?\n([^<\n]*)\n?</FONT></CENTER>`)
	nested = regexp.MustCompile(`<A HREF=\n"#(\d+)"\n>\n\d+\n</A>`)
)

// The value cells of a page, in the original's order: 6 identity cells
// (type, level, count, line, expression, file), the grid, 18
// characteristics, 5 operation classes of 6 cells, then 6 cells per nested
// interval.
const (
	identCells = 6
	charCells  = 18
	classCells = int(result.NumOpClasses) * 6
)

// Chars are the characteristics of a page's main table, in its order.
var Chars = [charCells]result.Char{
	result.Efficiency, result.ExecutionTime, result.TotalTime,
	result.ProductiveTime, result.ProductiveCPUTime, result.ProductiveSYSTime, result.IOTime,
	result.LostTime, result.InsuffParallelism, result.InsuffParallelismUsr, result.InsuffParallelismSys,
	result.Communication, result.CommunicationSynch, result.Idle,
	result.LoadImbalance, result.Synchronization, result.TimeVariation, result.Overlap,
}

// page is one interval page of the report.
type page struct {
	id       int
	cells    []string
	children []int
}

// Read reads the report r (named name in errors) into a predicted run: its
// intervals in the report's order, from the report root, with the values
// the report prints (4 decimals) and the grid its pages print (which, for
// task-parallel programs, is 1 whatever grid the report was made for). A report that
// starts below Main gets a Main (ID 1) above its first interval, as the
// simulator's tree has.
func Read(r io.Reader, name string) (*result.Run, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	pages, err := split(string(b), name)
	if err != nil {
		return nil, err
	}
	run := &result.Run{Kind: result.Predicted, ReportRoot: pages[0].id}
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
		iv, grid, err := p.interval(name)
		if err != nil {
			return nil, err
		}
		iv.Parent = parent[p.id]
		run.Intervals = append(run.Intervals, iv)
		run.Config.Grid = grid
	}
	return run, nil
}

// split cuts the report into its interval pages.
func split(doc, name string) ([]page, error) {
	docs := strings.Split(doc, "<HTML>")[1:]
	if len(docs) == 0 {
		return nil, fmt.Errorf("%s: no <HTML> page: expected an original Predictor report", name)
	}
	var pages []page
	for i, d := range docs {
		m := anchor.FindStringSubmatch(d)
		if m == nil {
			return nil, fmt.Errorf("%s: page %d has no interval anchor (<A NAME=\"N\">): expected an original Predictor report", name, i+1)
		}
		p := page{}
		p.id, _ = strconv.Atoi(m[1])
		for _, c := range cell.FindAllStringSubmatch(d, -1) {
			p.cells = append(p.cells, c[1])
		}
		for _, c := range nested.FindAllStringSubmatch(d, -1) {
			n, _ := strconv.Atoi(c[1])
			p.children = append(p.children, n)
		}
		pages = append(pages, p)
	}
	return pages, nil
}

// interval turns a page's cells into its interval and the grid it shows.
func (p page) interval(name string) (*result.Interval, []int, error) {
	where := fmt.Sprintf("%s: interval %d", name, p.id)
	if want := identCells + 1 + charCells + classCells + 6*len(p.children); len(p.cells) != want {
		return nil, nil, fmt.Errorf("%s: %d value cells, expected %d", where, len(p.cells), want)
	}
	c := p.cells
	level, err1 := strconv.Atoi(c[1])
	count, err2 := strconv.ParseInt(c[2], 10, 64)
	line, err3 := strconv.Atoi(c[3])
	if err1 != nil || err2 != nil || err3 != nil {
		return nil, nil, fmt.Errorf("%s: level %q, count %q, line %q: expected integers", where, c[1], c[2], c[3])
	}
	iv := &result.Interval{ID: p.id, Type: result.IntervalType(c[0]), Level: level, Count: count, Line: line,
		File: c[5], Children: p.children}
	if c[4] != "" {
		e, err := strconv.ParseInt(c[4], 10, 64)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: expression %q: expected an integer", where, c[4])
		}
		iv.Expr = &e
	}
	grid, err := result.ParseGrid(c[identCells])
	if err != nil {
		return nil, nil, fmt.Errorf("%s: grid %q: %w", where, c[identCells], err)
	}
	vals := c[identCells+1:]
	for i, ch := range Chars {
		if iv.Values[ch], err = number(vals[i], where); err != nil {
			return nil, nil, err
		}
	}
	for cl := result.OpIO; cl < result.NumOpClasses; cl++ {
		for col := result.OpCount; col <= result.OpOverlap; col++ {
			if iv.Values[result.OpChar(cl, col)], err = number(vals[charCells+int(cl)*6+col], where); err != nil {
				return nil, nil, err
			}
		}
	}
	return iv, grid, nil
}

func number(s, where string) (float64, error) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, fmt.Errorf("%s: value %q: expected a number", where, s)
	}
	return v, nil
}
