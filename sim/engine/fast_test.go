package engine

import "testing"

// TestChargeIterations: the written-out charge of dopl_ moves exactly the
// counters and clocks add(KUsr) and add(KInsUsr) move, also in an I/O
// block (where the filter applies).
func TestChargeIterations(t *testing.T) {
	for _, io := range []bool{false, true} {
		for _, shared := range []bool{false, true} {
			a, b := newTestEngine(t, []int{4}), newTestEngine(t, []int{4})
			a.cur.io, b.cur.io = io, io
			for p := 0; p < 4; p++ {
				tm, ins := 0.125*float64(p+1), 0.0625*float64(p)
				a.chargeIterations(p, tm, ins, shared)
				b.add(KUsr, p, tm)
				if shared {
					b.add(KInsUsr, p, ins)
				}
			}
			for p := 0; p < 4; p++ {
				if a.clock(p) != b.clock(p) {
					t.Errorf("io=%v shared=%v: clock %d = %v, want %v", io, shared, p, a.clock(p), b.clock(p))
				}
				for c := cnt(0); c < nCnt; c++ {
					if a.value(a.cur, c, p) != b.value(b.cur, c, p) {
						t.Errorf("io=%v shared=%v: counter %d of %d = %v, want %v", io, shared, c, p, a.value(a.cur, c, p), b.value(b.cur, c, p))
					}
				}
			}
		}
	}
}

// TestSyncAll: the written-out synchronisation of a whole uniform VM
// charges what addSynch and add charge per processor and levels the clocks.
func TestSyncAll(t *testing.T) {
	e := newTestEngine(t, []int{2, 2})
	for p, d := range []float64{0.5, 0.25, 0, 0.75} {
		e.add(KUsr, p, d)
	}
	e.mpsSync(KWaitShadow)
	for p, want := range []float64{0.25, 0.5, 0.75, 0} {
		if got := e.value(e.cur, cSynch, p); got != want {
			t.Errorf("Synchronization of %d = %v, want %v", p, got, want)
		}
		if got := e.value(e.cur, cClassSynch+cnt(classShadow), p); got != want {
			t.Errorf("Shadow synch of %d = %v, want %v", p, got, want)
		}
		if got := e.value(e.cur, cClassComm+cnt(classShadow), p); got != want {
			t.Errorf("Wait_shadow of %d = %v, want %v", p, got, want)
		}
		if e.clock(p) != 0.75 {
			t.Errorf("clock %d = %v, want 0.75", p, e.clock(p))
		}
	}
	if e.skewed {
		t.Error("clocks still marked skewed after a full synchronisation")
	}
}

// TestChargeUniformCall: the written-out uniform charge of a call moves
// every counter and the clock as the four table-driven addAll do, bit for
// bit, with and without a return time.
func TestChargeUniformCall(t *testing.T) {
	for _, tc := range []struct{ callT, retT, f float64 }{{0.004, 0.002, 0.75}, {0.1, 0, 0.5}, {1e-7, 3e-8, 1.0 / 3}} {
		fast, slow := newTestEngine(t, []int{4}), newTestEngine(t, []int{4})
		for i := 0; i < 3; i++ { // sums, not only first charges
			fast.callT, fast.retT = tc.callT, tc.retT
			fast.chargeUniformCall(tc.callT, tc.retT, tc.f)
			slow.addAll(slow.vm, KUsr, tc.callT)
			if tc.retT != 0 {
				slow.addAll(slow.vm, KSys, tc.retT)
			}
			slow.addAll(slow.vm, KInsSys, tc.retT*tc.f)
			slow.addAll(slow.vm, KInsUsr, tc.callT*tc.f)
		}
		if fast.cur.uni != slow.cur.uni {
			t.Errorf("%+v: counters %v, want %v", tc, fast.cur.uni, slow.cur.uni)
		}
		if fast.clkU != slow.clkU {
			t.Errorf("%+v: clock %v, want %v", tc, fast.clkU, slow.clkU)
		}
	}
}
