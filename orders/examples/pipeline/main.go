// Command pipeline passes items through stages of orders that exchange
// results (programs.Pipeline). Flags: -n size and the -orders.* flags of package orders:
//
//	go run ./orders/examples/pipeline                      # run mode, prints OK
//	go run ./orders/examples/pipeline -orders.mode calibrate -orders.out cal.csv
//	go run ./orders/examples/pipeline -orders.mode record -orders.calibration cal.csv -orders.out pipeline.jsonl
//	go run -tags cluster ./orders/examples/pipeline -orders.procs 3   # in 3 worker processes (cluster.go)
package main

import (
	"io"
	"os"

	"github.com/presage-dvm/presage/orders/examples/programs"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	return programs.Command(programs.Pipeline, args, stdout, stderr)
}
