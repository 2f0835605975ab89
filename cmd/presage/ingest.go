package main

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/presage-dvm/presage/ingest"
	"github.com/presage-dvm/presage/schema/store"
)

type ingestCmd struct {
	Trace       ingestTraceCmd       `cmd:"" help:"Ingest Lib-DVM traces (.ptr, plain or gzip): each field's limits are checked as it is read; what the calls mean is checked by the trace's first prediction (or at once with --check)."`
	Machine     ingestMachineCmd     `cmd:"" help:"Ingest machine files (Predictor.par cluster format or the 2000 flat format)."`
	Sts         ingestStsCmd         `cmd:"" help:"Ingest statistics files (sts.gz+) of real parallel runs."`
	Orders      ingestOrdersCmd      `cmd:"" help:"Ingest order traces of the orders-based technology (.jsonl, plain or gzip; docs/orders.md)."`
	Calibration ingestCalibrationCmd `cmd:"" help:"Ingest calibration files of marked blocks (.csv; docs/orders.md)."`
	OrdersRun   ingestOrdersRunCmd   `cmd:"" name:"orders-run" help:"Ingest measured runs of orders programs (run mode's -orders.out file, plain or gzip; docs/orders.md) to compare with predictions."`
}

type ingestTraceCmd struct {
	Files []string `arg:"" help:"Trace files." type:"existingfile"`
	Calls bool     `help:"Also write the calls table (one SQL row per call, for SQL queries such as func_profile; presage calls does it later)."`
	Check bool     `help:"Also check what the calls mean now, by simulating the trace on one processor (about as long as the rest of the ingest): a trace no configuration can simulate is refused here, not by its first prediction."`
}

// Run ingests each file in its own transaction: a bad file leaves the
// store as it was and stops the command.
func (c *ingestTraceCmd) Run(ctx context.Context, g *Globals) error {
	st, err := g.openStore()
	if err != nil {
		return err
	}
	defer st.Close()
	for _, f := range c.Files {
		update, finish := g.progress("ingest " + f)
		info, err := ingest.TraceWith(ctx, st, f, ingest.TraceOptions{Progress: update, Calls: c.Calls, CheckMeaning: c.Check})
		finish()
		if err != nil {
			return err
		}
		if info.Existing && info.Refused != "" {
			return fmt.Errorf("trace %s (id %d) is already stored, and was refused at its first prediction: %s", info.Name, info.ID, info.Refused)
		}
		if info.Existing {
			g.infof("trace %s (id %d) is already stored: nothing to do", info.Name, info.ID)
			continue
		}
		g.infof("trace %s: %d calls, %d bytes (id %d)", info.Name, info.Calls, info.Bytes, info.ID)
		g.warnNamesakes(st, "traces", info.Name, info.ID)
	}
	return nil
}

type ingestMachineCmd struct {
	Files []string `arg:"" help:"Machine files." type:"existingfile"`
}

func (c *ingestMachineCmd) Run(ctx context.Context, g *Globals) error {
	st, err := g.openStore()
	if err != nil {
		return err
	}
	defer st.Close()
	for _, f := range c.Files {
		info, err := ingest.Machine(ctx, st, f)
		if err != nil {
			return err
		}
		if info.Existing {
			g.infof("machine %s (id %d) is already stored: nothing to do", info.Name, info.ID)
			continue
		}
		g.infof("machine %s: %d processors (id %d)", info.Name, info.Processors, info.ID)
		g.warnNamesakes(st, "machines", info.Name, info.ID)
	}
	return nil
}

type ingestStsCmd struct {
	Files []string `arg:"" help:"Statistics files." type:"existingfile"`
}

func (c *ingestStsCmd) Run(ctx context.Context, g *Globals) error {
	st, err := g.openStore()
	if err != nil {
		return err
	}
	defer st.Close()
	for _, f := range c.Files {
		info, err := ingest.Sts(ctx, st, f)
		if err != nil {
			return err
		}
		if info.Existing {
			g.infof("statistics %s (id %d) are already stored: nothing to do", info.Name, info.ID)
			continue
		}
		g.infof("statistics %s: %d processors, grid %s, measured run %d", info.Name, info.Procs, info.Grid, info.RunID)
	}
	return nil
}

type ingestOrdersCmd struct {
	Files []string `arg:"" help:"Order trace files." type:"existingfile"`
}

func (c *ingestOrdersCmd) Run(ctx context.Context, g *Globals) error {
	st, err := g.openStore()
	if err != nil {
		return err
	}
	defer st.Close()
	collectOften()
	for _, f := range c.Files {
		info, err := ingestOrderTrace(ctx, g, st, f)
		if err != nil {
			return err
		}
		if info.Existing {
			g.infof("order trace %s (id %d) is already stored: nothing to do", info.Name, info.ID)
			continue
		}
		g.infof("order trace %s: %d orders, work %.6g %s, span %.6g %s, parallelism %.3g (id %d)",
			info.Name, info.Orders, info.Work, info.Unit, info.Span, info.Unit, info.Work/info.Span, info.ID)
		g.warnNamesakes(st, "order_traces", info.Name, info.ID)
	}
	return nil
}

// ingestOrderTrace ingests the order trace file f, showing the progress
// of its passes: the file read, then the orders analysed.
func ingestOrderTrace(ctx context.Context, g *Globals, st *store.Store, f string) (store.OrderTraceInfo, error) {
	read, finishRead := g.progress("ingest " + f)
	finishRead = sync.OnceFunc(finishRead) // when the analysis starts, or at the end
	analyse, finishAnalyse := g.countProgress("work and span of "+f, counted{things: "orders"})
	info, err := ingest.OrderTraceWith(ctx, st, f, ingest.OrderTraceOptions{Reading: read, Analysing: func(done, total int64) {
		finishRead()
		analyse(done, total)
	}})
	finishRead()
	finishAnalyse()
	return info, err
}

type ingestCalibrationCmd struct {
	Files []string `arg:"" help:"Calibration files." type:"existingfile"`
}

func (c *ingestCalibrationCmd) Run(ctx context.Context, g *Globals) error {
	st, err := g.openStore()
	if err != nil {
		return err
	}
	defer st.Close()
	for _, f := range c.Files {
		info, err := ingest.Calibration(ctx, st, f)
		if err != nil {
			return err
		}
		if info.Existing {
			g.infof("calibration %s (id %d) is already stored: nothing to do", info.Name, info.ID)
			continue
		}
		g.infof("calibration %s: %d rows (id %d)", info.Name, info.Rows, info.ID)
		if err := g.adviseCalibration(st, info.ID); err != nil {
			return err
		}
		g.warnNamesakes(st, "calibrations", info.Name, info.ID)
	}
	return nil
}

type ingestOrdersRunCmd struct {
	Files []string `arg:"" help:"Measured-run files." type:"existingfile"`
}

func (c *ingestOrdersRunCmd) Run(ctx context.Context, g *Globals) error {
	st, err := g.openStore()
	if err != nil {
		return err
	}
	defer st.Close()
	for _, f := range c.Files {
		info, err := ingest.OrderMeasurement(ctx, st, f)
		if err != nil {
			return err
		}
		if info.Existing {
			g.infof("measured run %s (id %d, run %d) is already stored: nothing to do", info.Name, info.ID, info.RunID)
			continue
		}
		rule := info.Scheduler
		if info.Migrate {
			rule += " with migration"
		}
		on := fmt.Sprintf("%d workers", info.Workers)
		if info.Cores > 0 {
			on = fmt.Sprintf("%d worker processes of %d cores", info.Workers/info.Cores, info.Cores)
		}
		g.infof("measured run %s: %s on %s of %s, %s, %d orders in %.4g s (run %d)",
			info.Name, info.Program, on, info.Machine, rule, info.Orders, info.Makespan, info.RunID)
	}
	return nil
}

// warnNamesakes says when the file just stored as row id of table has
// the name of others (the same base name in another folder): the name
// then no longer finds one, and each is given by its id.
func (g *Globals) warnNamesakes(st *store.Store, table, name string, id int64) {
	ids, err := st.Namesakes(table, id)
	if err != nil || len(ids) == 0 {
		return
	}
	g.infof("warning: %s %q is also the name of id %v: refer to each by its id (--%s %d)",
		strings.TrimSuffix(strings.ReplaceAll(table, "_", " "), "s"), name, ids, flagOf[table], id)
}

// flagOf is the flag that names a stored input of each table.
var flagOf = map[string]string{"traces": "trace", "machines": "machine", "order_traces": "orders", "calibrations": "calibration"}
