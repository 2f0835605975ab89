package engine

import (
	"strings"
	"testing"

	"github.com/presage-dvm/presage/ingest/machinefile"
	"github.com/presage-dvm/presage/sim/trace"
)

func TestHandlers(t *testing.T) {
	known := strings.Fields(`binter_ bsloop_ bploop_ einter_ enloop_ crtda_ align_ delda_ realn_ arrcpy_
		aarrcp_ waitcp_ crtshg_ inssh_ insshd_ incsh_ incshd_ delshg_ strtsh_ waitsh_ sendsh_ recvsh_ imlast_
		exfrst_ across_ crtrg_ crtred_ insred_ delred_ delrg_ strtrd_ waitrd_ crtpl_ mappl_ dopl_ endpl_ crtps_
		delps_ setelw_ psview_ getps_ getam_ mapam_ runam_ stopam_ getamr_ crtamv_ delamv_ blkdiv_ distr_ redis_
		biof_ eiof_ srmem_ dvm_fopen dvm_printf dvm_stat crtrbl_ crtrbp_ loadrb_ waitrb_ crtbg_ insrb_ loadbg_
		waitbg_ tstio_ getamv_ dvm_Init saverv_ mps_Bcast mps_Barrier`)
	for _, n := range known {
		if handlerOf(n).h == nil {
			t.Errorf("%s has no handler", n)
		}
	}
	for _, n := range []string{"foo_", "bsynch_", "", "dopl"} {
		if handlerOf(n).h != nil {
			t.Errorf("%q must be unknown", n)
		}
	}
	// DArray functions and dopl_ never run the base algorithm.
	for _, n := range []string{"crtda_", "align_", "realn_", "arrcpy_", "aarrcp_", "waitcp_", "dopl_", "redis_"} {
		if handlerOf(n).rt {
			t.Errorf("%s must not run RegularTime", n)
		}
	}
}

func newTestEngine(t *testing.T, grid []int) *Engine {
	t.Helper()
	m, err := machinefile.Parse(strings.NewReader("cluster = c;\nc = {4 x p};\nc.TStart = 10;\nc.TByte = 0.01;\np = 1.00;\n"), "t.par")
	if err != nil {
		t.Fatal(err)
	}
	e, err := New("t.ptr", &trace.Header{}, m, grid, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// TestAddTime checks which counters and clocks each kind moves (§6.1).
func TestAddTime(t *testing.T) {
	tests := []struct {
		k     Kind
		cs    []cnt
		clock bool
	}{
		{KUsr, []cnt{cUsr, cCPU, cExec}, true},
		{KWaitShadow, []cnt{cClassComm + cnt(classShadow), cComm, cLost, cExec}, true},
		{KInsSys, []cnt{cInsS, cIns, cLost}, false},
		{KRemoteOverlap, []cnt{cClassOver + cnt(classRemote), cOver}, false},
	}
	for _, tc := range tests {
		e := newTestEngine(t, []int{2})
		e.add(tc.k, 1, 0.5)
		for c := cnt(0); c < nCnt; c++ {
			want := 0.0
			for _, x := range tc.cs {
				if x == c {
					want = 0.5
				}
			}
			if got := e.value(e.cur, c, 1); got != want {
				t.Errorf("kind %d: counter %d = %g, want %g", tc.k, c, got, want)
			}
			if got := e.value(e.cur, c, 0); got != 0 {
				t.Errorf("kind %d: processor 0 counter %d = %g, want 0", tc.k, c, got)
			}
		}
		if got, want := e.clock(1), map[bool]float64{true: 0.5, false: 0}[tc.clock]; got != want {
			t.Errorf("kind %d: clock = %g, want %g", tc.k, got, want)
		}
	}
}

// TestMPSSynchronize: the late processor sets the pace, the others wait as
// synchronisation and communication.
func TestMPSSynchronize(t *testing.T) {
	e := newTestEngine(t, []int{2, 2})
	e.add(KUsr, 2, 0.3)
	e.mpsSync(KWaitReduct)
	for p := 0; p < 4; p++ {
		if e.clock(p) != 0.3 {
			t.Errorf("clock %d = %g, want 0.3", p, e.clock(p))
		}
		want := 0.3
		if p == 2 {
			want = 0
		}
		if got := e.value(e.cur, cSynch, p); got != want {
			t.Errorf("Synchronization of %d = %g, want %g", p, got, want)
		}
		if got := e.value(e.cur, cClassComm+cnt(classReduction), p); got != want {
			t.Errorf("Wait_reduction of %d = %g, want %g", p, got, want)
		}
	}
}

// TestRegularTimeUniform: RegularTime on the root VM is kept once for all
// processors and equals the per-processor rule.
func TestRegularTimeUniform(t *testing.T) {
	e := newTestEngine(t, []int{4})
	e.callT, e.retT = 0.004, 0.002
	e.regular()
	if e.cur.own != nil {
		t.Error("a uniform charge must not allocate per-processor rows")
	}
	for p := 0; p < 4; p++ {
		if got := e.value(e.cur, cInsU, p); got != 0.003 {
			t.Errorf("Insuff_parallelism_usr of %d = %g, want 0.003", p, got)
		}
		if got := e.clock(p); got != 0.006 {
			t.Errorf("clock %d = %g, want 0.006", p, got)
		}
	}
}

// TestDispatchTable: every kind but fnUnknown has a handler, and every
// named function resolves to one.
func TestDispatchTable(t *testing.T) {
	for k := fnUnknown + 1; k < numFuncKinds; k++ {
		if handlers[k].h == nil {
			t.Errorf("kind %d has no handler", k)
		}
	}
	for name, k := range funcKinds {
		if kindOf(name) != k || handlerOf(name).h == nil {
			t.Errorf("%s: kind %d, handler %v", name, kindOf(name), handlerOf(name).h != nil)
		}
	}
}

// handlerOf returns the handler of a function name; its h is nil for an
// unknown name.
func handlerOf(name string) entry { return handlers[kindOf(name)] }

// value is counter c of processor p in iv.
func (e *Engine) value(iv *interval, c cnt, p int) float64 {
	return iv.classValue(c, e.classOf(p))
}
