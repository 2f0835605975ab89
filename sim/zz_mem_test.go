package sim

import (
	"fmt"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/presage-dvm/presage/ingest/golden"
	"github.com/presage-dvm/presage/ingest/ptr"
	"github.com/presage-dvm/presage/sim/result"
)

func TestZZMem(t *testing.T) {
	mode := os.Getenv("ZZMEM")
	if mode == "" {
		t.Skip()
	}
	path := golden.Path(t, "traces", "jac1d_x40000.ptr.gz")
	m := loadMachine(t, "Predictor")
	t0 := time.Now()
	r, _ := ptr.OpenFile(path)
	g := []int{2, 2}
	if mode == "8x8" {
		g = []int{8, 8}
	}
	if _, err := Predict(r.Header(), r, m, result.Config{Grid: g}, Options{}); err != nil {
		t.Fatal(err)
	}
	r.Close()
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	fmt.Printf("Predict from file %v: %v, max RSS %.1f MB\n", g, time.Since(t0), float64(ru.Maxrss)/1024)
}
