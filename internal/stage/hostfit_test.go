package stage

import (
	"context"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/ingest"
	"github.com/presage-dvm/presage/internal/golden"
	"github.com/presage-dvm/presage/internal/storetest"
	"github.com/presage-dvm/presage/schema/store"
	"github.com/presage-dvm/presage/sim/fit"
	"github.com/presage-dvm/presage/sim/result"
)

// jacHostFitter is a store holding the golden jac_e4 trace and
// Predictor.par, a host fitter of one node of 2 cores from that machine
// with the host's fresh page time freshPage, and the trace compiled.
func jacHostFitter(t *testing.T, freshPage float64) (context.Context, *store.Store, *hostFitter, *CompiledTrace) {
	t.Helper()
	ctx := context.Background()
	db := storetest.Open(t)
	tr, err := ingest.Trace(ctx, db, golden.Path(t, "traces", "jac_e4.ptr"), nil)
	if err != nil {
		t.Fatal(err)
	}
	m, err := ingest.Machine(ctx, db, golden.Path(t, "machines", "Predictor.par"))
	if err != nil {
		t.Fatal(err)
	}
	base, _, err := db.Machine(strconv.FormatInt(m.ID, 10))
	if err != nil {
		t.Fatal(err)
	}
	ct, err := CompileTrace(ctx, db, strconv.FormatInt(tr.ID, 10), nil)
	if err != nil {
		t.Fatal(err)
	}
	return ctx, db, newHostFitter(ctx, fit.Host{Nodes: 1, CoresPerNode: 2, Network: "shared-memory"}, base, 0, freshPage), ct
}

// jacUnit is the host unit of the golden jac_e4 trace on grid, measured
// by the golden statistics of that grid.
func jacUnit(t *testing.T, ctx context.Context, db *store.Store, h *hostFitter, ct *CompiledTrace, grid string) *hostUnit {
	t.Helper()
	st, err := ingest.Sts(ctx, db, golden.Path(t, "sts", "jac_e4."+grid+".sts.gz+"))
	if err != nil {
		t.Fatal(err)
	}
	run, err := db.Run(st.RunID)
	if err != nil {
		t.Fatal(err)
	}
	u, err := h.newHostUnit("jac_e4", grid, ct, []*CompiledTrace{ct}, []*result.Run{run})
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// TestHostUnitLengthening: the host fit's probes find, for each interval
// of a real trace's prediction, whether the run work lengthens it and by
// how many bytes of I/O copies: jac_e4 writes its 8×8 array of 4-byte
// reals once, in Main, so Main (open at the end) is lengthened by the run
// work and by 256 bytes' I/O copy time, on one process and on two (the
// other process waits for the I/O processor), and no loop is; and by how
// much the node contention lengthens it: nothing on one process, Main on
// two processes of one node.
func TestHostUnitLengthening(t *testing.T) {
	ctx, db, h, ct := jacHostFitter(t, 0)
	for _, grid := range []string{"1", "1x2"} {
		u := jacUnit(t, ctx, db, h, ct, grid)
		loops := 0
		for k, open := range u.open {
			main := strings.HasPrefix(k, "0 ")
			if open != main {
				t.Errorf("%s: %s open %v, want %v (only Main is open at the end)", grid, k, open, main)
			}
			want := 0.0
			if main {
				want = 8 * 8 * 4
			} else {
				loops++
			}
			if got := u.ioBytes[k]; math.Abs(got-want) > 1e-3 {
				t.Errorf("%s: %s lengthened by %g bytes of I/O copies, want %g", grid, k, got, want)
			}
		}
		if loops == 0 {
			t.Errorf("%s: no loop matched: the test would hold for any probe", grid)
		}
		mainContended := 0.0
		for k, c := range u.contended {
			if strings.HasPrefix(k, "0 ") {
				mainContended = c
			}
		}
		if shared := grid != "1"; shared != (mainContended > 0) || !shared && len(u.contended) > 0 {
			t.Errorf("%s: contended %v, want Main's lengthened only where two processes share the node", grid, u.contended)
		}
	}
}

// TestHostObservationsAreRoundMedians: the host fit sees each matched
// interval once, measured as the median of the rounds' times: of three
// rounds of jac_e4 on 1x2, one twice as slow as the real run and one 10%
// faster, the observation is the real run's time, not the slow round's
// nor one per round, and its spread is log(2/0.9).
func TestHostObservationsAreRoundMedians(t *testing.T) {
	ctx, db, h, ct := jacHostFitter(t, 0)
	st, err := ingest.Sts(ctx, db, golden.Path(t, "sts", "jac_e4.1x2.sts.gz+"))
	if err != nil {
		t.Fatal(err)
	}
	rounds := make([]*result.Run, 3)
	for i, scale := range []float64{2, 1, 0.9} {
		if rounds[i], err = db.Run(st.RunID); err != nil {
			t.Fatal(err)
		}
		for _, iv := range rounds[i].Intervals {
			iv.Values[result.ExecutionTime] *= scale
		}
	}
	measured, err := db.Run(st.RunID)
	if err != nil {
		t.Fatal(err)
	}
	u, err := h.newHostUnit("jac_e4", "1x2", ct, []*CompiledTrace{ct}, rounds)
	if err != nil {
		t.Fatal(err)
	}
	obs, err := h.observations(u, 1e-6)
	if err != nil {
		t.Fatal(err)
	}
	if len(obs) == 0 || len(obs) > len(measured.Intervals) {
		t.Fatalf("%d observations of %d intervals in 3 rounds, want one per matched interval", len(obs), len(measured.Intervals))
	}
	if got, want := obs[0].Measured, measured.Intervals[0].Values[result.ExecutionTime]; math.Abs(got-want) > 1e-12*want {
		t.Errorf("Main measured %g in the fit, want the rounds' median %g (the real run's)", got, want)
	}
	if got, want := obs[0].Spread, math.Log(2/0.9); math.Abs(got-want) > 1e-9 {
		t.Errorf("Main's spread %g in the fit, want %g (the slowest round over the fastest)", got, want)
	}
}

// TestFitAllIsEachFit: the fits fitAll runs side by side, over units they
// share (their memo of observations), find what each finds alone.
func TestFitAllIsEachFit(t *testing.T) {
	ctx, db, h, ct := jacHostFitter(t, 0)
	units := []*hostUnit{jacUnit(t, ctx, db, h, ct, "1"), jacUnit(t, ctx, db, h, ct, "1x2")}
	sets := [][]*hostUnit{units, units[:1], units[1:], units}
	together, err := h.fitAll(sets)
	if err != nil {
		t.Fatal(err)
	}
	for i, set := range sets {
		alone, err := h.fit(set)
		if err != nil {
			t.Fatal(err)
		}
		if together[i] != alone {
			t.Errorf("set %d: side by side %+v, alone %+v", i, together[i], alone)
		}
	}
}

// TestHostFitterFreshPage: the host fitter predicts with the host's fresh
// page time, which it does not fit: jac_e4's write of its 256-byte array
// on 1x2 takes a fresh page on each side, so Main grows by twice the time
// and no loop does; on one process nothing is sent and nothing changes.
func TestHostFitterFreshPage(t *testing.T) {
	const freshPage = 1e-3
	ctx, db, h, ct := jacHostFitter(t, 0)
	_, dbPages, withPages, ctPages := jacHostFitter(t, freshPage)
	for _, c := range []struct {
		grid string
		grow float64
	}{{"1", 0}, {"1x2", 2 * freshPage}} {
		without, err := h.observations(jacUnit(t, ctx, db, h, ct, c.grid), 1e-6)
		if err != nil {
			t.Fatal(err)
		}
		with, err := withPages.observations(jacUnit(t, ctx, dbPages, withPages, ctPages, c.grid), 1e-6)
		if err != nil {
			t.Fatal(err)
		}
		if len(with) != len(without) || len(with) < 2 {
			t.Fatalf("%s: %d and %d observations, want the same, Main and its loops", c.grid, len(with), len(without))
		}
		for i := range with {
			want := 0.0
			if with[i].Open {
				want = c.grow
			}
			if got := with[i].Predicted - without[i].Predicted; math.Abs(got-want) > 1e-9 {
				t.Errorf("%s: observation %d (open %v) grows by %g with the fresh page time, want %g", c.grid, i, with[i].Open, got, want)
			}
		}
	}
}
