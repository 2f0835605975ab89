package main

import (
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/presage-dvm/presage/ingest/ordergen"
	"github.com/presage-dvm/presage/ingest/tracegen"
	"github.com/presage-dvm/presage/internal/outfile"
)

type genCmd struct {
	Trace  genTraceCmd  `cmd:"" help:"Write a synthetic Lib-DVM trace (.ptr, or .ptr.gz compressed)."`
	Orders genOrdersCmd `cmd:"" help:"Write a synthetic order trace (.jsonl, or .jsonl.gz compressed)."`
}

type genTraceCmd struct {
	Out        string `arg:"" help:"Output file; a name ending in .gz is gzip-compressed. An existing one is replaced only if it is a generated trace, or with --force." type:"path"`
	Program    string `help:"Program to imitate." enum:"jacobi,gauss" default:"jacobi"`
	N          int    `help:"Array size (N x N)." default:"64"`
	Iterations int    `help:"Iterations of the main loop." default:"10"`
	Calls      *int   `help:"Approximate number of calls, 1 to 100000000; overrides --iterations when given."`
	Intervals  bool   `help:"Trace program intervals (bsloop_/bploop_/enloop_), as compiled with -e4."`
	Seed       int64  `help:"Seed of the generated times." default:"1"`
	outputFlags
}

// options are the generator's options of the flags, refused with the
// flag at fault: --calls 0 (which the generator would read as "not
// given") and sizes past tracegen.MaxCalls among them.
func (c *genTraceCmd) options() (tracegen.Options, error) {
	opt := tracegen.Options{Program: tracegen.Program(c.Program), N: c.N, Iterations: c.Iterations,
		Intervals: c.Intervals, Seed: c.Seed}
	if c.Calls != nil {
		if *c.Calls < 1 || *c.Calls > tracegen.MaxCalls {
			return opt, fmt.Errorf("--calls %d: expected 1 to %d, the most calls a generated trace holds", *c.Calls, tracegen.MaxCalls)
		}
		opt.Calls = *c.Calls
	}
	if c.Calls == nil && c.Iterations < 1 {
		return opt, fmt.Errorf("--iterations %d: expected at least 1", c.Iterations)
	}
	if _, err := tracegen.Plan(opt); err != nil {
		return opt, fmt.Errorf("--program %s --n %d --iterations %d: %w", c.Program, c.N, c.Iterations, err)
	}
	return opt, nil
}

func (c *genTraceCmd) Run(ctx context.Context, g *Globals) error {
	opt, err := c.options()
	if err != nil {
		return err
	}
	calls := 0
	out := outfile.Target{Path: c.Out, Flag: "OUT", Kind: kindTrace}
	if err := writeCompressed(ctx, g.outputs(c.Force), out, func(w io.Writer) error {
		n, err := tracegen.Write(w, opt)
		calls = n
		return err
	}); err != nil {
		return err
	}
	g.infof("wrote %s: %d calls", c.Out, calls)
	return nil
}

type genOrdersCmd struct {
	Out     string  `arg:"" help:"Output file; a name ending in .gz is gzip-compressed. An existing one is replaced only if it is a generated order trace, or with --force." type:"path"`
	Shape   string  `help:"Program shape: dac (divide and conquer), pipeline, master (master-worker)." enum:"dac,pipeline,master" default:"dac"`
	Orders  int64   `help:"Number of orders: the shape's nearest size (sets the depth, the items or the rounds)." default:"1000"`
	Stages  int     `help:"pipeline: stages every item goes through." default:"4"`
	Workers int     `help:"master: tasks the master makes per round (its workers)." default:"64"`
	Rounds  int     `help:"master: rounds of tasks (0: from --orders)."`
	Leaf    float64 `help:"Seconds of a leaf's, a stage's or a task's work." default:"0.001"`
	Combine float64 `help:"Seconds of work after the waits (inner orders, main, the master)." default:"0.0001"`
	Jitter  float64 `help:"Relative spread of the costs, in [0, 1)." default:"0.2"`
	Bytes   int64   `help:"Bytes of every order's arguments and of every result." default:"1024"`
	Seed    uint64  `help:"Seed of the costs." default:"1"`
	outputFlags
}

func (c *genOrdersCmd) Run(ctx context.Context, g *Globals) error {
	opt, err := c.options()
	if err != nil {
		return err
	}
	out := outfile.Target{Path: c.Out, Flag: "OUT", Kind: kindOrderTrace}
	if err := writeCompressed(ctx, g.outputs(c.Force), out, func(w io.Writer) error { return ordergen.Generate(w, opt) }); err != nil {
		return err
	}
	g.infof("wrote %s: %d orders (%s)", c.Out, opt.Count(), opt.Shape)
	return nil
}

// maxGenOrders bounds a generated order trace: 100 million orders are
// about 33 GB of JSON Lines and minutes to write.
const maxGenOrders = 100_000_000

// options sizes the shape to the count nearest c.Orders that it can make:
// a divide and conquer has 2^k−1 orders, a pipeline 1 + stages × items, a
// master-worker 1 + workers × rounds.
func (c *genOrdersCmd) options() (ordergen.Options, error) {
	if c.Orders < 1 || c.Orders > maxGenOrders {
		return ordergen.Options{}, fmt.Errorf("--orders %d: expected 1 to %d, the most orders a generated trace holds", c.Orders, maxGenOrders)
	}
	if c.Stages < 1 || c.Workers < 1 || c.Rounds < 0 {
		return ordergen.Options{}, fmt.Errorf("--stages %d, --workers %d, --rounds %d: expected at least 1, 1 and 0", c.Stages, c.Workers, c.Rounds)
	}
	opt := ordergen.Options{Leaf: c.Leaf, Combine: c.Combine, Jitter: c.Jitter, Seed: c.Seed,
		ArgBytes: c.Bytes, ResultBytes: c.Bytes}
	switch c.Shape {
	case "dac":
		opt.Shape, opt.Split = ordergen.DivideAndConquer, c.Combine
		// 2^(depth+1)−1 orders: the depth whose count is nearest.
		for opt.Depth = 0; opt.Depth < 62 && nearer(int64(2)<<(opt.Depth+1)-1, int64(2)<<opt.Depth-1, c.Orders); opt.Depth++ {
		}
	case "pipeline":
		opt.Shape, opt.Stages, opt.Feed = ordergen.Pipeline, c.Stages, c.Combine
		opt.Items = nearestMultiple(c.Orders-1, c.Stages)
	case "master":
		opt.Shape, opt.Workers, opt.Feed = ordergen.MasterWorker, c.Workers, c.Combine
		opt.Rounds = c.Rounds
		if opt.Rounds == 0 {
			opt.Rounds = nearestMultiple(c.Orders-1, c.Workers)
		}
	}
	if opt.Count() > maxGenOrders {
		return ordergen.Options{}, fmt.Errorf("%s of %d orders: more than %d, the most orders a generated trace holds", c.Shape, opt.Count(), maxGenOrders)
	}
	return opt, nil
}

// nearer reports whether count a is nearer to want than count b.
func nearer(a, b, want int64) bool { return max(a-want, want-a) < max(b-want, want-b) }

// nearestMultiple is the count of steps of the given size whose total is
// nearest to total, at least 1.
func nearestMultiple(total int64, step int) int {
	return int(max(1, (total+int64(step)/2)/int64(step)))
}

// writeCompressed writes t through guard, and through gzip at its
// fastest level when the name ends in .gz (traces compress about 15:1
// even so, and the default level would triple the generation time).
func writeCompressed(ctx context.Context, guard *outfile.Guard, t outfile.Target, write func(io.Writer) error) error {
	return guard.WriteFile(ctx, t, func(w io.Writer) error {
		if !strings.HasSuffix(t.Path, ".gz") {
			return write(w)
		}
		zw, err := gzip.NewWriterLevel(w, gzip.BestSpeed)
		if err != nil {
			return err
		}
		if err := write(zw); err != nil {
			return err
		}
		return zw.Close()
	})
}
