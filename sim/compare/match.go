package compare

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/presage-dvm/presage/sim/result"
)

// Key is the identity of an interval across runs: its type, source file,
// line and expression (docs/model.md §7.1). The file is its base name: the
// trace and the statistics record the name given to the compiler, which
// may carry different directories.
type Key struct {
	Type    result.IntervalType
	File    string
	Line    int
	HasExpr bool
	Expr    int64
}

func keyOf(typ result.IntervalType, file string, line int, expr *int64) Key {
	k := Key{Type: typ, File: baseName(file), Line: line}
	if expr != nil {
		k.HasExpr, k.Expr = true, *expr
	}
	return k
}

// baseName strips directories written with either separator, whatever
// the system the file was recorded on.
func baseName(file string) string {
	if i := strings.LastIndexAny(file, `/\`); i >= 0 {
		return file[i+1:]
	}
	return file
}

func (k Key) String() string {
	s := fmt.Sprintf("%s %s:%d", k.Type, k.File, k.Line)
	if k.HasExpr {
		s += " expr " + strconv.FormatInt(k.Expr, 10)
	}
	return s
}

func key(iv *result.Interval) Key { return keyOf(iv.Type, iv.File, iv.Line, iv.Expr) }

// tree is the interval tree of one side, with the state of the matching.
// Every interval takes part, whatever interval the side's report starts
// from: the original Predictor reports from the interval current at the
// end of the trace, the analyzer from Main, and both have a Main.
type tree struct {
	run     *result.Run
	main    *result.Interval
	report  *result.Interval // the report root
	wrapper *result.Interval // the program-level loop of an -e4 trace, or nil
	byID    map[int]*result.Interval
	depth   map[int]int // identity depth: levels below Main, the wrapper not counted
	matched map[int]bool
	reason  map[int]string // why an unmatched interval is
}

func newTree(run *result.Run) (*tree, error) {
	if err := run.CheckTree(); err != nil {
		return nil, err
	}
	t := &tree{
		run:     run,
		byID:    make(map[int]*result.Interval, len(run.Intervals)),
		depth:   map[int]int{},
		matched: map[int]bool{},
		reason:  map[int]string{},
	}
	for _, iv := range run.Intervals {
		t.byID[iv.ID] = iv
	}
	t.main, t.report = run.Intervals[0], run.Intervals[0]
	if run.ReportRoot != 0 {
		if t.report = t.byID[run.ReportRoot]; t.report == nil {
			return nil, fmt.Errorf("run %d: report root %d is not an interval of the run", run.ID, run.ReportRoot)
		}
	}
	t.wrapper = programLoop(t.main, t.byID)
	t.setDepth(t.main, 0)
	return t, nil
}

// programLoop returns the program-level loop of a trace compiled with
// -e4: the only child of Main, a Seq interval at Main's own line and file
// (the bsloop_ the compiler puts around the whole program). The analyzer's
// statistics have no such interval, their Main stands for it; so the
// comparison looks through it, and its children are Main's.
func programLoop(main *result.Interval, byID map[int]*result.Interval) *result.Interval {
	if len(main.Children) != 1 {
		return nil
	}
	c := byID[main.Children[0]]
	if c.Type == result.Seq && c.Line == main.Line && baseName(c.File) == baseName(main.File) {
		return c
	}
	return nil
}

func (t *tree) setDepth(iv *result.Interval, d int) {
	t.depth[iv.ID] = d
	for _, c := range t.children(iv) {
		t.setDepth(c, d+1)
	}
	if iv == t.main && t.wrapper != nil {
		t.depth[t.wrapper.ID] = 0 // it stands where Main does
	}
}

// top is the interval of t that the other side's Main is compared with:
// the program-level loop of an -e4 trace when the other side has none
// (the statistics of a real run), since a real run's Main starts where
// that loop does, after the run-time's start-up that only the traced run
// has (docs/compare.md, "Where the time goes"); else Main.
func (t *tree) top(other *tree) *result.Interval {
	if t.wrapper != nil && other.wrapper == nil {
		return t.wrapper
	}
	return t.main
}

// children are the children of iv as the comparison sees them: Main's
// are those of the program-level loop when there is one.
func (t *tree) children(iv *result.Interval) []*result.Interval {
	if (iv == t.main || iv == t.wrapper) && t.wrapper != nil {
		iv = t.wrapper
	}
	out := make([]*result.Interval, len(iv.Children))
	for i, id := range iv.Children {
		out[i] = t.byID[id]
	}
	return out
}

// identities lists the identity of every interval the comparison sees,
// as "depth/key" (the program-level loop left out).
func (t *tree) identities() map[string]bool {
	ids := map[string]bool{}
	for _, iv := range t.run.Intervals {
		if iv != t.wrapper {
			ids[identity(t.depth[iv.ID], key(iv))] = true
		}
	}
	return ids
}

func identity(depth int, k Key) string { return fmt.Sprintf("level %d %s", depth, k) }

func (t *tree) ref(iv *result.Interval) Ref {
	return Ref{
		ID: iv.ID, Type: iv.Type, File: iv.File, Line: iv.Line, Expr: iv.Expr,
		Level: iv.Level, Depth: t.depth[iv.ID], Count: iv.Count, Exec: iv.Values[result.ExecutionTime],
		Reason: t.reason[iv.ID],
	}
}

func (t *tree) side() Side {
	r := t.run
	s := Side{
		RunID: r.ID, Kind: r.Kind, Program: r.Program, Machine: r.Config.Machine,
		Grid: result.GridString(r.Config.Grid), Root: t.ref(t.report), Size: len(r.Intervals),
	}
	if t.wrapper != nil {
		ref := t.ref(t.wrapper)
		s.ProgramLoop = &ref
	}
	return s
}

// unmatched lists the unmatched intervals in pre-order with their reason.
func (t *tree) unmatched() []Ref {
	var out []Ref
	for _, iv := range t.run.Intervals {
		if !t.matched[iv.ID] {
			out = append(out, t.ref(iv))
		}
	}
	return out
}

// pair is a matched pair of intervals.
type pair struct {
	m, p *result.Interval
	by   Method
}

// match pairs Main with Main, then, level by level, the children of a
// matched pair that have the same identity; siblings of one identity pair
// in creation order. Every interval left over gets its reason. The pairs
// come in the pre-order of the predicted tree.
func match(m, p *tree) []pair {
	var out []pair
	var add func(a, b *result.Interval, by Method)
	add = func(a, b *result.Interval, by Method) {
		m.matched[a.ID], p.matched[b.ID] = true, true
		out = append(out, pair{a, b, by})
		matchChildren(m, p, a, b, add)
	}
	mTop, pTop := m.top(p), p.top(m)
	add(mTop, pTop, ByMain)
	for _, t := range []*tree{m, p} {
		switch {
		case t.wrapper == nil:
		case t.matched[t.wrapper.ID]:
			t.reason[t.main.ID] = "Main of a trace compiled with -e4: the traced run's start-up before the program-level loop, then that loop, which the other side's Main is compared with"
		default:
			t.reason[t.wrapper.ID] = "the program-level loop of a trace compiled with -e4 (a Seq at Main's line): the other side's Main stands for it, its children are compared as Main's"
		}
	}
	explain(m, p, "predicted")
	explain(p, m, "measured")
	return out
}

// matchChildren pairs the children of a matched pair that have the same
// identity.
func matchChildren(m, p *tree, a, b *result.Interval, add func(a, b *result.Interval, by Method)) {
	waiting := map[Key][]*result.Interval{}
	for _, iv := range m.children(a) {
		waiting[key(iv)] = append(waiting[key(iv)], iv)
	}
	for _, iv := range p.children(b) {
		k := key(iv)
		if q := waiting[k]; len(q) > 0 {
			waiting[k] = q[1:]
			add(q[0], iv, ByPath)
		}
	}
}

// explain gives every unmatched interval of t without a reason yet why
// it has no counterpart in other.
func explain(t, other *tree, otherSide string) {
	elsewhere := map[Key]bool{}
	for _, iv := range other.run.Intervals {
		elsewhere[key(iv)] = true
	}
	var walk func(iv *result.Interval, parent *result.Interval)
	walk = func(iv, parent *result.Interval) {
		switch {
		case t.matched[iv.ID] || t.reason[iv.ID] != "":
		case !t.matched[parent.ID]:
			t.reason[iv.ID] = fmt.Sprintf("its parent %s is unmatched", key(parent))
		case elsewhere[key(iv)]:
			t.reason[iv.ID] = fmt.Sprintf("the %s run has %s, but not under %s", otherSide, key(iv), key(parent))
		case len(other.run.Intervals) == 1:
			t.reason[iv.ID] = fmt.Sprintf("the %s run has Main only (a trace or statistics without intervals)", otherSide)
		default:
			t.reason[iv.ID] = fmt.Sprintf("no %s interval %s under %s", otherSide, key(iv), key(parent))
		}
		for _, c := range t.children(iv) {
			walk(c, iv)
		}
	}
	top := t.top(other)
	for _, c := range t.children(top) {
		walk(c, top)
	}
}
