// Command matmul multiplies two random matrices by blocks with package orders
// (programs.Matmul). Flags: -n size and the -orders.* flags of package orders:
//
//	go run ./orders/examples/matmul                      # run mode, prints OK
//	go run ./orders/examples/matmul -orders.mode calibrate -orders.out cal.csv
//	go run ./orders/examples/matmul -orders.mode record -orders.calibration cal.csv -orders.out matmul.jsonl
//	go run -tags cluster ./orders/examples/matmul -orders.procs 3   # in 3 worker processes (cluster.go)
package main

import (
	"io"
	"os"

	"github.com/presage-dvm/presage/orders/examples/programs"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	return programs.Command(programs.Matmul, args, stdout, stderr)
}
