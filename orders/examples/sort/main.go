// Command sort sorts random numbers by a merge sort of orders
// (programs.Sort). Flags: -n size and the -orders.* flags of package orders:
//
//	go run ./orders/examples/sort                      # run mode, prints OK
//	go run ./orders/examples/sort -orders.mode calibrate -orders.out cal.csv
//	go run ./orders/examples/sort -orders.mode record -orders.calibration cal.csv -orders.out sort.jsonl
//	go run -tags cluster ./orders/examples/sort -orders.procs 3   # in 3 worker processes (cluster.go)
package main

import (
	"io"
	"os"

	"github.com/presage-dvm/presage/orders/examples/programs"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	return programs.Command(programs.Sort, args, stdout, stderr)
}
