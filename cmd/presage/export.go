package main

import (
	"context"

	"github.com/presage-dvm/presage/exports/arrowipc"
	"github.com/presage-dvm/presage/exports/csvexport"
	"github.com/presage-dvm/presage/exports/extrap"
	"github.com/presage-dvm/presage/exports/parquet"
	"github.com/presage-dvm/presage/exports/table"
	"github.com/presage-dvm/presage/schema/store"
)

type exportCmd struct {
	Parquet exportParquetCmd `cmd:"" help:"Parquet files (zstd, dictionary-encoded, partitioned by sweep) for pandas and DuckDB."`
	Arrow   exportArrowCmd   `cmd:"" help:"Arrow IPC files, partitioned by sweep."`
	CSV     exportCSVCmd     `cmd:"" name:"csv" help:"CSV files, partitioned by sweep."`
	Extrap  exportExtrapCmd  `cmd:"" help:"Extra-P JSON Lines (one experiment per sweep and program) for scaling models."`
}

// exportFlags are the flags of every export.
type exportFlags struct {
	Out   string `help:"Output directory." required:"" type:"path"`
	Sweep int64  `help:"Export only this sweep (0: everything)."`
}

type (
	exportParquetCmd struct{ exportFlags }
	exportArrowCmd   struct{ exportFlags }
	exportCSVCmd     struct{ exportFlags }
	exportExtrapCmd  struct{ exportFlags }
)

func (c *exportParquetCmd) Run(ctx context.Context, g *Globals) error {
	return c.export(ctx, g, "parquet", func(st *store.Store) (table.Summary, error) {
		return parquet.Write(ctx, st, c.Out, parquet.Options{SweepID: c.Sweep})
	})
}

func (c *exportArrowCmd) Run(ctx context.Context, g *Globals) error {
	return c.export(ctx, g, "Arrow IPC", func(st *store.Store) (table.Summary, error) {
		return arrowipc.Write(ctx, st, c.Out, arrowipc.Options{SweepID: c.Sweep})
	})
}

func (c *exportCSVCmd) Run(ctx context.Context, g *Globals) error {
	return c.export(ctx, g, "CSV", func(st *store.Store) (table.Summary, error) {
		return csvexport.Write(ctx, st, c.Out, csvexport.Options{SweepID: c.Sweep})
	})
}

func (c *exportExtrapCmd) Run(ctx context.Context, g *Globals) error {
	return c.export(ctx, g, "Extra-P", func(st *store.Store) (table.Summary, error) {
		return extrap.Write(ctx, st, c.Out, extrap.Options{SweepID: c.Sweep})
	})
}

// export opens the store and runs one exporter on it.
func (f *exportFlags) export(ctx context.Context, g *Globals, format string, write func(*store.Store) (table.Summary, error)) error {
	st, err := g.openStore()
	if err != nil {
		return err
	}
	defer st.Close()
	sum, err := write(st)
	if err != nil {
		return err
	}
	g.infof("%s export to %s: %s", format, f.Out, sum)
	return nil
}
