package sweep

import (
	"context"
	"runtime"

	"golang.org/x/sync/errgroup"
)

// Execute simulates every configuration of cfgs with simulate on a bounded
// pool of workers (0 means GOMAXPROCS) and hands every result to emit,
// which is called from the calling goroutine only (a store has one
// writer). At most workers results are being computed and workers more
// wait for emit, which bounds the memory. An error of emit or of a
// simulation, or a cancelled ctx, stops the workers; results not yet
// emitted are dropped. The workers take the configurations in the order
// of cfgs, each as soon as it is free (an orders sweep lists the largest
// clusters first, whose runs may settle smaller ones). Both engines'
// sweeps use it: Plan.Simulate for Lib-DVM traces, ordersim.Sizes.At for
// order traces.
func Execute[C, R any](ctx context.Context, cfgs []C, workers int, simulate func(context.Context, C) (R, error), emit func(C, R) error) error {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type finished struct {
		cfg C
		res R
	}
	jobs := make(chan C)
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
				res, err := simulate(gctx, c)
				if err != nil {
					return err
				}
				select {
				case results <- finished{c, res}:
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
		if err := emit(f.cfg, f.res); err != nil {
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
