package orders

import (
	"golang.org/x/sys/unix"
)

// calibrationCPUs returns the CPUs this process may run on, in
// increasing order: calibrate mode times its blocks on each of them in
// turn (pinOSThread), because the cores of a virtual machine need not
// run a block equally fast. On the project's 2-core virtual machine a
// tile kernel ran 1.4 times slower on one vCPU than on the other, while
// the reference loop ran equally fast on both; a calibration whose
// thread stayed on one core or the other for seconds at a time priced
// the same tile up to 44% apart from one process to the next.
func calibrationCPUs() []int {
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil {
		return nil
	}
	var cpus []int
	for cpu := 0; len(cpus) < set.Count(); cpu++ {
		if set.IsSet(cpu) {
			cpus = append(cpus, cpu)
		}
	}
	return cpus
}

// pinOSThread restricts the calling OS thread, which the caller has
// locked its goroutine to, to cpu, and returns the function that gives it
// back every CPU it had; ok is false, and nothing changed, when the
// system refused.
func pinOSThread(cpu int) (restore func(), ok bool) {
	var before, only unix.CPUSet
	if err := unix.SchedGetaffinity(0, &before); err != nil {
		return func() {}, false
	}
	only.Set(cpu)
	if err := unix.SchedSetaffinity(0, &only); err != nil {
		return func() {}, false
	}
	return func() { _ = unix.SchedSetaffinity(0, &before) }, true
}
