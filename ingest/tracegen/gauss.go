package tracegen

// Source lines of the model program gauss.fdv, laid out like the DVM
// system's gauswh.fdv.
const (
	gauFile      = "gauss.fdv"
	gauLineA     = 7  // DISTRIBUTE A(*,BLOCK)
	gauLineB     = 8  // ALIGN X(I) WITH A(N+1,I)
	gauLineMain  = 10 // first executable statement
	gauLineInit  = 11 // PARALLEL (I) ON A(*,I): initialisation
	gauLineInitD = 12
	gauLineInitE = 23
	gauLineElim  = 31 // DO K = 1, N-1
	gauLineElimL = 32 // PARALLEL (I) ON A(*,I), REMOTE_ACCESS(A(:,K))
	gauLineElimD = 33
	gauLineElimE = 36
	gauLineElimX = 37 // ENDDO
	gauLineBack  = 44 // DO K = N, 2, -1
	gauLineBackL = 45 // PARALLEL (I) ON A(*,I), REMOTE_ACCESS(X(K))
	gauLineBackD = 46
	gauLineBackE = 48
	gauLineBackX = 49 // ENDDO
	gauLinePrint = 50
	gauLineOut   = 51 // PRINT *, X
	gauLineEnd   = 52 // END
)

// Handles of gauss (see the Jacobi ones). The remote buffer's handle
// alternates between two heap blocks as in real traces.
const (
	gauAMViewPtr = 0x55a9bef8cf68
	gauAMView    = 0x55a9f3064760
	gauAHdr      = 0x55a9bef8cd80
	gauAHandle   = 0x55a9f3078220
	gauALoc      = 0x55a9f307b000
	gauXHdr      = 0x55a9bef8cca0
	gauXHandle   = 0x55a9f307af80
	gauXLoc      = 0x55a9f307c000
	gauBase      = 0x55a9befd93c0
	gauLoopPtr   = 0x55a9bef8cf70
	gauLoop      = 0x55a9f307ca70
	gauVarI      = 0x55a9bef8cc88
	gauVarK      = 0x55a9bef8cc84
	gauBufHdr    = 0x55a9bef8cfe8
	gauBuf0      = 0x55a9f307d2b0
	gauBuf1      = 0x55a9f307d370
	gauOutBuf    = 0x7ffd3a2c1b40
)

// Per-element costs of the loop bodies, in picoseconds.
const (
	gauInitPS = 900
	gauElimPS = 1000 // A(J,I) = A(J,I) - A(K,I)/A(K,K)*A(J,K) over the row
	gauBackPS = 2000 // X(I) = X(I) - A(K,I)*X(K)
)

func writeGauss(e *emitter, opt Options) {
	n := opt.N
	t := template{ptr: gauAMViewPtr, ref: gauAMView}
	// Fortran A(N+1,N) is traced in C order: dimension 0 has N+1 columns,
	// dimension 1 the N rows, which are distributed.
	a := &darray{hdr: gauAHdr, handle: gauAHandle, loc: gauALoc, sizes: []int{n + 1, n}, shadow: 1}
	x := &darray{hdr: gauXHdr, handle: gauXHandle, loc: gauXLoc, sizes: []int{n}, shadow: 1}
	rows := ploop{ptr: gauLoopPtr, ref: gauLoop, vars: []uint64{gauVarI}, on: a,
		axis: []int{-1, 1}, coeff: []int{0, 1}, cnst: []int{0, -1}}
	elim := rows
	elim.vars = []uint64{gauVarK}

	e.header(gauLineMain)
	e.begin(gauLineMain, opt.Intervals)
	e.crtamv(gauLineA, t, n+1, n)
	e.distr(gauLineA, t, 2)
	e.crtda(gauLineA, a, gauBase)
	e.align(gauLineA, a, t, nil, []int{1, 2}, []int{1, 1}, []int{0, 0})
	e.crtda(gauLineB, x, gauBase)
	// X is the column N+1 of A.
	e.align(gauLineB, x, t, a, []int{0, 1}, []int{0, 1}, []int{n, 0})

	var lo, hi [1]int
	for range opt.Iterations {
		if e.err != nil {
			return
		}
		if opt.Intervals {
			e.bploop(gauLineInit, 1)
		}
		lo[0], hi[0] = 1, n
		e.crtpl(gauLineInit, &rows)
		e.mappl(gauLineInit, &rows, lo[:], hi[:])
		e.dopl(gauLineInitD, &rows, e.clk.work(int64(n)*int64(n+1), gauInitPS))
		e.endpl(gauLineInitE, &rows)
		if opt.Intervals {
			e.enloop(gauLineInitE, 1, gauLineInit)
			e.bsloop(gauLineElim, 2)
		}
		for k := 1; k < n && e.err == nil; k++ { // a failed write (a cancelled context) stops the generation
			if opt.Intervals {
				e.bploop(gauLineElimL, 3)
			}
			lo[0], hi[0] = k+1, n
			e.crtpl(gauLineElimL, &elim)
			e.mappl(gauLineElimL, &elim, lo[:], hi[:])
			// The pivot row: all columns of row K.
			e.remote(gauLineElimL, &elim, a, gauBuf0+uint64(k&1)*(gauBuf1-gauBuf0), []int{-1, 0}, []int{0, k - 1})
			e.dopl(gauLineElimD, &elim, e.clk.work(int64(n-k)*int64(n+1-k), gauElimPS))
			e.endpl(gauLineElimE, &elim)
			if opt.Intervals {
				e.enloop(gauLineElimE, 3, gauLineElimL)
			}
		}
		if opt.Intervals {
			e.enloop(gauLineElimX, 2, gauLineElim)
			e.bsloop(gauLineBack, 4)
		}
		for k := n; k > 1 && e.err == nil; k-- {
			if opt.Intervals {
				e.bploop(gauLineBackL, 5)
			}
			lo[0], hi[0] = 1, k-1
			e.crtpl(gauLineBackL, &rows)
			e.mappl(gauLineBackL, &rows, lo[:], hi[:])
			// X(K), one element.
			e.remote(gauLineBackL, &rows, x, gauBuf0+uint64(k&1)*(gauBuf1-gauBuf0), []int{0}, []int{k - 1})
			e.dopl(gauLineBackD, &rows, e.clk.work(int64(k-1), gauBackPS))
			e.endpl(gauLineBackE, &rows)
			if opt.Intervals {
				e.enloop(gauLineBackE, 5, gauLineBackL)
			}
		}
		if opt.Intervals {
			e.enloop(gauLineBackX, 4, gauLineBack)
		}
		e.printf(gauLinePrint, "solve %4i done")
	}

	e.output(gauLineOut, x, gauOutBuf)
	e.finish(gauLineEnd)
}

// remote reads a section of r into a remote-access buffer of loop l:
// per dimension of r, axis -1 takes the whole dimension and axis 0 the
// single index cnst (crtrbl_, loadrb_, waitrb_).
func (e *emitter) remote(line int, l *ploop, r *darray, buf uint64, axis, cnst []int) {
	e.call("crtrbl_", line, e.clk.quick())
	e.hex("RemArrayHeader", r.hdr)
	e.hex("RemArrayHandlePtr", r.handle)
	e.hex("BufferHeader", gauBufHdr)
	e.hex("BasePtr", gauBase)
	e.text("StaticSign=0; ")
	e.loopRef(l)
	e.end()
	var zeros [maxRank]int
	e.array("AxisArray", 10, axis...)
	e.array("CoeffArray", 10, zeros[:len(axis)]...)
	e.array("ConstArray", 10, cnst...)
	e.ret("crtrbl_", line, e.clk.near(500, 50))
	e.hex("BufferHandlePtr", buf)
	e.text("IsLocal=1\n")

	e.call("loadrb_", line, e.clk.quick())
	e.hex("BufferHeader", gauBufHdr)
	e.hex("BufferHandlePtr", buf)
	e.text("RenewSign=0;\n")
	e.ret("loadrb_", line, e.clk.near(300, 50))

	e.call("waitrb_", line, e.clk.quick())
	e.hex("BufferHeader", gauBufHdr)
	e.hex("BufferHandlePtr", buf)
	e.end()
	e.ret("waitrb_", line, e.clk.quick())
}
