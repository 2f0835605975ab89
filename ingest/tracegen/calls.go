package tracegen

// The Lib-DVM calls both programs emit, with the parameter lines the
// run-time system writes for them (copied from real Fortran-DVM traces;
// the array index fields are right-aligned as there).

// darray is a distributed array.
type darray struct {
	hdr, handle uint64 // ArrayHeader (static) and ArrayHandlePtr (heap)
	loc         uint64 // address of the local block
	sizes       []int
	shadow      int // low and high shadow width of every dimension
}

// template is an abstract machine view (AMView).
type template struct {
	ptr, ref uint64 // AMViewRefPtr, AMViewRef
}

// ploop is a parallel loop mapped on a distributed array.
type ploop struct {
	ptr, ref uint64   // LoopRefPtr, LoopRef
	vars     []uint64 // addresses of the loop variables
	on       *darray  // the pattern
	// alignment per pattern dimension
	axis, coeff, cnst []int
}

const typeSize = 4 // REAL*4 arrays and reduction variables

// maxRank sizes the scratch arrays index lines are built in (the model
// programs' ranks are at most 2), so that building them does not allocate.
const maxRank = 4

func (e *emitter) simple(fn string, line int, callT, retT ticks) {
	e.call(fn, line, callT)
	e.ret(fn, line, retT)
}

func (e *emitter) crtamv(line int, t template, sizes ...int) {
	e.call("crtamv_", line, e.clk.near(300, 50))
	e.text("AMRefPtr=NULL; AMRef=0; ")
	e.dec("Rank", len(sizes))
	e.text("StaticSign=0;\n")
	e.array("SizeArray", 0, sizes...)
	e.ret("crtamv_", line, e.clk.near(300, 30))
	e.hex("AMViewRef", t.ref)
	e.end()
}

// blkdiv divides every template dimension in blocks of 1, which makes
// the blocks the classical ceil(N/P) ones (docs/model.md §5.3).
func (e *emitter) blkdiv(line int, t template, rank int) {
	e.call("blkdiv_", line, e.clk.quick())
	e.hex("AMViewRefPtr", t.ptr)
	e.hex("AMViewRef", t.ref)
	// blkdiv_ prints its counts without ';'.
	e.text("AMVAxisCount=")
	e.num(rank)
	e.text("\n")
	for i := range rank {
		e.text("AMVAxisDiv[")
		e.num(i)
		e.text("]=1 ")
	}
	e.text(" \n")
	e.ret("blkdiv_", line, e.clk.near(400, 20))
}

// distr distributes t BLOCK: processor dimension i gets template dimension
// axes[i].
func (e *emitter) distr(line int, t template, axes ...int) {
	e.call("distr_", line, e.clk.near(1200, 50))
	e.hex("AMViewRefPtr", t.ptr)
	e.hex("AMViewRef", t.ref)
	e.text("PSRefPtr=NULL; PSRef=0; ")
	e.dec("ParamCount", len(axes))
	e.end()
	e.array("AxisArray", 15, axes...)
	zeros := [maxRank]int{}
	e.array("DistrParamArray", 15, zeros[:len(axes)]...)
	e.line("ProcCount=1  HasCurrent=1  CentralProc=0  IOProc=0")
	e.ret("distr_", line, e.clk.near(5500, 20))
	e.line("IsLocal=1;")
}

func (e *emitter) crtda(line int, a *darray, base uint64) {
	e.call("crtda_", line, e.clk.quick())
	e.hex("ArrayHeader", a.hdr)
	e.text("ExtHdrSign=1; ")
	e.hex("BasePtr", base)
	e.dec("Rank", len(a.sizes))
	e.dec("TypeSize", typeSize)
	e.text("StaticSign=0; ReDistrSign=0;\n")
	e.array("SizeArray", 0, a.sizes...)
	w := [maxRank]int{}
	for i := range a.sizes {
		w[i] = a.shadow
	}
	e.array("LowShdWidthArray", 16, w[:len(a.sizes)]...)
	e.array("HiShdWidthArray", 16, w[:len(a.sizes)]...)
	e.ret("crtda_", line, e.clk.near(500, 80))
	e.hex("ArrayHandlePtr", a.handle)
	e.end()
}

// align aligns a on a template (on == nil) or on the array on.
func (e *emitter) align(line int, a *darray, t template, on *darray, axis, coeff, cnst []int) {
	e.call("align_", line, e.clk.quick())
	e.hex("ArrayHeader", a.hdr)
	e.hex("ArrayHandlePtr", a.handle)
	if on == nil {
		e.hex("PatternRefPtr", t.ptr)
		e.pattern(t.ref, " (AMView);\n")
	} else {
		e.hex("PatternRefPtr", on.hdr)
		e.pattern(on.handle, " (DisArray);\n")
	}
	e.array("AxisArray", 10, axis...)
	e.array("CoeffArray", 10, coeff...)
	e.array("ConstArray", 10, cnst...)
	size := typeSize
	for _, n := range a.sizes {
		size *= n + 2*a.shadow
	}
	e.text("DArr->ArrBlock.ALoc.Ptr0=")
	e.hexv(a.loc)
	e.text("  DArr->ArrBlock.ALoc.Ptr=")
	e.hexv(a.loc)
	e.text("  Size=")
	e.num(size)
	e.text("\n")
	e.ret("align_", line, e.clk.near(1200, 80))
	e.line("IsLocal=1")
}

func (e *emitter) crtpl(line int, l *ploop) {
	e.call("crtpl_", line, e.clk.quick())
	e.dec("Rank", len(l.vars))
	e.end()
	e.ret("crtpl_", line, e.clk.near(250, 20))
	e.hex("LoopRef", l.ref)
	e.end()
}

// mappl maps l on its pattern with the index ranges init..last (step 1).
func (e *emitter) mappl(line int, l *ploop, init, last []int) {
	e.call("mappl_", line, e.clk.quick())
	e.loopRef(l)
	e.hex("PatternRefPtr", l.on.hdr)
	e.pattern(l.on.handle, " (DisArray);\n")
	e.array("AxisArray", 16, l.axis...)
	e.array("CoeffArray", 16, l.coeff...)
	e.array("ConstArray", 16, l.cnst...)
	e.hexArray("LoopVarAddrArray", 16, l.vars...)
	ones := [maxRank]int{1, 1, 1, 1}
	e.array("LoopVarTypeArray", 16, ones[:len(l.vars)]...)
	e.array("InInitIndexArray", 16, init...)
	e.array("InLastIndexArray", 16, last...)
	e.array("InStepArray", 16, ones[:len(l.vars)]...)
	e.ret("mappl_", line, e.clk.near(400, 20))
	e.line("IsLocal=1;")
}

func (e *emitter) loopRef(l *ploop) {
	e.hex("LoopRefPtr", l.ptr)
	e.hex("LoopRef", l.ref)
}

// dopl emits the two dopl_ calls of a loop without dopl_ tracing: the
// first hands out the whole local part (DoPL=1), the loop body runs in
// user code, the second reports the end (DoPL=0).
func (e *emitter) dopl(line int, l *ploop, body ticks) {
	e.call("dopl_", line, e.clk.quick())
	e.loopRef(l)
	e.end()
	e.ret("dopl_", line, e.clk.near(200, 50))
	e.line("DoPL=1;")
	e.call("dopl_", line, body)
	e.loopRef(l)
	e.end()
	e.ret("dopl_", line, e.clk.quick())
	e.line("DoPL=0;")
}

func (e *emitter) endpl(line int, l *ploop) {
	e.call("endpl_", line, e.clk.quick())
	e.loopRef(l)
	e.end()
	e.ret("endpl_", line, e.clk.near(300, 30))
}

// printf prints a line. The first output costs a quarter millisecond,
// as in real traces; later lines go to the buffered stream and cost tens
// of microseconds (the I/O is charged to processor 0 alone, so dearer
// lines would make the other processors wait at every iteration).
func (e *emitter) printf(line int, format string) {
	e.call("dvm_void_printf", line, e.clk.near(500, 50))
	e.text("Format=")
	e.line(format)
	cost := e.clk.near(3000, 30)
	if !e.printed {
		e.printed = true
		cost = e.clk.near(25_000, 30)
	}
	e.ret("dvm_void_printf", line, cost)
}

// The interval calls of -e4 programs. The first entry of an interval
// costs the statistics collector tens of microseconds, later ones a tick.

func (e *emitter) enter(fn string, line, nfrag int, semicolon bool, callT ticks) {
	e.call(fn, line, callT)
	// bsloop_ ends its line with ';', bploop_ does not.
	e.text("nfrag=")
	e.num(nfrag)
	if semicolon {
		e.text(";")
	}
	e.text("\n")
	t := e.clk.quick()
	if i := nfrag + 1; i >= 0 {
		for len(e.entered) <= i {
			e.entered = append(e.entered, false)
		}
		if !e.entered[i] {
			e.entered[i] = true
			t = e.clk.near(8000, 50)
		}
	}
	e.ret(fn, line, t)
}

// bsloop enters a sequential-loop interval; nfrag -1 is the program.
func (e *emitter) bsloop(line, nfrag int) { e.enter("bsloop_", line, nfrag, true, e.clk.quick()) }

// bploop enters a parallel-loop interval.
func (e *emitter) bploop(line, nfrag int) { e.enter("bploop_", line, nfrag, false, e.clk.quick()) }

// begin starts the program body: with intervals the program's interval
// (nfrag -1, never left), then begbl_. The first call carries the
// processor-performance measurement.
func (e *emitter) begin(line int, intervals bool) {
	first := e.clk.near(10_000_000, 30)
	if intervals {
		e.enter("bsloop_", line, -1, true, first)
		first = e.clk.near(3500, 30)
	}
	e.simple("begbl_", line, first, e.clk.quick())
}

// enloop leaves the interval nfrag entered at source line nline.
func (e *emitter) enloop(line, nfrag, nline int) {
	e.call("enloop_", line, e.clk.quick())
	e.dec("nfrag", nfrag)
	e.text("nline=")
	e.num(nline)
	e.text("\n")
	e.ret("enloop_", line, e.clk.quick())
}

// output prints a distributed array the Fortran way: an I/O block around
// a copy of the array into a buffer.
func (e *emitter) output(line int, a *darray, buf uint64) {
	e.simple("biof_", line, e.clk.quick(), e.clk.quick())
	e.call("arrcpy_", line, e.clk.near(2500, 30))
	e.hex("FromArrayHeader", a.hdr)
	e.hex("FromArrayHandlePtr", a.handle)
	e.hex("ToBufferPtr", buf)
	e.text("CopyRegim=2;\n")
	var lo, hi, st [maxRank]int
	n := 1
	for i, s := range a.sizes {
		hi[i], st[i] = s-1, 1
		n *= s
	}
	r := len(a.sizes)
	e.array("FromInitIndexArray", 18, lo[:r]...)
	e.array("FromLastIndexArray", 18, hi[:r]...)
	e.array("FromStepArray", 18, st[:r]...)
	// The merge replaces the ret time of arrcpy_ by 0.00000100.
	e.ret("arrcpy_", line, 100)
	e.dec("Res", n) // elements copied
	e.end()
	e.tstio(line)
	e.simple("eiof_", line, e.clk.near(9000, 50), e.clk.quick())
}

func (e *emitter) tstio(line int) {
	e.call("tstio_", line, e.clk.quick())
	e.ret("tstio_", line, e.clk.quick())
	e.line("Res=1;")
}

// finish ends the program: endbl_, the final tstio_ and Event_dvm_exit.
func (e *emitter) finish(line int) {
	e.simple("endbl_", line, e.clk.quick(), e.clk.near(1500, 50))
	e.tstio(line)
	e.exit(line)
}
