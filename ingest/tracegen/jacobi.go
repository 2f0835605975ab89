package tracegen

// Source lines of the model program jacobi.fdv, laid out like the DVM
// system's jac.fdv.
const (
	jacFile      = "jacobi.fdv"
	jacLineA     = 4  // DISTRIBUTE A(BLOCK,BLOCK)
	jacLineB     = 5  // ALIGN B(I,J) WITH A(I,J)
	jacLineMain  = 8  // first executable statement
	jacLineHello = 9  // PRINT *, 'JACOBI STARTED'
	jacLineInit  = 10 // PARALLEL (J,I) ON A(I,J): initialisation
	jacLineInitD = 13
	jacLineInitE = 21
	jacLineIter  = 22 // DO IT = 1, ITMAX
	jacLineRed   = 24 // PARALLEL ... ON A(I,J), REDUCTION(MAX(EPS))
	jacLineRedD  = 26
	jacLineRedE  = 30
	jacLineShd   = 31 // PARALLEL ... ON B(I,J), SHADOW_RENEW(A)
	jacLineShdD  = 34
	jacLineShdE  = 38
	jacLinePrint = 39 // PRINT 200, IT, EPS
	jacLineOut   = 44 // PRINT *, B
	jacLineEnd   = 46 // END
)

// Handles of jacobi, as a 64-bit Linux process has them: Fortran headers
// in static memory, run-time objects on the heap. A loop, group or
// reduction freed at the end of an iteration is re-created at the same
// address, as the real allocator does.
const (
	jacAMViewPtr = 0x55e7c4406fa8
	jacAMView    = 0x55e7c88e7760
	jacAHdr      = 0x55e7c4406dc0
	jacAHandle   = 0x55e7c88fb000
	jacALoc      = 0x55e7c88fd000
	jacBHdr      = 0x55e7c4406c80
	jacBHandle   = 0x55e7c88fb260
	jacBLoc      = 0x55e7c88fe000
	jacBase      = 0x55e7c4453440
	jacLoopPtr   = 0x55e7c4406fb0
	jacLoop      = 0x55e7c88fe5f0
	jacVarI      = 0x55e7c4406c48
	jacVarJ      = 0x55e7c4406c44
	jacGroupPtr  = 0x55e7c4406fe8 // RedGroupRefPtr and ShadowGroupRefPtr
	jacRedGroup  = 0x55e7c88fef00
	jacRedPtr    = 0x55e7c4407080
	jacRed       = 0x55e7c88fdfa0
	jacRedVar    = 0x55e7c4453420
	jacLocVar    = 0x55e7c436f028
	jacShadow    = 0x55e7c88fe650
	jacOutBuf    = 0x7ffc9fbcc1e0
)

// Per-element costs of the loop bodies, in picoseconds.
const (
	jacInitPS = 800
	jacRedPS  = 700 // B(I,J) -> A(I,J) with the MAX reduction
	jacShdPS  = 600 // the 4-point stencil
)

// strtrdLog is what the MPI layer prints inside strtrd_ of a one-element
// MAX reduction of a REAL.
const strtrdLog = `*** MPI_Comm Information ***
&MPI_Comm=55e7c88f7000; &MPI_Group=55e7c88f7004; ProcNumber=1; time=0.000000;
MPI_Group:    0
*** MPI_Allreduce ***
VarCount=1; MPI_Datatype=MPI_FLOAT; MPI_Op=MPI_MAX; &MPI_Comm=55e7c88f7000;
*** DoNotMPIRed = 0
`

func writeJacobi(e *emitter, opt Options) {
	n := opt.N
	t := template{ptr: jacAMViewPtr, ref: jacAMView}
	a := &darray{hdr: jacAHdr, handle: jacAHandle, loc: jacALoc, sizes: []int{n, n}, shadow: 1}
	b := &darray{hdr: jacBHdr, handle: jacBHandle, loc: jacBLoc, sizes: []int{n, n}, shadow: 1}
	vars := []uint64{jacVarI, jacVarJ}
	identity := []int{1, 2}
	ones := []int{1, 1}
	onA := &ploop{ptr: jacLoopPtr, ref: jacLoop, vars: vars, on: a, axis: identity, coeff: ones, cnst: []int{-1, -1}}
	onB := *onA
	onB.on = b

	e.header(jacLineMain)
	e.begin(jacLineMain, opt.Intervals)

	e.crtamv(jacLineA, t, n, n)
	e.blkdiv(jacLineA, t, 2)
	e.distr(jacLineA, t, 2, 1)
	e.crtda(jacLineA, a, jacBase)
	e.align(jacLineA, a, t, nil, identity, ones, []int{0, 0})
	e.crtda(jacLineB, b, jacBase)
	e.align(jacLineB, b, t, a, identity, ones, []int{0, 0})
	e.printf(jacLineHello, "JACOBI STARTED")

	all, inner := []int{1, 1}, []int{2, 2}
	last, innerLast := []int{n, n}, []int{n - 1, n - 1}
	if opt.Intervals {
		e.bploop(jacLineInit, 1)
	}
	e.crtpl(jacLineInit, onA)
	e.mappl(jacLineInit, onA, all, last)
	e.dopl(jacLineInitD, onA, e.clk.work(int64(n)*int64(n), jacInitPS))
	e.endpl(jacLineInitE, onA)
	if opt.Intervals {
		e.enloop(jacLineInitE, 1, jacLineInit)
		e.bsloop(jacLineIter, 2)
	}

	interior := int64(n-2) * int64(n-2)
	for range opt.Iterations {
		if e.err != nil {
			return
		}
		jacobiReduction(e, opt, onA, inner, innerLast, interior)
		jacobiStencil(e, opt, a, &onB, inner, innerLast, interior)
		e.printf(jacLinePrint, "it=%4i   eps=%f")
	}
	if opt.Intervals {
		e.enloop(jacLinePrint, 2, jacLineIter)
	}

	e.output(jacLineOut, b, jacOutBuf)
	e.finish(jacLineEnd)
}

// jacobiReduction emits the loop computing A from B and the maximum
// change EPS: reduction group and variable, the loop, then the reduction.
func jacobiReduction(e *emitter, opt Options, l *ploop, init, last []int, elems int64) {
	const line = jacLineRed
	if opt.Intervals {
		e.bploop(line, 3)
	}
	e.call("crtrg_", line, e.clk.quick())
	e.line("StaticSign=1; DelRedSign=1;")
	e.ret("crtrg_", line, e.clk.quick())
	e.hex("RedGroupRef", jacRedGroup)
	e.end()

	e.call("crtred_", line, e.clk.quick())
	e.text("RedFuncNumb=3; ")
	e.hex("RedArrayPtr", jacRedVar)
	e.text("RedArrayType=3; RedArrayLength=1; ")
	e.hex("LocArrayPtr", jacLocVar)
	e.text("LocElmLength=0; StaticSign=1;\n")
	e.ret("crtred_", line, e.clk.quick())
	e.hex("RedRef", jacRed)
	e.end()

	e.crtpl(line, l)
	e.mappl(line, l, init, last)

	e.call("insred_", line, e.clk.quick())
	e.redGroup()
	e.hex("RedRefPtr", jacRedPtr)
	e.hex("RedRef", jacRed)
	e.loopRef(l)
	e.text("RenewSign=0;\n")
	e.ret("insred_", line, e.clk.near(250, 30))

	e.dopl(jacLineRedD, l, e.clk.work(elems, jacRedPS))
	e.endpl(jacLineRedE, l)

	// The merge replaces the ret times of strtrd_ and waitrd_ by
	// 0.00000100.
	e.call("strtrd_", jacLineRedE, e.clk.quick())
	e.redGroup()
	e.end()
	e.text(strtrdLog)
	e.ret("strtrd_", jacLineRedE, 100)
	e.call("waitrd_", jacLineRedE, e.clk.quick())
	e.redGroup()
	e.end()
	e.ret("waitrd_", jacLineRedE, 100)
	e.call("delrg_", jacLineRedE, e.clk.quick())
	e.redGroup()
	e.end()
	e.ret("delrg_", jacLineRedE, e.clk.near(1500, 40))
	if opt.Intervals {
		e.enloop(jacLineRedE, 3, line)
	}
}

func (e *emitter) redGroup() {
	e.hex("RedGroupRefPtr", jacGroupPtr)
	e.hex("RedGroupRef", jacRedGroup)
}

func (e *emitter) shadowGroup() {
	e.hex("ShadowGroupRefPtr", jacGroupPtr)
	e.hex("ShadowGroupRef", jacShadow)
}

// jacobiStencil emits the loop computing B from A's neighbours: the loop
// is created, A's shadow edges renewed, then the loop mapped and run.
func jacobiStencil(e *emitter, opt Options, a *darray, l *ploop, init, last []int, elems int64) {
	const line = jacLineShd
	if opt.Intervals {
		e.bploop(line, 4)
	}
	e.crtpl(line, l)

	e.call("crtshg_", line, e.clk.quick())
	e.line("StaticSign=0;")
	e.ret("crtshg_", line, e.clk.quick())
	e.hex("ShadowGroupRef", jacShadow)
	e.end()

	e.call("inssh_", line, e.clk.quick())
	e.shadowGroup()
	e.hex("ArrayHeader", a.hdr)
	e.hex("ArrayHandlePtr", a.handle)
	e.text("FullShdSign=0;\n")
	e.array("LowShdWidthArray", 16, a.shadow, a.shadow)
	e.array("HiShdWidthArray", 16, a.shadow, a.shadow)
	e.ret("inssh_", line, e.clk.near(300, 50))

	// The merge replaces the ret times of strtsh_ and waitsh_ by
	// 0.00000100.
	for _, fn := range [...]string{"strtsh_", "waitsh_"} {
		e.call(fn, line, e.clk.quick())
		e.shadowGroup()
		e.end()
		e.ret(fn, line, 100)
	}
	e.call("delshg_", line, e.clk.quick())
	e.shadowGroup()
	e.end()
	e.ret("delshg_", line, e.clk.near(1200, 20))

	e.mappl(line, l, init, last)
	e.dopl(jacLineShdD, l, e.clk.work(elems, jacShdPS))
	e.endpl(jacLineShdE, l)
	if opt.Intervals {
		e.enloop(jacLineShdE, 4, line)
	}
}
