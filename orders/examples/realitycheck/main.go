// Command realitycheck runs the reality check of the orders-based method
// (package orders/examples/reality) and prints one table: for every
// example program, size, placement and number of workers, the error of
// the prediction against the best of real runs on this machine.
//
//	go run ./orders/examples/realitycheck [-programs matmul,sort] [-sizes medium,default] [-workers 1,2,4] [-placements all]
//
// Run it alone on the machine: it times real runs.
package main

import (
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/presage-dvm/presage/orders/examples/programs"
	"github.com/presage-dvm/presage/orders/examples/reality"
	"github.com/presage-dvm/presage/orders/ordersched"
)

func main() {
	fs := flag.NewFlagSet("realitycheck", flag.ExitOnError)
	progs := fs.String("programs", "", "comma-separated example programs (default: every one)")
	sizes := fs.String("sizes", "medium,default", "comma-separated sizes: small, medium, default, or a number")
	workers := fs.String("workers", "", "comma-separated worker counts (default: 1, 2 and every power of two up to the cores)")
	placements := fs.String("placements", "all", "comma-separated schedulers ("+ordersched.List()+"), each pinned and migrating; all for every one")
	runs := fs.Int("runs", 5, "real runs per figure, the best kept")
	verbose := fs.Bool("v", false, "print every figure in full")
	fs.Parse(os.Args[1:])
	if err := run(*progs, *sizes, *workers, *placements, *runs, *verbose); err != nil {
		fmt.Fprintln(os.Stderr, "realitycheck:", err)
		os.Exit(1)
	}
}

func run(progs, sizes, workers, placements string, runs int, verbose bool) error {
	ps, err := choosePrograms(progs)
	if err != nil {
		return err
	}
	ws := reality.DefaultWorkers()
	if workers != "" {
		if ws, err = reality.ParseCounts(workers); err != nil {
			return fmt.Errorf("-workers: %w", err)
		}
	}
	pls, err := choosePlacements(placements)
	if err != nil {
		return err
	}
	var all []reality.Figure
	for _, p := range ps {
		for _, s := range strings.Split(sizes, ",") {
			n, err := sizeOf(p, s)
			if err != nil {
				return err
			}
			figs, err := reality.Check(p, n, ws, pls, reality.Options{Runs: runs})
			if err != nil {
				return err
			}
			if verbose {
				for _, f := range figs {
					fmt.Println(f)
				}
			}
			all = append(all, figs...)
		}
	}
	return reality.WriteTable(os.Stdout, all)
}

func choosePrograms(list string) ([]programs.Program, error) {
	if list == "" {
		return programs.All(), nil
	}
	var out []programs.Program
	for _, name := range strings.Split(list, ",") {
		p, ok := programs.Named(name)
		if !ok {
			return nil, fmt.Errorf("-programs: no example %q", name)
		}
		out = append(out, p)
	}
	return out, nil
}

func choosePlacements(list string) ([]reality.Placement, error) {
	if list == "all" {
		return reality.Placements(), nil
	}
	var out []reality.Placement
	for _, s := range strings.Split(list, ",") {
		n, err := ordersched.Parse(s)
		if err != nil {
			return nil, fmt.Errorf("-placements: %w", err)
		}
		out = append(out, reality.Placement{Scheduler: n}, reality.Placement{Scheduler: n, Migrate: true})
	}
	return out, nil
}

func sizeOf(p programs.Program, s string) (int, error) {
	switch s {
	case "small":
		return p.Small, nil
	case "medium":
		return p.Medium, nil
	case "default":
		return p.Size, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("-sizes: %q (expected small, medium, default or a positive number)", s)
	}
	return n, nil
}
