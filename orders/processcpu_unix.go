//go:build unix

package orders

import (
	"syscall"
	"time"
)

// processCPU is the CPU time of the whole process so far, user and
// system, every thread: what network mode counts of a worker process's
// runtime (probeRuntime).
func processCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
