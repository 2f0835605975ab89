package sweep

import (
	"context"
	"runtime"

	"golang.org/x/sync/errgroup"

	"github.com/presage-dvm/presage/sim/result"
)

// Execute simulates cfgs of the plan on a bounded pool of workers (0 means
// GOMAXPROCS) and hands every finished run to emit, which is called from
// the calling goroutine only (a store has one writer). At most workers
// runs are being simulated and workers more wait for emit, which bounds
// the memory. An error of emit or of a simulation, or a cancelled ctx,
// stops the workers; runs not yet emitted are dropped.
func Execute(ctx context.Context, p *Plan, cfgs []Config, workers int, emit func(Config, *result.Run) error) error {
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
				run, err := p.Simulate(gctx, c)
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
	var emitErr error
	for f := range results {
		if emitErr != nil || ctx.Err() != nil {
			continue // drain: the workers stop on the cancelled context
		}
		if err := emit(f.cfg, f.run); err != nil {
			emitErr = err
			cancel()
		}
	}
	switch {
	case emitErr != nil:
		return emitErr
	case simErr != nil:
		return simErr
	}
	return ctx.Err()
}
