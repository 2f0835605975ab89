package engine

import (
	"math"
	"slices"

	"github.com/presage-dvm/presage/sim/internal/layout"

	"github.com/presage-dvm/presage/sim/internal/section"
)

// pipe holds the quantities of the ACROSS pipeline model (docs/model.md
// Appendix A.3) for one loop end.
type pipe struct {
	e           *Engine
	blocks      []section.Block
	p           [4]int // grid sizes, 1 beyond the grid rank
	P           int
	rm          int
	shadowWidth [4]int64 // SW: the boundary width per dimension
	invers      [4]bool
	s           [4]int64 // tile sizes
	iterTime    float64  // Tc: the time of one iteration
	first       int
	// done[i] holds processor i's tile completion times (Tc units) by tile
	// position, once simulated.
	done map[int]*[4][4][4][4]float64
}

// pipeline is the ACROSS pipeline model (docs/model.md Appendix A.3): it charges
// the waits of the wavefront over the processors.
func (e *Engine) pipeline(lp *loop, tc float64) {
	// The probe messages 0→1 are undone by the channel restore, which
	// permutes the channel state as the original does. A machine of one
	// processor has no link to probe (nor a wavefront to wait for).
	var ts, tb float64
	if e.net.Processors() > 1 {
		e.net.Restore(e.net.Snapshot())
		ts, tb = e.net.Link(0, 1)
	}
	m := lp.m
	vm := m.Tmpl.VM
	if e.acr != nil && e.acr.newG != nil && e.acr.newG.tmpl != nil && e.acr.newG.tmpl.VM != nil {
		vm = e.acr.newG.tmpl.VM
	}
	if vm == nil || len(m.Blocks) != vm.P() {
		return
	}
	pp := &pipe{e: e, P: vm.P(), iterTime: tc, done: map[int]*[4][4][4][4]float64{}}
	pp.blocks = make([]section.Block, len(m.Blocks))
	for k, b := range m.Blocks {
		if b == nil {
			continue
		}
		nb := b.Clone()
		for d := range nb {
			if d < len(m.Inverted) && m.Inverted[d] {
				pp.invers[min(d, 3)] = true
			}
			if nb[d].Step < 0 {
				nb[d].Step = -nb[d].Step
			}
		}
		pp.blocks[k] = nb
		pp.rm = max(pp.rm, len(nb))
	}
	if pp.rm > 4 || pp.rm == 0 {
		return
	}
	for d := 0; d < vm.Rank(); d++ {
		if d >= pp.rm && vm.Sizes[d] != 1 {
			e.warn("ACROSS loop: processor grid rank exceeds the loop rank: no pipeline modelled")
			return
		}
	}
	for d := 0; d < 4; d++ {
		pp.p[d] = 1
		if d < pp.rm && d < vm.Rank() {
			pp.p[d] = vm.Sizes[d]
		}
	}
	pp.setWidths(lp)
	pp.first = -1
	for k, b := range pp.blocks {
		if b != nil && layout.BlockSize(b) > 0 {
			pp.first = k
			break
		}
	}
	if pp.first < 0 {
		return
	}
	if pp.rm == 1 {
		pp.linear(vm.Map)
		return
	}
	pp.wavefront(vm.Map, ts, tb)
}

// setWidths fills SW[d]: the new group's low width for a non-inverted
// dimension, the old group's high width for an inverted one (1 if none).
func (pp *pipe) setWidths(lp *loop) {
	e := pp.e
	for d := 0; d < pp.rm; d++ {
		if pp.invers[d] {
			pp.shadowWidth[d] = 1
			if e.acr != nil && e.acr.oldG != nil && d < len(e.acr.oldG.entries) {
				pp.shadowWidth[d] = e.acr.oldG.entries[d].hw
			}
		} else if e.acr != nil && e.acr.newG != nil && d < len(e.acr.newG.entries) {
			pp.shadowWidth[d] = e.acr.newG.entries[d].lw
		}
	}
}

// msz is msize(k,d): (Upper−Lower+1) div Step, 1 beyond the block rank.
func (pp *pipe) msz(k, d int) int64 {
	b := pp.blocks[k]
	if b == nil || d >= len(b) {
		return 1
	}
	st := b[d].Step
	if st == 0 {
		st = 1
	}
	return (b[d].Upper - b[d].Lower + 1) / st
}

// stride is the linear distance along grid dimension d.
func (pp *pipe) stride(d int) int {
	s := 1
	for e := d + 1; e < 4; e++ {
		s *= pp.p[e]
	}
	return s
}

func (pp *pipe) coord(k, d int) int { return k / pp.stride(d) % pp.p[d] }

func (pp *pipe) nonEmpty(k int) bool {
	return k >= 0 && k < len(pp.blocks) && pp.blocks[k] != nil && layout.BlockSize(pp.blocks[k]) > 0
}

// linear is A.3 step 7 (one-dimensional loop): a chain of boundary sends.
func (pp *pipe) linear(procMap []int) {
	e := pp.e
	for i := 1; i < pp.p[0] && i < len(procMap); i++ {
		_, begin, end := e.net.Send(i-1, i, pp.shadowWidth[0], e.clock(procMap[i-1]))
		e.recordMessage(classShadow, procMap[i-1], procMap[i], pp.shadowWidth[0], e.clock(procMap[i-1]), end)
		c := e.clock(procMap[i])
		if c < end {
			e.add(KWaitShadow, procMap[i], end-c)
			if c > begin {
				e.add(KShadowOverlap, procMap[i], c-begin)
			}
		}
	}
}

// wavefront is A.3 step 8 and 9 for loops of rank ≥ 2.
func (pp *pipe) wavefront(procMap []int, ts, tb float64) {
	rm, first := pp.rm, pp.first
	var dmax [4]int64
	for k := range pp.blocks {
		if !pp.nonEmpty(k) {
			continue
		}
		for d := 0; d < rm; d++ {
			dmax[d] = max(dmax[d], pp.msz(k, d))
		}
	}
	// mult_is: dimensions carrying independent pipelines.
	var multIs [4]int
	for d := 0; d < 4; d++ {
		st := 1
		for e := d + 1; e < rm; e++ {
			st *= pp.p[e]
		}
		if pp.p[d] > 1 && first+st < pp.P {
			multIs[d] = pp.compare(first+st, first)
		}
	}
	// mm: dimensions not split over the processors.
	var mm [4]bool
	for d := 0; d < rm; d++ {
		mm[d] = true
		for k := range pp.blocks {
			if pp.nonEmpty(k) {
				a, b := pp.blocks[k][d], pp.blocks[first][d]
				if a.Lower != b.Lower || a.Upper != b.Upper {
					mm[d] = false
				}
			}
		}
	}
	var beg, end, pip [4]int
	var dim [4]int64
	for x := 0; x < 4; x++ {
		beg[x] = pp.coord(first, x)
		end[x] = beg[x]
		st := pp.stride(x)
		cur := first
		for end[x]+1 < pp.p[x] {
			next := cur + st
			if !pp.nonEmpty(next) || pp.blocks[next].Equal(pp.blocks[cur]) {
				break
			}
			end[x]++
			cur = next
		}
		pip[x] = end[x] - beg[x] + 1
	}
	for d := 0; d < 4; d++ {
		dim[d] = 1
		if d >= rm {
			continue
		}
		st := pp.stride(d)
		be, bb := pp.blocks[end[d]*st], pp.blocks[beg[d]*st]
		if be != nil && bb != nil && d < len(be) && d < len(bb) {
			dim[d] = be[d].Upper - bb[d].Lower + 1
		}
	}
	M, N, Pp, DD := int64(1), int64(1), int64(1), int64(1)
	for d := 0; d < rm; d++ {
		if !mm[d] && pp.shadowWidth[d] != 0 {
			M *= dim[d]
		} else {
			N *= dim[d]
		}
		Pp *= int64(pip[d])
		DD *= dmax[d]
	}
	sum := 0.0
	for d := 0; d < rm; d++ {
		if !mm[d] && dmax[d] != 0 {
			sum += float64(DD/dmax[d]) * float64(pp.shadowWidth[d])
		}
	}
	W := math.Ceil(sum / float64(N))
	Mf, Nf, Pf := float64(M), float64(N), float64(Pp)
	tm := 3 * W * tb / Mf
	const tl = 8.0
	tc := pp.iterTime
	var Q int64
	switch {
	case ts <= 0:
		Q = -1
	case W*tm > 1e-10 && Pf > Mf*tc/(W*tm*tl):
		Q = int64(math.Sqrt(Nf * (Pf*(tc*Mf+Pf*tm*W*tl) - 2*tc*Mf) / (2 * Pf * ts)))
	default:
		Q = int64(math.Sqrt(Nf * (Pf - 1) * (Mf*tc + Pf*tm*W*tl) / (2 * Pf * ts)))
	}
	Q = min(max(Q, 1), N)
	for d := 0; d < 4; d++ {
		pp.s[d] = 1
		if d < rm {
			pp.s[d] = max(dmax[d], 1)
		}
	}
	n2 := min(Q, N)
	for d := 0; d < rm; d++ {
		if !(mm[d] || pp.shadowWidth[d] == 0) {
			continue
		}
		if n2 >= dim[d] {
			pp.s[d] = 1
			n2 /= max(dim[d], 1)
		} else {
			pp.s[d] = max(dim[d]/max(n2, 1), 1)
			break
		}
	}
	// One pipe per combination of coordinates of the independent
	// dimensions.
	pp.pipes(0, beg, end, multIs, procMap)
}

// compare is mult_is: 1 for identical blocks, 2 when they differ only in
// dimensions without shadow width, 0 otherwise.
func (pp *pipe) compare(a, b int) int {
	ba, bb := pp.blocks[a], pp.blocks[b]
	if ba == nil || bb == nil {
		return 0
	}
	if ba.Equal(bb) {
		return 1
	}
	for d := range ba {
		if d < len(bb) && ba[d] != bb[d] && d < 4 && pp.shadowWidth[d] != 0 {
			return 0
		}
	}
	return 2
}

func (pp *pipe) pipes(d int, beg, end [4]int, multIs [4]int, procMap []int) {
	if d == 4 {
		pp.simulate(beg, end, procMap)
		return
	}
	if multIs[d] == 0 {
		pp.pipes(d+1, beg, end, multIs, procMap)
		return
	}
	for x := beg[d]; x <= end[d]; x++ {
		b, e := beg, end
		b[d], e[d] = x, x
		pp.pipes(d+1, b, e, multIs, procMap)
	}
}

// order lists the processors of a pipe in pipeline order.
func (pp *pipe) order(beg, end [4]int) []int {
	var out []int
	var c [4]int
	var walk func(d int)
	walk = func(d int) {
		if d == 4 {
			k := 0
			for x := 0; x < 4; x++ {
				k += c[x] * pp.stride(x)
			}
			out = append(out, k)
			return
		}
		if pp.invers[d] {
			for x := end[d]; x >= beg[d]; x-- {
				c[d] = x
				walk(d + 1)
			}
			return
		}
		for x := beg[d]; x <= end[d]; x++ {
			c[d] = x
			walk(d + 1)
		}
	}
	walk(0)
	return out
}

// simulate runs one pipe (A.3 step 9): its processors in pipeline order,
// each through its tiles.
func (pp *pipe) simulate(beg, end [4]int, procMap []int) {
	procs := pp.order(beg, end)
	if len(procs) == 0 || !pp.nonEmpty(procs[0]) {
		return
	}
	first := procs[0]
	labels := pp.successorDims(first)
	clock0 := pp.e.clock(procMap[first])
	for _, i := range procs {
		if !pp.nonEmpty(i) || i >= len(procMap) {
			continue
		}
		pp.runProcessor(i, procMap[i], pp.predecessors(i, labels, beg, end), clock0)
	}
}

// successorDims maps each grid dimension to the array dimension in which
// the first processor's block differs from its successor's along it.
func (pp *pipe) successorDims(first int) [4]int {
	var label [4]int
	for g := 0; g < 4; g++ {
		label[g] = g
		dir := 1
		if pp.invers[g] {
			dir = -1
		}
		q := first + dir*pp.stride(g)
		if pp.p[g] > 1 && pp.nonEmpty(q) {
			bf, bq := pp.blocks[first], pp.blocks[q]
			for d := range bf {
				if d < len(bq) && bf[d] != bq[d] {
					label[g] = d
					break
				}
			}
		}
	}
	return label
}

// inPipe reports whether processor k lies in the pipe beg..end.
func (pp *pipe) inPipe(k int, beg, end [4]int) bool {
	for x := 0; x < 4; x++ {
		if c := pp.coord(k, x); c < beg[x] || c > end[x] {
			return false
		}
	}
	return true
}

// predecessors gives, per array dimension, the already simulated
// processor that sends processor i its boundary (-1 for none).
func (pp *pipe) predecessors(i int, labels [4]int, beg, end [4]int) [4]int {
	pred := [4]int{-1, -1, -1, -1}
	for g := 0; g < 4; g++ {
		if pp.p[g] <= 1 {
			continue
		}
		dir := -1
		if pp.invers[g] {
			dir = 1
		}
		if c := pp.coord(i, g) + dir; c < 0 || c >= pp.p[g] {
			continue
		}
		q := i + dir*pp.stride(g)
		if pp.nonEmpty(q) && pp.inPipe(q, beg, end) && pp.done[q] != nil {
			pred[labels[g]] = q
		}
	}
	return pred
}

// tiles is the number of tiles of processor k's block along dimension d.
func (pp *pipe) tiles(k, d int) int {
	return int((pp.msz(k, d) + pp.s[d] - 1) / pp.s[d])
}

// lastTile is the position of processor k's last tile along dimension d
// (positions stop at 3: later tiles are extrapolated).
func (pp *pipe) lastTile(k, d int) int {
	if n := pp.tiles(k, d); n <= 3 {
		return max(n-1, 0)
	}
	return 3
}

// tileElems is the number of iterations of processor k's tile at position
// b: full tiles but the last one, which holds the remainder.
func (pp *pipe) tileElems(k int, b [4]int) float64 {
	a := 1.0
	for d := 0; d < 4; d++ {
		n := pp.msz(k, d)
		if b[d] < min(3, pp.tiles(k, d)-1) {
			a *= float64(pp.s[d])
		} else if r := n % pp.s[d]; r != 0 {
			a *= float64(r)
		} else {
			a *= float64(pp.s[d])
		}
	}
	return a
}

// tilePositions are the simulated tile positions along dimension d of a
// block of count tiles: 0, 1, 2 and 3 for the last, in pipeline order.
func (pp *pipe) tilePositions(d, count int) []int {
	n := min(count, 4)
	out := make([]int, 0, n)
	for x := 0; x < n; x++ {
		pos := x
		if x == n-1 && count > 3 {
			pos = 3
		}
		out = append(out, pos)
	}
	if pp.invers[d] {
		slices.Reverse(out)
	}
	return out
}

// procRun is the state of one processor going through its tiles, times in
// Tc units but com, last and realWait (seconds).
type procRun struct {
	i, proc  int // VM index and absolute processor
	pred     [4]int
	counts   [4]int // tiles per dimension
	done     *[4][4][4][4]float64
	cur      float64    // completion of the previous tile
	comm     [4]float64 // latest boundary arrival per dimension
	com      float64    // communication not yet charged
	last     float64    // longest transfer so far
	realWait float64
}

// runProcessor simulates processor i (absolute proc) through its tiles,
// dimension 1 fastest, then 0, 2 and 3, and charges its waits.
func (pp *pipe) runProcessor(i, proc int, pred [4]int, clock0 float64) {
	e := pp.e
	r := &procRun{i: i, proc: proc, pred: pred, done: new([4][4][4][4]float64)}
	for d := 0; d < 4; d++ {
		r.counts[d] = max(pp.tiles(i, d), 1)
	}
	pp.done[i] = r.done
	r.cur = (e.clock(proc) - clock0) / pp.iterTime
	for _, b3 := range pp.tilePositions(3, r.counts[3]) {
		for _, b2 := range pp.tilePositions(2, r.counts[2]) {
			for _, b0 := range pp.tilePositions(0, r.counts[0]) {
				for _, b1 := range pp.tilePositions(1, r.counts[1]) {
					pp.runTile(r, [4]int{b0, b1, b2, b3})
				}
			}
		}
	}
	e.add(KWaitShadow, proc, r.realWait)
	e.add(KWaitShadow, proc, r.com)
}

// runTile computes the completion of tile b of r's processor: after the
// previous tile and, at a block's entry edge, after the predecessors'
// boundaries arrive.
func (pp *pipe) runTile(r *procRun, b [4]int) {
	e := pp.e
	i, tc := r.i, pp.iterTime
	elems := pp.tileElems(i, b)
	if x, ok := pp.extrapolated(b, r.counts, r.done); ok {
		r.done[b[0]][b[1]][b[2]][b[3]] = x - pp.tileElems(i, mid(b, r.counts)) + elems
		r.cur = r.done[b[0]][b[1]][b[2]][b[3]]
		return
	}
	start := r.cur
	for d := 0; d < pp.rm; d++ {
		q := r.pred[d]
		entry := 0
		if pp.invers[d] {
			entry = pp.lastTile(i, d)
		}
		if q < 0 || b[d] != entry {
			continue
		}
		qDone := pp.done[q]
		sent := qDone[b[0]][b[1]][b[2]][b[3]]
		bytes := int64(elems / float64(min(pp.s[d], max(pp.msz(i, d), 1))) * float64(pp.shadowWidth[d]))
		_, begin, arrival := e.net.Send(q, i, bytes, sent*tc+e.clock(0))
		trans := arrival - begin
		r.realWait += max(0, arrival-e.clock(0)-start*tc)
		from := b
		if pp.invers[d] {
			from[d] = 0
		} else {
			from[d] = pp.lastTile(q, d)
		}
		r.comm[d] = max(r.comm[d], qDone[from[0]][from[1]][from[2]][from[3]]) + trans/tc
		r.last = max(r.last, trans)
	}
	for d := 0; d < pp.rm; d++ {
		start = max(start, r.comm[d])
	}
	r.com += (start - r.cur) * tc
	if r.com > r.last {
		e.add(KSys, r.proc, r.com-r.last)
		e.add(KInsSys, r.proc, r.com-r.last)
		r.com = r.last
	}
	r.done[b[0]][b[1]][b[2]][b[3]] = elems + start
	r.cur = elems + start
}

// extrapolated returns the completion of a last tile (position 3) of a
// dimension with more than 4 tiles, extrapolated from positions 1 and 2.
func (pp *pipe) extrapolated(b, bs [4]int, comp *[4][4][4][4]float64) (float64, bool) {
	for e := 0; e < 4; e++ {
		if b[e] == 3 && bs[e] > 4 {
			p1, p2 := b, b
			p1[e], p2[e] = 1, 2
			c1 := comp[p1[0]][p1[1]][p1[2]][p1[3]]
			c2 := comp[p2[0]][p2[1]][p2[2]][p2[3]]
			return c1 + float64(bs[e]-2)*(c2-c1), true
		}
	}
	return 0, false
}

// mid is the tile at position 2 of the extrapolated dimension.
func mid(b, bs [4]int) [4]int {
	for e := 0; e < 4; e++ {
		if b[e] == 3 && bs[e] > 4 {
			b[e] = 2
			return b
		}
	}
	return b
}
