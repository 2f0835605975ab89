package orders

import (
	"io"
	"testing"

	"github.com/presage-dvm/presage/orders/calibration"
)

// noop makes width orders that do nothing and waits for them: the
// runtime's cost per order in each mode.
var noop = Proc("noop", func(c *Ctx, x int) (int, error) { return x, nil })

var fan = Proc("fan", func(c *Ctx, width int) (int, error) {
	hs := make([]*Handle[int], width)
	for i := range hs {
		hs[i] = Make(c, noop, i)
	}
	sum := 0
	for _, h := range hs {
		x, err := h.Get(c)
		if err != nil {
			return 0, err
		}
		sum += x
	}
	return sum, nil
})

func benchmarkMode(b *testing.B, cfg Config) {
	const width = 1000
	for b.Loop() {
		if _, _, err := Main(cfg, fan, width); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*width), "ns/order")
}

func BenchmarkRunOrder(b *testing.B) { benchmarkMode(b, Config{Workers: 2}) }
func BenchmarkRecordOrder(b *testing.B) {
	benchmarkMode(b, Config{Mode: ModeRecord, Constants: calibration.Constants{}, Output: io.Discard})
}
