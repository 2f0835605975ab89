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

// tree is the report tree of one side, with the state of the matching.
type tree struct {
	run     *result.Run
	root    *result.Interval
	nodes   []*result.Interval // the report tree in pre-order
	byID    map[int]*result.Interval
	depth   map[int]int // by ID, for the report tree only
	keys    map[Key][]*result.Interval
	matched map[int]bool
}

func newTree(run *result.Run) (*tree, error) {
	if err := run.CheckTree(); err != nil {
		return nil, err
	}
	t := &tree{
		run:     run,
		byID:    make(map[int]*result.Interval, len(run.Intervals)),
		depth:   map[int]int{},
		keys:    map[Key][]*result.Interval{},
		matched: map[int]bool{},
	}
	for _, iv := range run.Intervals {
		t.byID[iv.ID] = iv
	}
	t.root = run.Intervals[0]
	if run.ReportRoot != 0 {
		if t.root = t.byID[run.ReportRoot]; t.root == nil {
			return nil, fmt.Errorf("run %d: report root %d is not an interval of the run", run.ID, run.ReportRoot)
		}
	}
	t.walk(t.root, 0)
	return t, nil
}

func (t *tree) walk(iv *result.Interval, depth int) {
	t.nodes = append(t.nodes, iv)
	t.depth[iv.ID] = depth
	k := key(iv)
	t.keys[k] = append(t.keys[k], iv)
	for _, c := range iv.Children {
		t.walk(t.byID[c], depth+1)
	}
}

func key(iv *result.Interval) Key { return keyOf(iv.Type, iv.File, iv.Line, iv.Expr) }

// unique returns the only interval of the report tree with key k.
func (t *tree) unique(k Key) *result.Interval {
	if ivs := t.keys[k]; len(ivs) == 1 {
		return ivs[0]
	}
	return nil
}

func (t *tree) ref(iv *result.Interval) Ref {
	d, ok := t.depth[iv.ID]
	if !ok {
		d = -1
	}
	return Ref{
		ID: iv.ID, Type: iv.Type, File: iv.File, Line: iv.Line, Expr: iv.Expr,
		Level: iv.Level, Depth: d, Count: iv.Count, Exec: iv.Values[result.ExecutionTime],
	}
}

func (t *tree) side() Side {
	r := t.run
	s := Side{
		RunID: r.ID, Kind: r.Kind, Program: r.Program, Machine: r.Config.Machine,
		Grid: result.GridString(r.Config.Grid), Root: t.ref(t.root), Size: len(t.nodes),
	}
	for _, iv := range r.Intervals {
		if _, in := t.depth[iv.ID]; !in {
			s.Outside = append(s.Outside, t.ref(iv))
		}
	}
	return s
}

func (t *tree) unmatched() []Ref {
	var out []Ref
	for _, iv := range t.nodes {
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

// match pairs the intervals of the two report trees. The roots are paired
// first (anchor), then their descendants by path of keys; what is left is
// paired by key where the key occurs once in each tree, and the
// descendants of such a pair by path again. The pairs come back in the
// pre-order of the predicted tree.
func match(m, p *tree) []pair {
	found := map[int]pair{} // by predicted ID
	var add func(a, b *result.Interval, by Method)
	add = func(a, b *result.Interval, by Method) {
		m.matched[a.ID], p.matched[b.ID] = true, true
		found[b.ID] = pair{a, b, by}
		matchChildren(m, p, a, b, add)
	}
	ma, pa := anchor(m, p)
	add(ma, pa, ByRoot)
	for _, iv := range p.nodes {
		if p.matched[iv.ID] {
			continue
		}
		k := key(iv)
		if p.unique(k) == nil {
			continue
		}
		if other := m.unique(k); other != nil && !m.matched[other.ID] {
			add(other, iv, ByKey)
		}
	}
	var out []pair
	for _, iv := range p.nodes {
		if pr, ok := found[iv.ID]; ok {
			out = append(out, pr)
		}
	}
	return out
}

// anchor chooses the pair the structural match starts from. The report
// roots of the two sides need not be the same interval: the Predictor
// reports from the interval current at the end of the trace (a level-1
// Seq under -e4, docs/model.md §7.1), the analyzer from Main. When one root's
// key is found once in the other tree the pair is that; otherwise the two
// roots stand for each other.
func anchor(m, p *tree) (*result.Interval, *result.Interval) {
	if key(m.root) == key(p.root) {
		return m.root, p.root
	}
	if iv := m.unique(key(p.root)); iv != nil {
		return iv, p.root
	}
	if iv := p.unique(key(m.root)); iv != nil {
		return m.root, iv
	}
	return m.root, p.root
}

// matchChildren pairs the children of a matched pair that have the same
// key; siblings with the same key pair in creation order.
func matchChildren(m, p *tree, a, b *result.Interval, add func(a, b *result.Interval, by Method)) {
	waiting := map[Key][]*result.Interval{}
	for _, id := range a.Children {
		if iv := m.byID[id]; !m.matched[iv.ID] {
			waiting[key(iv)] = append(waiting[key(iv)], iv)
		}
	}
	for _, id := range b.Children {
		iv := p.byID[id]
		if p.matched[iv.ID] {
			continue
		}
		k := key(iv)
		if q := waiting[k]; len(q) > 0 {
			waiting[k] = q[1:]
			add(q[0], iv, ByPath)
		}
	}
}
