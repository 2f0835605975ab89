package orders

import (
	goruntime "runtime"
	"syscall"
	"time"
	"unsafe"
)

// clockThreadCPUTime is CLOCK_THREAD_CPUTIME_ID of clock_gettime(2).
const clockThreadCPUTime = 3

// timeBlock returns the CPU time real takes on its thread, locked to it
// meanwhile, and its wall time: a calibration measures the machine, not
// the other programs that share it at that moment (docs/orders-sim.md,
// "Reality check"), and a wall time well above the CPU time says they
// took the core meanwhile. It falls back to the wall time if the clock
// cannot be read.
func timeBlock(real func()) (cpu, wall float64) {
	goruntime.LockOSThread()
	defer goruntime.UnlockOSThread()
	start, ok := threadCPU()
	since := time.Now()
	real()
	end, ok2 := threadCPU()
	wall = time.Since(since).Seconds()
	if !ok || !ok2 {
		return wall, wall
	}
	return (end - start).Seconds(), wall
}

func threadCPU() (time.Duration, bool) {
	var ts syscall.Timespec
	_, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0)
	if errno != 0 {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}
