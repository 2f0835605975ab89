package main

import (
	"context"

	"github.com/jmoiron/sqlx"

	"github.com/presage-dvm/presage/exports/arrowipc"
	"github.com/presage-dvm/presage/exports/csvexport"
	"github.com/presage-dvm/presage/exports/extrap"
	"github.com/presage-dvm/presage/exports/parquet"
	"github.com/presage-dvm/presage/exports/table"
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
	return c.export(ctx, g, "parquet", func(db *sqlx.DB) (table.Summary, error) {
		return parquet.Write(ctx, db, c.Out, parquet.Options{SweepID: c.Sweep})
	})
}

func (c *exportArrowCmd) Run(ctx context.Context, g *Globals) error {
	return c.export(ctx, g, "Arrow IPC", func(db *sqlx.DB) (table.Summary, error) {
		return arrowipc.Write(ctx, db, c.Out, arrowipc.Options{SweepID: c.Sweep})
	})
}

func (c *exportCSVCmd) Run(ctx context.Context, g *Globals) error {
	return c.export(ctx, g, "CSV", func(db *sqlx.DB) (table.Summary, error) {
		return csvexport.Write(ctx, db, c.Out, csvexport.Options{SweepID: c.Sweep})
	})
}

func (c *exportExtrapCmd) Run(ctx context.Context, g *Globals) error {
	return c.export(ctx, g, "Extra-P", func(db *sqlx.DB) (table.Summary, error) {
		return extrap.Write(ctx, db, c.Out, extrap.Options{SweepID: c.Sweep})
	})
}

// export opens the store and runs one exporter on it.
func (f *exportFlags) export(ctx context.Context, g *Globals, format string, write func(*sqlx.DB) (table.Summary, error)) error {
	db, err := g.openStore()
	if err != nil {
		return err
	}
	defer db.Close()
	sum, err := write(db)
	if err != nil {
		return err
	}
	g.infof("%s export to %s: %s", format, f.Out, sum)
	return nil
}
