//go:build !linux

package orders

import "time"

// timeBlock returns the wall time real takes, twice: this system offers
// no per-thread CPU clock to the standard library.
func timeBlock(real func()) (cpu, wall float64) {
	start := time.Now()
	real()
	wall = time.Since(start).Seconds()
	return wall, wall
}
