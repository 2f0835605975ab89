package sweepreport

import (
	"cmp"
	"fmt"
	"html/template"
	"math"
	"slices"
	"strings"

	"github.com/presage-dvm/presage/exports/internal/numfmt"
	"github.com/presage-dvm/presage/schema/stored"
)

// page is what the template renders.
type page struct {
	Title, Heading, Subtitle string
	Facts                    []fact
	Command                  string
	Charts                   []figure
	Tops                     []topTable
	PerCount                 []perCountRow
	PerCountOmitted          string // why PerCount is empty although the sweep compares grids
	PerCountSeries           bool   // whether PerCount names series (more than one)
	All                      []configRow
	AllCount                 int    // configurations in the sweep
	AllOmitted               string // why All is empty, with how to get the rows
	Series                   int
	Notes                    []string
}

// maxAllRows bounds the table of every configuration: beyond it the page
// would grow with the sweep, and the store or an export serves better.
const maxAllRows = 2000

type fact struct{ Label, Value string }

// figure is one chart with its caption.
type figure struct {
	Caption string
	SVG     template.HTML // written by exports/internal/chart, text escaped
	Note    string
}

// topTable lists the best configurations by one criterion.
type topTable struct {
	Caption string
	Key     string // "time", "efficiency" or "cost": the column to emphasise
	Rows    []configRow
}

// perCountRow is the fastest grid of one processor count in one series,
// compared with the other grids of that count.
type perCountRow struct {
	Series      string
	Procs       int
	Grid        string
	Run         int64
	Time, Effic string
	Grids       int    // grids compared at this count
	Slowest     string // the slowest grid's time relative to the fastest's
	Chosen      bool
}

// configRow is one configuration in a table.
type configRow struct {
	Rank                       int
	Run                        int64
	Grid                       string
	Procs                      int
	Series                     string
	Time, Effic, Speedup, Cost string
	Chosen                     bool // the breakdown's configuration
	Best                       bool // on its series' line
	key                        *config
}

func build(sw *stored.SweepReport, cs []*config, chosen *config, ivs []*interval, opt Options) *page {
	ss := buildSeries(cs)
	rows := configRows(ss, chosen)
	trace := sw.Trace
	p := &page{
		Title:    fmt.Sprintf("Presage sweep %d: %s", sw.Sweep.ID, trace),
		Heading:  fmt.Sprintf("Sweep %d · %s", sw.Sweep.ID, trace),
		Subtitle: fmt.Sprintf("Predicted performance of %d configurations in %d series", len(cs), len(ss)),
		Facts:    facts(sw, cs, ss),
		Command:  sw.Sweep.Command,
		All:      rows,
		Series:   len(ss),
	}
	p.AllCount = len(rows)
	if len(rows) > maxAllRows {
		p.All = nil
		p.AllOmitted = fmt.Sprintf("%d configurations are too many for a page; every one is in the store: presage export csv --sweep %d, or presage query.",
			len(rows), sw.Sweep.ID)
	}
	l := chooseLayout(cs)
	p.Notes = l.notes()
	ps := panels(cs, l)
	for _, q := range []quantity{timeQ, efficQ, speedupQ} {
		for _, ch := range quantityCharts(ps, l, q) {
			p.Charts = append(p.Charts, figure{Caption: ch.Title, SVG: template.HTML(ch.SVG())})
		}
	}
	label := ""
	for _, s := range ss {
		if s.Key == keyOf(chosen) {
			label = s.Label
		}
	}
	bars, note := barChartOf(chosen, label, ivs, opt.maxIntervals())
	why := "the fastest configuration"
	if opt.Run != 0 {
		why = "the chosen configuration"
	}
	p.Charts = append(p.Charts, figure{
		Caption: fmt.Sprintf("Lost-time breakdown per interval of %s (run %d)", why, chosen.RunID),
		SVG:     template.HTML(bars.SVG()), Note: note,
	})
	p.Tops = tops(rows, opt.top())
	p.PerCount, p.PerCountOmitted = perCountRows(ss, chosen, sw.Sweep.ID)
	p.PerCountSeries = len(ss) > 1
	return p
}

// perCountRows lists the fastest grid of every processor count of every
// series, or nothing when no count has two grids to compare or the rows
// would be too many for a page (saying then where to find them).
func perCountRows(ss []*series, chosen *config, sweepID int64) ([]perCountRow, string) {
	var rows []perCountRow
	compared := false
	for _, s := range ss {
		for _, pt := range s.Points {
			b := pt.Best
			slowest := b
			for _, c := range pt.Others {
				if faster(slowest, c) {
					slowest = c
				}
			}
			compared = compared || len(pt.Others) > 0
			rows = append(rows, perCountRow{
				Series: s.Label, Procs: pt.Procs, Grid: b.Grid, Run: b.RunID,
				Time: num(b.Time), Effic: num(b.Efficiency()), Grids: 1 + len(pt.Others),
				Slowest: numfmt.Fixed(slowest.Time/b.Time, 3, undef), Chosen: b == chosen,
			})
		}
	}
	switch {
	case !compared:
		return nil, ""
	case len(rows) > maxAllRows:
		return nil, fmt.Sprintf("The fastest grid of each of %d processor counts and series: presage query --name best_grid --param sweep=%d.", len(rows), sweepID)
	}
	return rows, ""
}

// configRows lists every configuration by series, processors and run id,
// with the values the tables show.
func configRows(ss []*series, chosen *config) []configRow {
	var rows []configRow
	for _, s := range ss {
		for _, pt := range s.Points {
			for _, c := range append([]*config{pt.Best}, pt.Others...) {
				rows = append(rows, configRow{
					Run: c.RunID, Grid: c.Grid, Procs: c.Procs, Series: s.Label,
					Time: num(c.Time), Effic: num(c.Efficiency()), Speedup: short(s.Speedup(c)), Cost: num(c.Cost()),
					Chosen: c == chosen, Best: c == pt.Best,
					key: c,
				})
			}
		}
	}
	return rows
}

// tops returns the n best rows by time, efficiency and cost.
func tops(rows []configRow, n int) []topTable {
	by := func(caption, key string, less func(a, b *config) int) topTable {
		sorted := slices.Clone(rows)
		slices.SortStableFunc(sorted, func(a, b configRow) int {
			return cmp.Or(less(a.key, b.key), cmp.Compare(a.Run, b.Run))
		})
		sorted = sorted[:min(n, len(sorted))]
		for i := range sorted {
			sorted[i].Rank = i + 1
		}
		return topTable{Caption: caption, Key: key, Rows: sorted}
	}
	return []topTable{
		by("Fastest configurations", "time", func(a, b *config) int { return cmpNaNLast(a.Time, b.Time) }),
		by("Most efficient configurations", "efficiency", func(a, b *config) int { return cmpNaNLast(-a.Efficiency(), -b.Efficiency()) }),
		by("Cheapest configurations (time × processors)", "cost", func(a, b *config) int { return cmpNaNLast(a.Cost(), b.Cost()) }),
	}
}

// cmpNaNLast orders numbers ascending with NaN after every number.
func cmpNaNLast(a, b float64) int {
	switch an, bn := math.IsNaN(a), math.IsNaN(b); {
	case an && bn:
		return 0
	case an:
		return 1
	case bn:
		return -1
	}
	return cmp.Compare(a, b)
}

// facts summarises the sweep: its trace and what its configurations span.
func facts(sw *stored.SweepReport, cs []*config, ss []*series) []fact {
	stored := fmt.Sprintf("%d stored", len(cs))
	if sw.Sweep.Configs > 0 && sw.Sweep.Configs != len(cs) {
		stored += fmt.Sprintf(" of %d", sw.Sweep.Configs)
	}
	if sw.Sweep.Skipped > 0 {
		stored += fmt.Sprintf(" (%d skipped: more processors than the machine has)", sw.Sweep.Skipped)
	}
	fs := []fact{
		{"Trace", sw.Trace},
		{"Program", distinct(cs, func(c *config) string { return c.Program })},
	}
	if sw.Sweep.Kind != "" {
		fs = append(fs, fact{"Kind", sw.Sweep.Kind})
	}
	fs = append(fs,
		fact{"Configurations", stored},
		fact{"Series", fmt.Sprint(len(ss))},
		fact{"Processors", procRange(cs)},
		fact{"Grids", distinct(cs, func(c *config) string { return c.Grid })},
		fact{"Networks", distinct(cs, func(c *config) string { return orDefault(c.Network, "default") })},
		fact{"Start-up time", floatRange(cs, func(c *config) float64 { return c.TStart }, micro)},
		fact{"Time per byte", floatRange(cs, func(c *config) float64 { return c.TByte }, micro)},
		fact{"Processor power", floatRange(cs, func(c *config) float64 { return c.Power }, power)},
		fact{"Machines", distinct(cs, func(c *config) string { return orDefault(c.Machine, "none") })},
		fact{"Created", sw.Sweep.CreatedAt},
	)
	return fs
}

// listMax is the number of distinct values a fact lists before it only
// counts them.
const listMax = 8

// distinct lists the distinct values of f in first-seen order.
func distinct(cs []*config, f func(*config) string) string {
	var vs []string
	for _, c := range cs {
		if v := f(c); !slices.Contains(vs, v) {
			vs = append(vs, v)
		}
	}
	if len(vs) > listMax {
		return fmt.Sprintf("%s, … (%d values)", strings.Join(vs[:listMax], ", "), len(vs))
	}
	return strings.Join(vs, ", ")
}

func procRange(cs []*config) string {
	var ps []int
	for _, c := range cs {
		ps = append(ps, c.Procs)
	}
	slices.Sort(ps)
	ps = slices.Compact(ps)
	if len(ps) == 1 {
		return fmt.Sprint(ps[0])
	}
	return fmt.Sprintf("%d – %d (%d counts)", ps[0], ps[len(ps)-1], len(ps))
}

// floatRange lists the distinct values of f ascending, or gives their
// range when there are many.
func floatRange(cs []*config, f func(*config) float64, format func(float64) string) string {
	var vs []float64
	for _, c := range cs {
		vs = append(vs, f(c))
	}
	slices.Sort(vs)
	vs = slices.Compact(vs)
	if len(vs) > listMax {
		return fmt.Sprintf("%s – %s (%d values)", format(vs[0]), format(vs[len(vs)-1]), len(vs))
	}
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = format(v)
	}
	return strings.Join(out, ", ")
}
