package hostprobe

import (
	"time"

	"golang.org/x/sys/unix"
)

// touchFresh maps n bytes of fresh anonymous memory in small pages, times
// touching every page, and unmaps it.
func touchFresh(n int) (time.Duration, error) {
	b, err := unix.Mmap(-1, 0, n, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS)
	if err != nil {
		return 0, err
	}
	defer unix.Munmap(b)
	// A program's buffers come in small pages where the system gives
	// huge ones only to memory that asks (madvise, this project's
	// machines); where it gives them to all, this asks for small ones.
	_ = unix.Madvise(b, unix.MADV_NOHUGEPAGE)
	start := time.Now()
	touch(b)
	return time.Since(start), nil
}
