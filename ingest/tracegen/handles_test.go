package tracegen

import (
	"fmt"
	"strconv"
	"strings"
)

// The object model the checker keeps to verify handle consistency: every
// handle is created before use, used only while alive and with the
// handles it was created with, and freed objects are not used again until
// re-created.

type tarray struct {
	handle  string
	sizes   []int
	shadow  []int
	aligned bool
}

type tloop struct {
	rank   int
	mapped bool
	on     *tarray
	dopl   int // dopl_ calls so far
	lastDo int // DoPL of the last dopl_
}

type tgroup struct {
	members int
	started bool
	waited  bool
	reds    []string
}

type model struct {
	templates   map[string]bool // AMViewRef -> distributed
	arrays      map[string]*tarray
	loops       map[string]*tloop
	redGroups   map[string]*tgroup
	reds        map[string]bool // created, not yet inserted
	shadows     map[string]*tgroup
	buffers     map[string]string // BufferHeader -> BufferHandlePtr
	loaded      map[string]bool
	intervals   []interval
	maxLevel    int
	sawInterval bool
}

type interval struct{ nfrag, line int }

func atoi(s string) int { n, _ := strconv.Atoi(s); return n }

func ints(vs []string) []int {
	out := make([]int, len(vs))
	for i, v := range vs {
		out[i] = atoi(v)
	}
	return out
}

// checkHandles runs the object model over the calls and returns the
// deepest interval nesting.
func checkHandles(calls []tcall) (int, error) {
	m := &model{
		templates: map[string]bool{}, arrays: map[string]*tarray{}, loops: map[string]*tloop{},
		redGroups: map[string]*tgroup{}, reds: map[string]bool{}, shadows: map[string]*tgroup{},
		buffers: map[string]string{}, loaded: map[string]bool{},
	}
	for i, c := range calls {
		if err := m.apply(i, c); err != nil {
			return 0, err
		}
	}
	for ref := range m.loops {
		return 0, traceErr(calls[len(calls)-1].at, "loop %s never ended", ref)
	}
	for ref := range m.redGroups {
		return 0, traceErr(calls[len(calls)-1].at, "reduction group %s never deleted", ref)
	}
	for ref := range m.shadows {
		return 0, traceErr(calls[len(calls)-1].at, "shadow group %s never deleted", ref)
	}
	// -e4 programs leave their program interval (nfrag -1) open.
	if m.sawInterval && (len(m.intervals) != 1 || m.intervals[0].nfrag != -1) {
		return 0, traceErr(calls[len(calls)-1].at, "open intervals at the end: %v", m.intervals)
	}
	return m.maxLevel, nil
}

func (m *model) apply(i int, c tcall) error {
	in := func(k string) string { v, _ := value(c.in, k); return v }
	out := func(k string) string { v, _ := value(c.out, k); return v }
	fail := func(format string, args ...any) error {
		return traceErr(c.at, c.fn+": "+format, args...)
	}
	switch c.fn {
	case "bsloop_", "bploop_":
		nf := atoi(in("nfrag"))
		if nf == -1 && (i != 0 || c.fn != "bsloop_") {
			return fail("the program interval must be the first call")
		}
		m.sawInterval = true
		m.intervals = append(m.intervals, interval{nf, c.line})
		m.maxLevel = max(m.maxLevel, len(m.intervals))
	case "enloop_":
		n := len(m.intervals)
		if n == 0 {
			return fail("no open interval")
		}
		top := m.intervals[n-1]
		if top.nfrag != atoi(in("nfrag")) || top.line != atoi(in("nline")) {
			return fail("leaves nfrag=%s nline=%s, but the open interval is %+v", in("nfrag"), in("nline"), top)
		}
		m.intervals = m.intervals[:n-1]
	case "crtamv_":
		ref := out("AMViewRef")
		if _, ok := m.templates[ref]; ok {
			return fail("template %s created twice", ref)
		}
		if len(array(c.in, "SizeArray")) != atoi(in("Rank")) {
			return fail("SizeArray length differs from Rank")
		}
		m.templates[ref] = false
	case "blkdiv_":
		if dist, ok := m.templates[in("AMViewRef")]; !ok || dist {
			return fail("blkdiv_ of unknown or already distributed template %s", in("AMViewRef"))
		}
		if len(array(c.in, "AMVAxisDiv")) != atoi(in("AMVAxisCount")) {
			return fail("AMVAxisDiv length differs from AMVAxisCount")
		}
	case "distr_":
		ref := in("AMViewRef")
		if dist, ok := m.templates[ref]; !ok || dist {
			return fail("distr_ of unknown or already distributed template %s", ref)
		}
		if len(array(c.in, "AxisArray")) != atoi(in("ParamCount")) {
			return fail("AxisArray length differs from ParamCount")
		}
		m.templates[ref] = true
	case "crtda_":
		hdr := in("ArrayHeader")
		if _, ok := m.arrays[hdr]; ok {
			return fail("array %s created twice", hdr)
		}
		a := &tarray{handle: out("ArrayHandlePtr"), sizes: ints(array(c.in, "SizeArray")),
			shadow: ints(array(c.in, "LowShdWidthArray"))}
		r := atoi(in("Rank"))
		if len(a.sizes) != r || len(a.shadow) != r || len(array(c.in, "HiShdWidthArray")) != r {
			return fail("array lengths differ from Rank %d", r)
		}
		m.arrays[hdr] = a
	case "align_":
		a, err := m.array(in("ArrayHeader"), in("ArrayHandlePtr"))
		if err != nil {
			return fail("%v", err)
		}
		if a.aligned {
			return fail("array aligned twice")
		}
		rank := 0
		if in("PatternRef") != "" && strings.Contains(c.inText, "(AMView)") {
			if !m.templates[in("PatternRef")] {
				return fail("pattern template %s unknown or not distributed", in("PatternRef"))
			}
			rank = len(array(c.in, "AxisArray"))
		} else {
			p, err := m.array(in("PatternRefPtr"), in("PatternRef"))
			if err != nil || !p.aligned {
				return fail("pattern array %s unknown or not aligned", in("PatternRefPtr"))
			}
			rank = len(p.sizes)
		}
		if len(array(c.in, "AxisArray")) != rank || len(array(c.in, "CoeffArray")) != rank || len(array(c.in, "ConstArray")) != rank {
			return fail("alignment arrays are not of the pattern's rank %d", rank)
		}
		a.aligned = true
	case "crtpl_":
		ref := out("LoopRef")
		if _, ok := m.loops[ref]; ok {
			return fail("loop %s created while alive", ref)
		}
		m.loops[ref] = &tloop{rank: atoi(in("Rank"))}
	case "mappl_":
		return m.mappl(c, fail)
	case "dopl_":
		l, ok := m.loops[in("LoopRef")]
		if !ok || !l.mapped {
			return fail("loop %s unknown or not mapped", in("LoopRef"))
		}
		do := atoi(out("DoPL"))
		if l.dopl%2 != 1-do {
			return fail("DoPL=%d out of turn", do)
		}
		l.dopl++
		l.lastDo = do
	case "endpl_":
		l, ok := m.loops[in("LoopRef")]
		if !ok || !l.mapped || l.dopl == 0 || l.lastDo != 0 {
			return fail("loop %s ended before it ran", in("LoopRef"))
		}
		delete(m.loops, in("LoopRef"))
	case "crtrg_":
		ref := out("RedGroupRef")
		if _, ok := m.redGroups[ref]; ok {
			return fail("reduction group %s created while alive", ref)
		}
		m.redGroups[ref] = &tgroup{}
	case "crtred_":
		m.reds[out("RedRef")] = true
	case "insred_":
		g, ok := m.redGroups[in("RedGroupRef")]
		if !ok || g.started {
			return fail("group %s unknown or started", in("RedGroupRef"))
		}
		if !m.reds[in("RedRef")] {
			return fail("reduction variable %s unknown", in("RedRef"))
		}
		if l, ok := m.loops[in("LoopRef")]; !ok || !l.mapped || l.dopl != 0 {
			return fail("insred_ outside a mapped loop before its dopl_")
		}
		g.members++
		g.reds = append(g.reds, in("RedRef"))
	case "strtrd_", "strtsh_":
		g, err := m.group(c.fn, in)
		if err != nil {
			return fail("%v", err)
		}
		if g.members == 0 || g.started {
			return fail("group empty or already started")
		}
		g.started = true
	case "waitrd_", "waitsh_":
		g, err := m.group(c.fn, in)
		if err != nil {
			return fail("%v", err)
		}
		if !g.started || g.waited {
			return fail("wait without start")
		}
		g.waited = true
	case "delrg_", "delshg_":
		g, err := m.group(c.fn, in)
		if err != nil {
			return fail("%v", err)
		}
		if g.started && !g.waited {
			return fail("group deleted while its exchange runs")
		}
		for _, r := range g.reds {
			delete(m.reds, r) // DelRedSign=1: the group deletes its variables
		}
		if c.fn == "delrg_" {
			delete(m.redGroups, in("RedGroupRef"))
		} else {
			delete(m.shadows, in("ShadowGroupRef"))
		}
	case "crtshg_":
		ref := out("ShadowGroupRef")
		if _, ok := m.shadows[ref]; ok {
			return fail("shadow group %s created while alive", ref)
		}
		m.shadows[ref] = &tgroup{}
	case "inssh_":
		g, ok := m.shadows[in("ShadowGroupRef")]
		if !ok || g.started {
			return fail("group %s unknown or started", in("ShadowGroupRef"))
		}
		a, err := m.array(in("ArrayHeader"), in("ArrayHandlePtr"))
		if err != nil || !a.aligned {
			return fail("array %s unknown or not aligned", in("ArrayHeader"))
		}
		for k, w := range ints(array(c.in, "LowShdWidthArray")) {
			if k >= len(a.shadow) || w > a.shadow[k] {
				return fail("shadow width %d exceeds the array's", w)
			}
		}
		g.members++
	case "crtrbl_":
		return m.crtrbl(c, fail)
	case "loadrb_":
		if h, ok := m.buffers[in("BufferHeader")]; !ok || h != in("BufferHandlePtr") {
			return fail("buffer %s unknown", in("BufferHeader"))
		}
		m.loaded[in("BufferHeader")] = true
	case "waitrb_":
		if !m.loaded[in("BufferHeader")] {
			return fail("wait for a buffer not loaded")
		}
		delete(m.loaded, in("BufferHeader"))
	case "arrcpy_":
		a, err := m.array(in("FromArrayHeader"), in("FromArrayHandlePtr"))
		if err != nil || !a.aligned {
			return fail("source array unknown or not aligned")
		}
		lo, hi := ints(array(c.in, "FromInitIndexArray")), ints(array(c.in, "FromLastIndexArray"))
		if len(lo) != len(a.sizes) || len(hi) != len(a.sizes) {
			return fail("index arrays are not of the array's rank")
		}
		for k := range lo {
			if lo[k] < -1 || hi[k] >= a.sizes[k] {
				return fail("section out of the array")
			}
		}
	}
	return nil
}

func (m *model) array(hdr, handle string) (*tarray, error) {
	a, ok := m.arrays[hdr]
	if !ok {
		return nil, fmt.Errorf("array %s not created", hdr)
	}
	if a.handle != handle {
		return nil, fmt.Errorf("array %s has handle %s, not %s", hdr, a.handle, handle)
	}
	return a, nil
}

func (m *model) group(fn string, in func(string) string) (*tgroup, error) {
	var g *tgroup
	var ok bool
	if strings.HasSuffix(fn, "rd_") || fn == "delrg_" {
		g, ok = m.redGroups[in("RedGroupRef")]
	} else {
		g, ok = m.shadows[in("ShadowGroupRef")]
	}
	if !ok {
		return nil, fmt.Errorf("group not alive")
	}
	return g, nil
}

// mappl checks the mapping of a loop on an array pattern: ranks agree and
// the index ranges fall inside the pattern's dimensions.
func (m *model) mappl(c tcall, fail func(string, ...any) error) error {
	in := func(k string) string { v, _ := value(c.in, k); return v }
	l, ok := m.loops[in("LoopRef")]
	if !ok || l.mapped {
		return fail("loop %s unknown or mapped twice", in("LoopRef"))
	}
	p, err := m.array(in("PatternRefPtr"), in("PatternRef"))
	if err != nil || !p.aligned {
		return fail("pattern %s unknown or not aligned", in("PatternRefPtr"))
	}
	lo, hi, st := ints(array(c.in, "InInitIndexArray")), ints(array(c.in, "InLastIndexArray")), ints(array(c.in, "InStepArray"))
	if len(lo) != l.rank || len(hi) != l.rank || len(st) != l.rank {
		return fail("index arrays are not of the loop's rank %d", l.rank)
	}
	axis, coeff, cnst := ints(array(c.in, "AxisArray")), ints(array(c.in, "CoeffArray")), ints(array(c.in, "ConstArray"))
	if len(axis) != len(p.sizes) || len(coeff) != len(p.sizes) || len(cnst) != len(p.sizes) {
		return fail("alignment arrays are not of the pattern's rank")
	}
	for t, a := range axis {
		if a <= 0 {
			continue
		}
		d := a - 1
		if d >= l.rank || lo[d] > hi[d] {
			return fail("loop dimension %d empty or missing", a)
		}
		if first, last := coeff[t]*lo[d]+cnst[t], coeff[t]*hi[d]+cnst[t]; first < 0 || last >= p.sizes[t] {
			return fail("loop dimension %d runs over %d..%d outside the pattern's 0..%d", a, first, last, p.sizes[t]-1)
		}
	}
	l.mapped, l.on = true, p
	return nil
}

// crtrbl checks a remote buffer: created in a mapped loop before its
// dopl_, from an aligned array, with constant indices inside the array.
func (m *model) crtrbl(c tcall, fail func(string, ...any) error) error {
	in := func(k string) string { v, _ := value(c.in, k); return v }
	l, ok := m.loops[in("LoopRef")]
	if !ok || !l.mapped || l.dopl != 0 {
		return fail("crtrbl_ outside a mapped loop before its dopl_")
	}
	r, ok := m.arrays[in("RemArrayHeader")]
	if !ok || !r.aligned {
		return fail("remote array %s unknown or not aligned", in("RemArrayHeader"))
	}
	axis, cnst := ints(array(c.in, "AxisArray")), ints(array(c.in, "ConstArray"))
	if len(axis) != len(r.sizes) || len(cnst) != len(r.sizes) || len(array(c.in, "CoeffArray")) != len(r.sizes) {
		return fail("arrays are not of the remote array's rank")
	}
	for k, a := range axis {
		if a == 0 && (cnst[k] < 0 || cnst[k] >= r.sizes[k]) {
			return fail("index %d outside dimension %d", cnst[k], k)
		}
	}
	out, _ := value(c.out, "BufferHandlePtr")
	m.buffers[in("BufferHeader")] = out
	return nil
}
