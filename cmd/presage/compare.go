package main

import (
	"context"
	"fmt"
	"io"

	"github.com/presage-dvm/presage/exports/comparereport"
	"github.com/presage-dvm/presage/internal/ordercompare"
	"github.com/presage-dvm/presage/internal/outfile"
	"github.com/presage-dvm/presage/schema/store"
	"github.com/presage-dvm/presage/sim/compare"
	"github.com/presage-dvm/presage/sim/result"
)

type compareCmd struct {
	Measured  string `help:"Measured run (number or 'latest')." required:""`
	Predicted string `help:"Predicted run (number or 'latest')." required:""`
	Format    string `help:"text, json or html." enum:"text,json,html" default:"text"`
	Out       string `help:"Output file ('-' for standard output); an existing one is replaced only if it is an earlier comparison of the format, or with --force." default:"-"`
	Force     bool   `help:"Compare runs that are not of one program (different source files or intervals), with a warning in every output; and replace an existing --out file of another kind (never the store nor --host-file)."`
	Worst     int    `help:"For two orders runs: list this many orders, those whose durations differ most first (and at most as many unmatched subtrees)." default:"10"`
	hostFlags
}

func (c *compareCmd) Validate() error { return checkFlags(atLeast("--worst", c.Worst, 0)) }

// compareKinds are the kinds of the comparison's files, by --format.
var compareKinds = map[string]outfile.Kind{"text": kindCompareText, "json": kindCompareJSON, "html": kindHTML}

var compareWriters = map[string]func(io.Writer, *comparereport.Report) error{
	"text": comparereport.WriteText,
	"json": comparereport.WriteJSON,
	"html": comparereport.WriteHTML,
}

// Run puts a measured and a predicted run of the same program side by
// side; two orders runs (a real run and a simulation of its trace) order
// by order too.
func (c *compareCmd) Run(ctx context.Context, g *Globals) error {
	out, guard := outfile.Target{Path: c.Out, Flag: "--out", Kind: compareKinds[c.Format]}, g.outputs(c.Force, "--host-file", c.HostFile)
	if err := checkOutput(guard, out); err != nil {
		return err
	}
	st, err := g.readStore()
	if err != nil {
		return err
	}
	defer st.Close()
	load := func(ref string, want result.Kind) (*result.Run, error) {
		id, err := st.ResolveRun(ref)
		if err != nil {
			return nil, err
		}
		run, err := st.Run(id)
		if err != nil {
			return nil, err
		}
		if run.Kind != want {
			return nil, fmt.Errorf("run %d is %s, expected a %s run", id, run.Kind, want)
		}
		return run, nil
	}
	measured, err := load(c.Measured, result.Measured)
	if err != nil {
		return err
	}
	predicted, err := load(c.Predicted, result.Predicted)
	if err != nil {
		return err
	}
	opt := compare.Options{Force: c.Force}
	host, described, err := c.host()
	if err != nil {
		return err
	}
	if described {
		opt.MeasuredMachine = hostFacts(host, measured.Config.Procs())
	}
	cmp, err := compare.Compare(measured, predicted, opt)
	if err != nil {
		return err
	}
	for _, w := range cmp.Warnings {
		g.infof("warning: %s", w)
	}
	rep := &comparereport.Report{Comparison: cmp, Worst: c.Worst}
	if rep.Orders, err = compareOrders(ctx, st, measured.ID, predicted.ID); err != nil {
		return err
	}
	if rep.Orders != nil {
		for _, w := range rep.Orders.Warnings {
			g.infof("warning: %s", w)
		}
	}
	return writeOutput(ctx, guard, out, func(w io.Writer) error { return compareWriters[c.Format](w, rep) })
}

// compareOrders compares two orders runs order by order, with every
// stored order of each; nil when either run is of the DVM engine.
func compareOrders(ctx context.Context, st *store.Store, measured, predicted int64) (*ordercompare.Comparison, error) {
	for _, id := range []int64{measured, predicted} {
		if is, err := st.IsOrdersRun(ctx, id); err != nil || !is {
			return nil, err
		}
	}
	m, err := st.OrderSimulation(ctx, measured, -1)
	if err != nil {
		return nil, err
	}
	p, err := st.OrderSimulation(ctx, predicted, -1)
	if err != nil {
		return nil, err
	}
	return ordercompare.Compare(m, p)
}
