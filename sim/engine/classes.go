package engine

import (
	"math"

	"github.com/presage-dvm/presage/sim/events"
	"github.com/presage-dvm/presage/sim/internal/layout"
)

// Processor classes. Under block distributions most processors of a grid
// receive exactly the same charges: same block sizes, same waits, same
// clocks. The engine keeps the state that may differ between processors
// (the clock offset clk, the interval counters own, idle and imb) once per
// class of processors whose states are bitwise equal, with the class of
// every processor in classes.of.
//
// A class is split the moment its members would receive different charges:
// the leaving members get a new class holding a copy of the old one's
// state, so every processor sees the same floating-point operations, in
// the same order, as it would in a simulation of one class per processor
// (Options.Reference, which the property tests compare with). Charges that fall on one processor (add, addSynch, addVary) split
// it off first (isolate); the hot loops of a call charge each class once
// (distributeUniform, syncAll, waitRule, idleImbalance) after refining the
// classes by what their charge depends on (refine).

// procClasses partitions the root processors into classes.
type procClasses struct {
	of      []int32 // class of every root processor
	size    []int32 // members of every class
	version int     // incremented by every split: invalidates refine caches
	moves   int     // incremented by every move: invalidates member lists
}

func (pc *procClasses) count() int { return len(pc.size) }

// newClasses puts every processor in one class, or each in its own.
func newClasses(L int, onePerProcessor bool) procClasses {
	pc := procClasses{of: make([]int32, L)}
	if !onePerProcessor {
		pc.size = []int32{int32(L)}
		return pc
	}
	pc.size = make([]int32, L)
	for p := range pc.of {
		pc.of[p], pc.size[p] = int32(p), 1
	}
	return pc
}

// classOf is the class of root processor p.
func (e *Engine) classOf(p int) int32 { return e.classes.of[p] }

// newClassFrom adds an empty class whose state is a copy of class c's.
func (e *Engine) newClassFrom(c int32) int32 {
	if r := e.rec; r != nil {
		if !r.messages {
			e.giveClassTallies()    // while they name the processors charged
			r.uni.to = math.Inf(-1) // the new class has no column yet
		}
		r.classes = append(r.classes, events.Tally{})
		r.mark = append(r.mark, r.mark[c])
	}
	n := int32(e.classes.count())
	e.classes.size = append(e.classes.size, 0)
	e.classes.version++
	e.clk = append(e.clk, e.clk[c])
	e.grow(int64(len(e.perClass)))
	for _, iv := range e.perClass {
		if iv.own != nil {
			iv.own = append(iv.own, iv.own[c])
		}
		if iv.idle != nil {
			iv.idle = append(iv.idle, iv.idle[c])
			iv.imb = append(iv.imb, iv.imb[c])
		}
	}
	return n
}

// move puts processor p into class n.
func (e *Engine) move(p int, n int32) {
	pc := &e.classes
	pc.size[pc.of[p]]--
	pc.of[p] = n
	pc.size[n]++
	pc.moves++
}

// isolate gives processor p a class of its own and returns it.
func (e *Engine) isolate(p int) int32 {
	c := e.classes.of[p]
	if e.classes.size[c] == 1 {
		return c
	}
	n := e.newClassFrom(c)
	e.move(p, n)
	return n
}

// noLabel marks a processor that a labelling leaves out.
const noLabel = -1

// refine splits the classes so that the members of every class carry the
// same label (label[p] for root processor p) and returns the label of
// every class. Labels are small integers or noLabel.
func (e *Engine) refine(label []int32) []int32 {
	pc := &e.classes
	classLabel := make([]int32, pc.count())
	seen := make([]bool, pc.count())
	mixed := false
	for p, c := range pc.of {
		switch {
		case !seen[c]:
			seen[c], classLabel[c] = true, label[p]
		case classLabel[c] != label[p]:
			mixed = true
		}
	}
	if !mixed {
		return classLabel
	}
	type part struct{ class, label int32 }
	parts := map[part]int32{}
	for p, c := range pc.of {
		l := label[p]
		if l == classLabel[c] {
			continue
		}
		n, ok := parts[part{c, l}]
		if !ok {
			n = e.newClassFrom(c)
			parts[part{c, l}] = n
			classLabel = append(classLabel, l)
		}
		e.move(p, n)
	}
	return classLabel
}

// classLabels caches refine for a labelling that stays the same over many
// calls (the blocks of a loop mapping): while no class splits, the label of
// every class is known without looking at the processors.
type classLabels struct {
	valid   bool
	version int
	byClass []int32
}

// of returns the label of every class, refining the classes when they
// changed since the last call.
func (cl *classLabels) of(e *Engine, label []int32) []int32 {
	if !cl.valid || cl.version != e.classes.version {
		cl.byClass = e.refine(label)
		cl.valid, cl.version = true, e.classes.version
	}
	return cl.byClass
}

// coverage is whether a VM of n processors maps to every root processor.
type coverage struct {
	n      int
	covers bool
}

// coversRoot reports whether the VM's processors are every root processor
// once, so that a loop over the classes visits exactly its processors.
// psview_ reshapes a VM in place, so the answer is kept with the VM's size.
func (e *Engine) coversRoot(vm *layout.VM) bool {
	if len(vm.Map) != e.L {
		return false
	}
	if vm == e.root {
		return true
	}
	if c, ok := e.covering[vm]; ok && c.n == len(vm.Map) {
		return c.covers
	}
	seen := make([]bool, e.L)
	covers := true
	for _, p := range vm.Map {
		if seen[p] {
			covers = false
			break
		}
		seen[p] = true
	}
	e.covering[vm] = coverage{len(vm.Map), covers}
	return covers
}

// allClasses lists the classes 0..count−1.
func (e *Engine) allClasses() []int32 {
	for n := int32(len(e.classIDs)); int(n) < e.classes.count(); n++ {
		e.classIDs = append(e.classIDs, n)
	}
	return e.classIDs[:e.classes.count()]
}
