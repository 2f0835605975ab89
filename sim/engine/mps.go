package engine

import (
	"fmt"

	"github.com/presage-dvm/presage/sim/internal/layout"
)

// am is an abstract machine: the processor system it is mapped on.
type am struct {
	vm *layout.VM
}

type amFrame struct {
	am *am
	vm *layout.VM
}

// psRef resolves a PSRef: 0 or unknown means the current VM.
func (e *Engine) psRef(s side, name key) (*layout.VM, error) {
	ref, err := e.handle(s, name)
	if err != nil {
		return nil, err
	}
	if vm, ok := e.vms.get(ref); ok && ref != 0 {
		return vm, nil
	}
	return e.vm, nil
}

func getam(e *Engine) error {
	ref, err := e.handle(out, kAMRef)
	if err != nil {
		return err
	}
	if !e.ams.has(ref) {
		e.ams.set(ref, e.curAM)
	}
	return nil
}

func getamr(e *Engine) error {
	if _, err := e.handle(in, kAMViewRef); err != nil {
		return err
	}
	if _, err := e.decArray(in, kIndexArray); err != nil {
		return err
	}
	ref, err := e.handle(out, kAMRef)
	if err != nil {
		return err
	}
	if !e.ams.has(ref) {
		e.ams.set(ref, &am{})
	}
	return nil
}

func getps(e *Engine) error {
	ref, err := e.handle(in, kAMRef)
	if err != nil {
		return err
	}
	ps, err := e.handle(out, kPSRef)
	if err != nil {
		return err
	}
	vm := e.vm
	if a, ok := e.ams.get(ref); ok && ref != 0 && a.vm != nil {
		vm = a.vm
	}
	e.vms.set(ps, vm)
	return nil
}

func crtps(e *Engine) error {
	parent, err := e.psRef(in, kPSRef)
	if err != nil {
		return err
	}
	if _, err := e.dec(in, kStaticSign); err != nil {
		return err
	}
	init, err := e.decArray(in, kInitIndexArray)
	if err != nil {
		return err
	}
	last, err := e.decArray(in, kLastIndexArray)
	if err != nil {
		return err
	}
	ref, err := e.handle(out, kPSRef)
	if err != nil {
		return err
	}
	if len(init) > 4 {
		return e.errorf("processor subsystem of rank %d: at most 4", len(init))
	}
	sizes := make([]int, len(init))
	n := 1
	for i := range init {
		size := at(last, i) - init[i] + 1
		if size < 1 {
			return e.errorf("processor subsystem dimension %d is empty (%d..%d)", i, init[i], at(last, i))
		}
		// A subsystem is part of its parent: more processors than the
		// parent has would only size the simulator's tables from the trace.
		if size > int64(parent.P()/n) {
			return e.errorf("processor subsystem %v..%v: more processors than its system's %d", init, last, parent.P())
		}
		sizes[i] = int(size)
		n *= sizes[i]
	}
	e.vms.set(ref, parent.Child(ints(init), sizes, e.pow))
	return nil
}

func psview(e *Engine) error {
	if _, err := e.handle(in, kPSRef); err != nil {
		return err
	}
	if _, err := e.dec(in, kRank); err != nil {
		return err
	}
	if _, err := e.dec(in, kStaticSign); err != nil {
		return err
	}
	sizes, err := e.decArray(in, kSizeArray)
	if err != nil {
		return err
	}
	ref, err := e.handle(out, kPSRef)
	if err != nil {
		return err
	}
	for i, s := range sizes {
		if s < 1 {
			return e.errorf("SizeArray[%d]=%d is not a positive size", i, s)
		}
	}
	if len(sizes) > 4 {
		return e.errorf("processor system of rank %d: at most 4", len(sizes))
	}
	// The original overwrites the current VM object in place.
	e.vm.Reshape(ints(sizes))
	e.vms.set(ref, e.vm)
	e.epoch++
	return nil
}

func (e *Engine) amRef() (*am, error) {
	ref, err := e.handle(in, kAMRef)
	if err != nil {
		return nil, err
	}
	a, ok := e.ams.get(ref)
	if !ok {
		return nil, e.errorf("abstract machine AMRef=%x was never created (getam_/getamr_)", ref)
	}
	return a, nil
}

func mapam(e *Engine) error {
	a, err := e.amRef()
	if err != nil {
		return err
	}
	vm, err := e.psRef(in, kPSRef)
	if err != nil {
		return err
	}
	a.vm = vm
	return nil
}

func runam(e *Engine) error {
	a, err := e.amRef()
	if err != nil {
		return err
	}
	e.amStack = append(e.amStack, amFrame{e.curAM, e.vm})
	e.curAM = a
	if a.vm != nil {
		e.vm = a.vm
	}
	return nil
}

func stopam(e *Engine) error {
	n := len(e.amStack)
	if n == 0 {
		e.warn("stopam_ without runam_: ignored")
		return nil
	}
	f := e.amStack[n-1]
	e.amStack = e.amStack[:n-1]
	e.curAM, e.vm = f.am, f.vm
	return nil
}

func crtamv(e *Engine) error {
	if _, err := e.handle(in, kAMRef); err != nil {
		return err
	}
	ref, err := e.handle(out, kAMViewRef)
	if err != nil {
		return err
	}
	sizes, err := e.sizeArray("template")
	if err != nil {
		return err
	}
	e.templates.set(ref, &layout.Template{Sizes: sizes})
	return nil
}

func (e *Engine) template() (*layout.Template, error) {
	ref, err := e.handle(in, kAMViewRef)
	if err != nil {
		return nil, err
	}
	t, ok := e.templates.get(ref)
	if !ok {
		return nil, e.errorf("template AMViewRef=%x was never created (crtamv_)", ref)
	}
	return t, nil
}

func blkdiv(e *Engine) error {
	t, err := e.template()
	if err != nil {
		return err
	}
	n, err := e.dec(in, kAMVAxisCount)
	if err != nil {
		return err
	}
	if n > 0 {
		bm, err := e.decArray(in, kAMVAxisDiv)
		if err != nil {
			return err
		}
		t.Bm = bm
	}
	e.epoch++
	return nil
}

func distr(e *Engine) error {
	t, err := e.template()
	if err != nil {
		return err
	}
	vm, err := e.psRef(in, kPSRef)
	if err != nil {
		return err
	}
	n, err := e.dec(in, kParamCount)
	if err != nil {
		return err
	}
	var axis []int64
	if n > 0 {
		if axis, err = e.decArray(in, kAxisArray); err != nil {
			return err
		}
		if int(n) < len(axis) {
			axis = axis[:n]
		}
	}
	if err := t.Distribute(vm, ints(axis)); err != nil {
		return e.errorf("%v", err)
	}
	e.doubtEmptyProcessors(t)
	e.epoch++
	return nil
}

// doubtEmptyProcessors flags a template distributed over more processors
// than it has elements in a dimension: those processors hold nothing,
// and the model's times there fall off a cliff (jac_e4_L500: 58 s on 500
// processors, 0.64 s on 501, as in the original Predictor), so the run is
// doubtful (docs/deviations.md, "Doubtful configurations").
func (e *Engine) doubtEmptyProcessors(t *layout.Template) {
	for i, a := range t.Axis {
		if a == 0 {
			continue
		}
		if n, p := t.Sizes[a-1], int64(t.VM.Sizes[i]); p > n {
			e.doubt(fmt.Sprintf("doubtful: a template of %d elements in its dimension %d is distributed over %d processors, %d of which hold none (the model's times do not hold there)", n, a, p, p-n))
		}
	}
}

func setelw(e *Engine) error {
	vm, err := e.psRef(in, kPSRef)
	if err != nil {
		return err
	}
	t, err := e.template()
	if err != nil {
		return err
	}
	if _, err := e.dec(in, kAddrNumber); err != nil {
		return err
	}
	wn, err := e.decArray(in, kWeightNumber)
	if err != nil {
		e.warn("setelw_ without WeightNumber/LoadWeight: default weights")
		return nil
	}
	lw, err := e.realArray(in, kLoadWeight)
	if err != nil {
		e.warn("setelw_ without WeightNumber/LoadWeight: default weights")
		return nil
	}
	// The original's reports show blocks of default weights after setelw_
	// (gauswh_lw at 8x8 differs by half its communication otherwise): the
	// load weights are not installed unless asked for.
	if t.Distributed() || !e.opt.LoadWeights {
		return nil
	}
	cw := make([][]float64, vm.Rank())
	for i := range cw {
		if i < len(wn) && wn[i] >= int64(vm.Sizes[i]) && len(lw) >= vm.Sizes[i] {
			cw[i] = lw[:vm.Sizes[i]]
		}
	}
	t.SetWeights(vm, cw)
	return nil
}

// sizeArray reads SizeArray of the call, cut to Rank when the call gives a
// smaller rank (crtamv_, crtda_), and checks it (checkSizes); what names
// the template or array.
func (e *Engine) sizeArray(what string) ([]int64, error) {
	sizes, err := e.decArray(in, kSizeArray)
	if err != nil {
		return nil, err
	}
	if rank, ok, err := e.optDec(in, kRank); err != nil {
		return nil, err
	} else if ok {
		if err := e.checkRank(what, rank); err != nil {
			return nil, err
		}
		if int(rank) < len(sizes) {
			sizes = sizes[:rank]
		}
	}
	return sizes, e.checkSizes(what, sizes)
}
