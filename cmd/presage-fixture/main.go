// Command presage-fixture writes a synthetic Presage store (exports/fixture)
// and, optionally, exports it in every format, for checking the exports
// with real clients (.ci/clients.sh) and for measuring them. Given an
// existing store and -export, it only exports that store.
//
//	presage-fixture -store s.db -export out -runs 12 -intervals 20 -procs 8 -sweeps 2
//	presage-fixture -store existing.db -export out
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/presage-dvm/presage/exports/arrowipc"
	"github.com/presage-dvm/presage/exports/csvexport"
	"github.com/presage-dvm/presage/exports/extrap"
	"github.com/presage-dvm/presage/exports/fixture"
	"github.com/presage-dvm/presage/exports/parquet"
	"github.com/presage-dvm/presage/schema"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "presage-fixture:", err)
		os.Exit(1)
	}
}

func run() error {
	spec := fixture.Small
	store := flag.String("store", "", "store to create (must not exist)")
	out := flag.String("export", "", "directory to export the store to (parquet/, arrow/, csv/, extrap/); none when empty")
	flag.IntVar(&spec.Runs, "runs", 12, "runs")
	flag.IntVar(&spec.Intervals, "intervals", 20, "intervals per run")
	flag.IntVar(&spec.Procs, "procs", 8, "processors of the largest grid")
	flag.IntVar(&spec.Sweeps, "sweeps", 2, "sweeps")
	flag.IntVar(&spec.Calls, "calls", 200, "calls of the fixture trace")
	flag.Int64Var(&spec.Seed, "seed", 1, "seed of the values")
	flag.Parse()
	if *store == "" {
		return fmt.Errorf("-store is required")
	}
	_, err := os.Stat(*store)
	exists := err == nil
	if exists && *out == "" {
		return fmt.Errorf("store %s exists: give a new path to build one, or -export to export it", *store)
	}
	ctx := context.Background()
	db, err := schema.Open(*store)
	if err != nil {
		return err
	}
	defer db.Close()
	if !exists {
		start := time.Now()
		if _, err := fixture.Build(ctx, db, spec, false); err != nil {
			return err
		}
		fmt.Printf("store %s: %+v built in %s\n", *store, spec, time.Since(start).Round(time.Millisecond))
	}
	if *out == "" {
		return nil
	}
	type exporter struct {
		name  string
		write func() (fmt.Stringer, error)
	}
	for _, e := range []exporter{
		{"parquet", func() (fmt.Stringer, error) { return parquet.Write(ctx, db, *out+"/parquet", parquet.Options{}) }},
		{"arrow", func() (fmt.Stringer, error) { return arrowipc.Write(ctx, db, *out+"/arrow", arrowipc.Options{}) }},
		{"csv", func() (fmt.Stringer, error) { return csvexport.Write(ctx, db, *out+"/csv", csvexport.Options{}) }},
		{"extrap", func() (fmt.Stringer, error) { return extrap.Write(ctx, db, *out+"/extrap", extrap.Options{}) }},
	} {
		start := time.Now()
		sum, err := e.write()
		if err != nil {
			return fmt.Errorf("%s: %w", e.name, err)
		}
		fmt.Printf("%s: %v in %s\n", e.name, sum, time.Since(start).Round(time.Millisecond))
	}
	return nil
}
