package main

import (
	"github.com/presage-dvm/presage/ingest/tracegen"
)

type genCmd struct {
	Trace genTraceCmd `cmd:"" help:"Write a synthetic Lib-DVM trace (.ptr, or .ptr.gz compressed)."`
}

type genTraceCmd struct {
	Out        string `arg:"" help:"Output file; a name ending in .gz is gzip-compressed." type:"path"`
	Program    string `help:"Program to imitate." enum:"jacobi,gauss" default:"jacobi"`
	N          int    `help:"Array size (N x N)." default:"64"`
	Iterations int    `help:"Iterations of the main loop." default:"10"`
	Calls      int    `help:"Approximate number of calls; overrides --iterations when set."`
	Intervals  bool   `help:"Trace program intervals (bsloop_/bploop_/enloop_), as compiled with -e4."`
	Seed       int64  `help:"Seed of the generated times." default:"1"`
}

func (c *genTraceCmd) Run(g *Globals) error {
	n, err := tracegen.WriteFile(c.Out, tracegen.Options{
		Program: tracegen.Program(c.Program), N: c.N, Iterations: c.Iterations,
		Calls: c.Calls, Intervals: c.Intervals, Seed: c.Seed,
	})
	if err != nil {
		return err
	}
	g.infof("wrote %s: %d calls", c.Out, n)
	return nil
}
