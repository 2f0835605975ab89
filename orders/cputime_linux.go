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
// meanwhile, its wall time, and the minor page faults the thread took: a
// calibration measures the machine, not the other programs that share it
// at that moment (docs/orders-sim.md, "Reality check"), and a wall time
// well above the CPU time says they took the core meanwhile; a run that
// faulted touched memory fresh from the system, which cost a merge of
// 2,000,000 numbers 2.6 times its time in some processes and not in
// others. It falls back to the wall time if the clock cannot be read
// (blockCPU).
func timeBlock(real func()) (cpu, wall float64, faults int) {
	goruntime.LockOSThread()
	defer goruntime.UnlockOSThread()
	f0 := threadFaults()
	start, ok := threadCPU()
	since := time.Now()
	real()
	end, ok2 := threadCPU()
	wall = time.Since(since).Seconds()
	faults = max(threadFaults()-f0, 0)
	return blockCPU(end-start, ok && ok2, wall), wall, faults
}

// blockCPU is a block's CPU time in seconds: elapsed on its thread's
// clock, or the block's wall time when the clock could not be read or did
// not move. It did not, over a block of a few microseconds, once in a CI
// run on this virtual machine (cholesky-fine's calibration wrote a row of
// 0 seconds, which no calibration file may hold); the wall time bounds the
// CPU time, and such a block runs too briefly to be preempted.
func blockCPU(elapsed time.Duration, read bool, wall float64) float64 {
	if !read || elapsed <= 0 {
		return wall
	}
	return elapsed.Seconds()
}

// rusageThread is RUSAGE_THREAD of getrusage(2).
const rusageThread = 1

// threadFaults returns the minor page faults of the calling thread so
// far, 0 if they cannot be read.
func threadFaults() int {
	var ru syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		return 0
	}
	return int(ru.Minflt)
}

func threadCPU() (time.Duration, bool) {
	var ts syscall.Timespec
	_, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0)
	if errno != 0 {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}
