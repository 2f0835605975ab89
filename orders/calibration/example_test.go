package calibration_test

import (
	"fmt"
	"strings"

	"github.com/presage-dvm/presage/orders/calibration"
)

func Example() {
	// Two sizes of a matrix product, f = n³, two repetitions each.
	const file = `block,alpha,f,seconds,machine,rep
matmul,256,16777216,0.0336,node1,0
matmul,256,16777216,0.0335,node1,1
matmul,1024,1073741824,2.148,node1,0
matmul,1024,1073741824,2.146,node1,1
`
	rows, err := calibration.ReadAll(strings.NewReader(file), "calib.csv")
	if err != nil {
		fmt.Println(err)
		return
	}
	stats := calibration.Analyze(rows, calibration.DefaultThresholds)
	for _, s := range stats {
		fmt.Printf("%s on %s: c̄ = %.3g s per unit of f, slope %.3f, flags %q\n", s.Block, s.Machine, s.Mean, s.Slope, s.Flags)
	}
	seconds, _ := calibration.ConstantsOf(stats, "node1").Price("matmul", 512*512*512)
	fmt.Printf("a 512 matmul: %.3f s\n", seconds)
	// Output:
	// matmul on node1: c̄ = 2e-09 s per unit of f, slope 1.000, flags ""
	// a 512 matmul: 0.268 s
}
