package stage

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/internal/golden"
	"github.com/presage-dvm/presage/internal/storetest"
	"github.com/presage-dvm/presage/internal/sweeptest"
	"github.com/presage-dvm/presage/schema/stored"
	"github.com/presage-dvm/presage/sim/sweep"
)

// failingSweep is a sweep of trace of three positions whose simulations
// all end with fail(ctx); its hash is name.
func failingSweep(trace int64, name string, fail func(ctx context.Context) error) resumable[sweep.At[int], int] {
	return resumable[sweep.At[int], int]{
		row: stored.Sweep{TraceID: trace, Kind: "sweep", Configs: 3}, def: name, hash: name,
		simulate: func(ctx context.Context, c sweep.At[int]) (int, error) { return 0, fail(ctx) },
		cost:     func(sweep.At[int]) Cost { return Cost{} },
		describe: func(c sweep.At[int]) string { return fmt.Sprint(c.Value) },
		save:     func(int64, sweep.At[int], int) (bool, error) { return false, errNothingSaved },
	}
}

// errNothingSaved: failingSweep simulates nothing it could save.
var errNothingSaved = errors.New("nothing is simulated, nothing saved")

// TestFailedSweepDropsItsRow: a sweep that fails, or is cancelled, before
// any configuration is stored leaves no sweep row (its SweepID is then
// 0); a row an earlier run created stays, for the next run to resume.
func TestFailedSweepDropsItsRow(t *testing.T) {
	st, _ := sweeptest.Store(t, "s.db", []string{golden.Path(t, "traces", "jac.ptr")}, nil)
	info, err := st.Trace("jac")
	if err != nil {
		t.Fatal(err)
	}
	configs := sweep.List([]int{1, 2, 3})
	for _, c := range []struct {
		name, want string
		fail       func(ctx context.Context, cancel func()) error
	}{
		{"simulation error", "disk on fire", func(context.Context, func()) error { return errors.New("disk on fire") }},
		{"cancelled", "context canceled", func(ctx context.Context, cancel func()) error { cancel(); <-ctx.Done(); return ctx.Err() }},
	} {
		ctx, cancel := context.WithCancel(context.Background())
		sw := failingSweep(info.ID, c.name, func(ctx context.Context) error { return c.fail(ctx, cancel) })
		sum, err := resume(ctx, st, sw, configs, SweepOptions{Workers: 1})
		cancel()
		if err == nil || errors.Is(err, errNothingSaved) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error with %q", c.name, err, c.want)
		}
		if sum.SweepID != 0 {
			t.Errorf("%s: SweepID %d, want 0 for a dropped row", c.name, sum.SweepID)
		}
		if n := storetest.Count(t, st, "sweeps"); n != 0 {
			t.Errorf("%s: %d sweep rows left, want none", c.name, n)
		}
	}
	// A row that was there before the failing run is not this run's to drop.
	sw := failingSweep(info.ID, "earlier", func(context.Context) error { return errors.New("disk on fire") })
	id, err := st.EnsureSweep(context.Background(), stored.Sweep{TraceID: info.ID, Kind: "sweep", Hash: "earlier", Definition: `"earlier"`, Configs: 3})
	if err != nil {
		t.Fatal(err)
	}
	sum, err := resume(context.Background(), st, sw, configs, SweepOptions{Workers: 1})
	if err == nil || sum.SweepID != id {
		t.Errorf("a failing run of an earlier sweep: SweepID %d (%v), want %d and an error", sum.SweepID, err, id)
	}
	if n := storetest.Count(t, st, "sweeps"); n != 1 {
		t.Errorf("the earlier sweep's row: %d rows, want 1", n)
	}
}
