package sim

import (
	"fmt"
	"testing"

	"github.com/presage-dvm/presage/ingest/golden"
	"github.com/presage-dvm/presage/ingest/ptr"
	"github.com/presage-dvm/presage/sim/result"
)

// BenchmarkPredict simulates large traces held in memory (reading is not
// timed) and reports calls per second.
func BenchmarkPredict(b *testing.B) {
	m := loadMachine(b, "Predictor")
	for _, tr := range []string{"jac1d_x40000.ptr.gz", "jac_e4_L500_it4000.ptr.gz"} {
		r, err := ptr.OpenFile(golden.Path(b, "traces", tr))
		if err != nil {
			b.Fatal(err)
		}
		calls, err := ptr.ReadAll(r)
		if err != nil {
			b.Fatal(err)
		}
		h := r.Header()
		r.Close()
		for _, g := range [][]int{{2, 2}, {8, 8}} {
			b.Run(fmt.Sprintf("%s/%s", tr, result.GridString(g)), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := Predict(h, ptr.NewSliceSource(calls), m, result.Config{Grid: g}, Options{}); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(len(calls))*float64(b.N)/b.Elapsed().Seconds(), "calls/s")
			})
		}
	}
}
