//go:build !linux

package orders

// calibrationCPUs returns nil: this system offers the standard library no
// way to pin a thread, so calibrate mode times its blocks wherever they
// run.
func calibrationCPUs() []int { return nil }

// pinOSThread pins nothing here.
func pinOSThread(int) (restore func(), ok bool) { return func() {}, false }
