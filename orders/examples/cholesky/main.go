// Command cholesky factors a random symmetric positive definite matrix by
// tiles, a dependency DAG of potrf, trsm, syrk and gemm orders
// (programs.Cholesky). Flags: -n size and the -orders.* flags of package orders:
//
//	go run ./orders/examples/cholesky                      # run mode, prints OK
//	go run ./orders/examples/cholesky -orders.mode calibrate -orders.out cal.csv
//	go run ./orders/examples/cholesky -orders.mode record -orders.calibration cal.csv -orders.out cholesky.jsonl
//	go run -tags cluster ./orders/examples/cholesky -orders.procs 3   # in 3 worker processes (cluster.go)
package main

import (
	"io"
	"os"

	"github.com/presage-dvm/presage/orders/examples/programs"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	return programs.Command(programs.Cholesky, args, stdout, stderr)
}
