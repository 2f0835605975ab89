package main

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"github.com/presage-dvm/presage/exports/arrowipc"
	"github.com/presage-dvm/presage/exports/csvexport"
	"github.com/presage-dvm/presage/exports/extrap"
	"github.com/presage-dvm/presage/exports/parquet"
	"github.com/presage-dvm/presage/exports/table"
	"github.com/presage-dvm/presage/schema/store"
)

type exportCmd struct {
	Parquet  exportParquetCmd  `cmd:"" help:"Parquet files (zstd, dictionary-encoded, partitioned by sweep) for pandas and DuckDB."`
	Arrow    exportArrowCmd    `cmd:"" help:"Arrow IPC files, partitioned by sweep."`
	CSV      exportCSVCmd      `cmd:"" name:"csv" help:"CSV files, partitioned by sweep."`
	Extrap   exportExtrapCmd   `cmd:"" help:"Extra-P JSON Lines (one experiment per sweep and program) for scaling models."`
	Timeline exportTimelineCmd `cmd:"" help:"Timeline of a predicted run (what each processor does over time, and its messages), or of an orders run, simulated or measured (the stretches its orders ran on each node or worker): Paraver or Perfetto/Chrome JSON."`
}

// exportFlags are the flags of every export.
type exportFlags struct {
	Out   string `help:"Output folder: a new or empty one, or an earlier export, which is replaced once the new one is complete." required:""`
	Sweep int64  `help:"Export only this sweep (0: everything)."`
	Force bool   `help:"Replace an earlier export of another format at --out (never a folder of other files)."`

	estimate bool             // the store's estimate of the rows is the export's
	progress func(rows int64) // set by export for the table exports
}

func (f *exportFlags) Validate() error {
	if strings.TrimSpace(f.Out) == "" {
		return errors.New(`--out "": expected a folder name`)
	}
	return nil
}

// filterFlags narrow the table exports to some runs, and choose whether
// the zeros of the per-processor values are written.
type filterFlags struct {
	Trace string `help:"Export only the runs of this stored trace (name or id)."`
	Run   int64  `help:"Export only this run."`
	Dense bool   `help:"Write every processor's value of every characteristic in the values table, 0 where the store keeps none (it keeps the non-zero ones)."`
}

// source is st narrowed to the runs the flags name, dense when asked.
// It also sets the export's progress, whose total is the store's estimate
// of an export of every run (unknown when the flags narrow or widen it).
func (f *filterFlags) source(st *store.Store, e *exportFlags) (table.Source, error) {
	e.estimate = f.Trace == "" && f.Run == 0 && !f.Dense
	var filter table.Filter
	if f.Trace != "" {
		info, err := st.Trace(f.Trace)
		if err != nil {
			return nil, err
		}
		filter.TraceID = info.ID
	}
	if f.Run != 0 {
		if _, err := st.ResolveRun(strconv.FormatInt(f.Run, 10)); err != nil {
			return nil, err
		}
		filter.RunID = f.Run
	}
	src := table.Filtered(st, filter)
	if f.Dense {
		src = table.Dense(src)
	}
	return src, nil
}

type (
	exportParquetCmd struct {
		exportFlags
		filterFlags
	}
	exportArrowCmd struct {
		exportFlags
		filterFlags
		Zstd bool `help:"Compress the record batches with zstd (pyarrow and DuckDB read them; Apache Arrow JS does not)."`
	}
	exportCSVCmd struct {
		exportFlags
		filterFlags
	}
	exportExtrapCmd struct{ exportFlags }
)

func (c *exportParquetCmd) Run(ctx context.Context, g *Globals) error {
	return c.export(ctx, g, "parquet", func(st *store.Store, dir string) (table.Summary, error) {
		src, err := c.source(st, &c.exportFlags)
		if err != nil {
			return table.Summary{}, err
		}
		return parquet.Write(ctx, src, dir, parquet.Options{SweepID: c.Sweep, Progress: c.progress})
	})
}

func (c *exportArrowCmd) Run(ctx context.Context, g *Globals) error {
	return c.export(ctx, g, "Arrow IPC", func(st *store.Store, dir string) (table.Summary, error) {
		src, err := c.source(st, &c.exportFlags)
		if err != nil {
			return table.Summary{}, err
		}
		return arrowipc.Write(ctx, src, dir, arrowipc.Options{SweepID: c.Sweep, Zstd: c.Zstd, Progress: c.progress})
	})
}

func (c *exportCSVCmd) Run(ctx context.Context, g *Globals) error {
	return c.export(ctx, g, "CSV", func(st *store.Store, dir string) (table.Summary, error) {
		src, err := c.source(st, &c.exportFlags)
		if err != nil {
			return table.Summary{}, err
		}
		return csvexport.Write(ctx, src, dir, csvexport.Options{SweepID: c.Sweep, Progress: c.progress})
	})
}

func (c *exportExtrapCmd) Run(ctx context.Context, g *Globals) error {
	return c.export(ctx, g, "Extra-P", func(st *store.Store, dir string) (table.Summary, error) {
		return extrap.Write(ctx, st, dir, extrap.Options{SweepID: c.Sweep})
	})
}

// export opens the store and runs one exporter on it, into a folder that
// replaces --out once complete (writeExportDir). The exporter reads one
// snapshot of the store (store.Snapshot): a sweep writing meanwhile adds
// runs to none of the export's files.
func (f *exportFlags) export(ctx context.Context, g *Globals, format string, write func(st *store.Store, dir string) (table.Summary, error)) error {
	whole, err := g.readStore()
	if err != nil {
		return err
	}
	defer whole.Close()
	st, err := whole.Snapshot(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	update, finish := g.countProgress("export "+format, counted{things: "rows", estimated: true})
	defer finish()
	total := int64(-1) // not asked yet; 0: unknown
	f.progress = func(rows int64) {
		if total == -1 {
			total = 0
			if f.estimate {
				// Only a progress bar's total: without it, the bar counts.
				total, _ = st.ExportRowsEstimate(ctx, f.Sweep)
			}
		}
		update(rows, total)
	}
	sum, err := writeExportDir(ctx, g.outputs(f.Force), f.Out, manifest{Format: format, Store: st.Path(), Sweep: f.Sweep},
		func(dir string) (table.Summary, error) { return write(st, dir) })
	if err != nil {
		return err
	}
	g.infof("%s export to %s: %s", format, f.Out, sum)
	return nil
}
