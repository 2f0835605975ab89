package engine

import (
	"math"

	"github.com/presage-dvm/presage/sim/result"
)

// Finish closes the simulation: idle and imbalance of the current
// interval, then Integrate over the whole tree (docs/model.md §7.2). It returns
// the intervals in pre-order, the ID of the report root and the warnings.
func (e *Engine) Finish() (ivs []*result.Interval, reportRoot int, warnings []result.Warning) {
	e.chargeRunWork()
	if e.rec != nil {
		e.flushAll()
	}
	if e.opt.CloseOpenIntervals {
		for e.cur.parent != nil {
			e.leave()
		}
	}
	e.idleImbalance(e.cur)
	reportRoot = e.cur.id
	main := e.ivs[0]
	e.integrate(main, 0, &ivs)
	for _, w := range e.warningOrder {
		warnings = append(warnings, result.Warning{Message: w, Count: e.warnings[w], Doubtful: e.doubts[w]})
	}
	return ivs, reportRoot, warnings
}

// chargeRunWork charges the machine's run work (machine.Machine.RunWork,
// the extended model) to every processor at the trace's end, in the
// innermost interval still open: what a real run spends beyond its trace
// (the run-time's start and finish, its statistics) lies within the run's
// Main, which its statistics match with an -e4 trace's program-level loop,
// open to the end. It is replicated system work, as a call every
// processor makes: system time, and insufficient parallelism for all but
// one processor's share. The host's seconds: no power divides it. Every
// interval open at the end grows by exactly the run work, no other one
// changes (a fit relies on it: internal/stage's host fit).
func (e *Engine) chargeRunWork() {
	if e.runWork == 0 {
		return
	}
	vm := e.root
	f := float64(vm.P()-1) / float64(vm.P())
	e.addAll(vm, KSys, e.runWork)
	e.addAll(vm, KInsSys, e.runWork*f)
}

// integrate computes iv's values and per-processor values with its
// children rolled up, appending iv and its subtree to out in pre-order.
// It also returns the per-processor values by class: every processor of
// a class has the same values, so they are computed once per class and
// shared by its processors.
func (e *Engine) integrate(iv *interval, parent int, out *[]*result.Interval) (*result.Interval, []result.Values) {
	r := &result.Interval{ID: iv.id, Parent: parent, Level: iv.level, Type: iv.typ, Count: iv.count,
		Line: iv.line, File: iv.file, Expr: iv.expr}
	*out = append(*out, r)
	byClass := make([]result.Values, e.classes.count())
	for c := range byClass {
		var idle, imb float64
		if iv.idle != nil {
			idle, imb = iv.idle[c], iv.imb[c]
		}
		byClass[c] = classValues(iv, int32(c), idle, imb)
	}
	v := &r.Values
	// Summed processor by processor, in order, for the rounding of the
	// per-processor simulation: a run of processors of one class adds its
	// values that many times. The execution time is the longest, not a sum.
	for p := 0; p < e.L; {
		c := e.classOf(p)
		run := 1
		for p+run < e.L && e.classOf(p+run) == c {
			run++
		}
		own := &byClass[c]
		longest := math.Max(v[result.ExecutionTime], own[result.ExecutionTime])
		own.AddTo(v, run)
		v[result.ExecutionTime] = longest
		p += run
	}
	for c := result.OpClass(0); c < result.NumOpClasses; c++ {
		v[result.OpChar(c, result.OpCount)] = iv.nop[c]
	}
	for _, ch := range iv.children {
		cr, childByClass := e.integrate(ch, iv.id, out)
		r.Children = append(r.Children, ch.id)
		v[result.ExecutionTime] += cr.Values[result.ExecutionTime]
		for _, c := range rolledUp {
			v[c] += cr.Values[c]
		}
		for k := range byClass {
			pv, cv := &byClass[k], &childByClass[k]
			pv[result.ExecutionTime] += cv[result.ExecutionTime]
			for _, c := range rolledUp {
				pv[c] += cv[c]
			}
		}
	}
	derive(v, float64(e.L))
	for k := range byClass {
		derive(&byClass[k], 1)
	}
	r.Procs = make([]result.ProcValues, e.L)
	for p := range r.Procs {
		r.Procs[p] = result.ProcValues{Proc: p, Values: &byClass[e.classOf(p)]}
	}
	return r, byClass
}

// classValues are the own (non-nested) values of the processors of class
// k in iv.
func classValues(iv *interval, k int32, idle, imb float64) result.Values {
	var v result.Values
	get := func(c cnt) float64 { return iv.classValue(c, k) }
	v[result.ExecutionTime] = get(cExec)
	v[result.CPUTime] = get(cCPU)
	v[result.CPUTimeUsr] = get(cUsr)
	v[result.CPUTimeSys] = get(cSys)
	v[result.IOTime] = get(cIO)
	v[result.LostTime] = get(cLost) + idle
	v[result.InsuffParallelism] = get(cIns)
	v[result.InsuffParallelismUsr] = get(cInsU)
	v[result.InsuffParallelismSys] = get(cInsS)
	v[result.Communication] = get(cComm)
	v[result.Synchronization] = get(cSynch)
	v[result.TimeVariation] = get(cVary)
	v[result.Overlap] = get(cOver)
	v[result.Idle] = idle
	v[result.LoadImbalance] = imb
	for c := result.OpClass(0); c < result.NumOpClasses; c++ {
		v[result.OpChar(c, result.OpComm)] = get(cClassComm + cnt(c))
		v[result.OpChar(c, result.OpSynch)] = get(cClassSynch + cnt(c))
		v[result.OpChar(c, result.OpVary)] = get(cClassVary + cnt(c))
		v[result.OpChar(c, result.OpOverlap)] = get(cClassOver + cnt(c))
	}
	return v
}

// rolledUp are the characteristics a parent adds from its children
// (besides Execution_time); Variation and the class vary and real synch
// columns are not rolled up (docs/model.md §7.2).
var rolledUp = func() []result.Char {
	cs := []result.Char{result.IOTime, result.CPUTime, result.CPUTimeSys, result.CPUTimeUsr,
		result.LostTime, result.Communication, result.InsuffParallelism, result.InsuffParallelismSys,
		result.InsuffParallelismUsr, result.Synchronization, result.CommunicationSynch, result.Idle,
		result.LoadImbalance, result.Overlap}
	for c := result.OpClass(0); c < result.NumOpClasses; c++ {
		cs = append(cs, result.OpChar(c, result.OpCount), result.OpChar(c, result.OpComm),
			result.OpChar(c, result.OpSynch), result.OpChar(c, result.OpOverlap))
	}
	cs = append(cs, result.IORealSynch, result.IOVary)
	return cs
}()

// derive computes the totals and efficiency from the summed counters.
func derive(v *result.Values, L float64) {
	v[result.TotalTime] = v[result.ExecutionTime] * L
	v[result.ProductiveCPUTime] = v[result.CPUTimeUsr] - v[result.InsuffParallelismUsr]
	v[result.ProductiveSYSTime] = v[result.CPUTimeSys] - v[result.InsuffParallelismSys]
	v[result.ProductiveTime] = v[result.ProductiveCPUTime] + v[result.ProductiveSYSTime] + v[result.IOTime]
	switch {
	case v[result.ProductiveTime] == 0 && v[result.TotalTime] == 0:
		v[result.Efficiency] = 1
	case v[result.TotalTime] == 0:
		v[result.Efficiency] = math.MaxFloat64
	default:
		v[result.Efficiency] = v[result.ProductiveTime] / v[result.TotalTime]
	}
}
