package sweep

import (
	"context"
	"fmt"
	"runtime"
	"time"

	"github.com/jmoiron/sqlx"
	"golang.org/x/sync/errgroup"

	"github.com/presage-dvm/presage/sim"
	"github.com/presage-dvm/presage/sim/result"
)

// Options control how a plan is run.
type Options struct {
	// Workers simulate configurations concurrently; 0 means GOMAXPROCS.
	Workers int
	// Shard and Shards select the configurations whose index is Shard
	// modulo Shards; Shards 0 or 1 runs all.
	Shard, Shards int
	// Command is recorded with a new sweep row.
	Command string
	// Progress, when set, is called by the writer after each stored
	// configuration.
	Progress func(Progress)
}

// Progress reports a running sweep.
type Progress struct {
	Done, Total int   // configurations stored by this run / to run
	Calls       int64 // traced calls simulated by this run
	Elapsed     time.Duration
}

// Summary says what a run of a plan did.
type Summary struct {
	SweepID  int64
	Selected int   // configurations of the shard
	Existing int   // already stored, skipped
	Ran      int   // simulated and stored now
	Calls    int64 // traced calls simulated
	Elapsed  time.Duration
}

// Run predicts the plan's configurations (of the shard opt selects) that
// the store lacks and stores each in its own transaction. Cancelling ctx
// stops it: runs being simulated or waiting to be written are dropped,
// stored ones stay, and running the same plan again completes the sweep.
func Run(ctx context.Context, db *sqlx.DB, p *Plan, opt Options) (Summary, error) {
	if opt.Shards > 1 && (opt.Shard < 0 || opt.Shard >= opt.Shards) {
		return Summary{}, fmt.Errorf("shard %d/%d: expected 0 <= I < N", opt.Shard, opt.Shards)
	}
	return RunConfigs(ctx, db, p, Shard(p.Configs, opt.Shard, opt.Shards), opt)
}

// RunConfigs is Run for a chosen subset of the plan's configurations (the
// searches evaluate theirs round by round); opt's shard is ignored.
func RunConfigs(ctx context.Context, db *sqlx.DB, p *Plan, selected []Config, opt Options) (Summary, error) {
	start := time.Now()
	var sum Summary
	id, err := ensureSweep(ctx, db, p, opt.Command)
	if err != nil {
		return sum, err
	}
	sum.SweepID = id
	done, err := doneIndexes(ctx, db, id)
	if err != nil {
		return sum, err
	}
	sum.Selected = len(selected)
	var todo []Config
	for _, c := range selected {
		if done[c.Index] {
			sum.Existing++
			continue
		}
		todo = append(todo, c)
	}
	err = runConfigs(ctx, p, todo, opt.Workers, func(c Config, run *result.Run) error {
		run.SweepID = id
		if err := saveRun(ctx, db, run, c.Index, result.SaveOptions{PerProcMax: p.Def.PerProcMax}); err != nil {
			return fmt.Errorf("store configuration %d (%s): %w", c.Index, p.Describe(c), err)
		}
		sum.Ran++
		sum.Calls += int64(p.Trace.Program.Calls())
		if opt.Progress != nil {
			opt.Progress(Progress{Done: sum.Ran, Total: len(todo), Calls: sum.Calls, Elapsed: time.Since(start)})
		}
		return nil
	})
	sum.Elapsed = time.Since(start)
	return sum, err
}

// runConfigs simulates cfgs on a bounded pool of workers and hands every
// finished run to write, which is called from this goroutine only (the
// store has one writer). At most workers runs are being simulated and
// workers more wait for the writer, which bounds the memory.
func runConfigs(ctx context.Context, p *Plan, cfgs []Config, workers int, write func(Config, *result.Run) error) error {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type finished struct {
		cfg Config
		run *result.Run
	}
	jobs := make(chan Config)
	results := make(chan finished, workers)
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() error {
		defer close(jobs)
		for _, c := range cfgs {
			select {
			case jobs <- c:
			case <-gctx.Done():
				return gctx.Err()
			}
		}
		return nil
	})
	for range workers {
		g.Go(func() error {
			for c := range jobs {
				run, err := p.Predict(gctx, c)
				if err != nil {
					return err
				}
				select {
				case results <- finished{c, run}:
				case <-gctx.Done():
					return gctx.Err()
				}
			}
			return nil
		})
	}
	var simErr error
	go func() {
		simErr = g.Wait()
		close(results)
	}()
	var writeErr error
	for f := range results {
		if writeErr != nil || ctx.Err() != nil {
			continue // drain: the workers stop on the cancelled context
		}
		if err := write(f.cfg, f.run); err != nil {
			writeErr = err
			cancel()
		}
	}
	switch {
	case writeErr != nil:
		return writeErr
	case simErr != nil:
		return simErr
	}
	return ctx.Err()
}

// Predict simulates one configuration of the plan; it is safe for
// concurrent use. A cancelled ctx stops it before it starts; a running
// simulation of the compiled trace is not interruptible (it takes a
// fraction of a second per million calls).
func (p *Plan) Predict(ctx context.Context, c Config) (*result.Run, error) {
	info := p.Infos[c.Machine]
	m := p.Machines[c.Machine].WithOverrides(c.TStart, c.TByte, c.Power)
	cfg := result.Config{Machine: info.Name, MachineID: info.ID, Grid: c.Grid, Network: c.Network,
		TStart: c.TStart, TByte: c.TByte, Power: c.Power}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	run, err := sim.Run(p.Trace.Program, m, cfg, p.Options)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("configuration %d (%s): %w", c.Index, p.Describe(c), err)
	}
	run.TraceID, run.Program = p.Trace.ID, p.Trace.Name
	return run, nil
}

// Describe names a configuration for messages: "Predictor 2x2 cluster".
func (p *Plan) Describe(c Config) string {
	s := fmt.Sprintf("%s %s %s", p.Def.Machines[c.Machine].Name, result.GridString(c.Grid), c.Network)
	if c.TStart != 0 {
		s += fmt.Sprintf(" tstart=%gs", c.TStart)
	}
	if c.TByte != 0 {
		s += fmt.Sprintf(" tbyte=%gs", c.TByte)
	}
	if c.Power != 0 {
		s += fmt.Sprintf(" power=%g", c.Power)
	}
	return s
}
