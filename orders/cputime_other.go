//go:build !linux

package orders

import "time"

// timeBlock returns the wall time real takes: this system offers no
// per-thread CPU clock to the standard library.
func timeBlock(real func()) float64 {
	start := time.Now()
	real()
	return time.Since(start).Seconds()
}
