package orders

import (
	"os"
	goruntime "runtime"
	"runtime/debug"
	"strings"
	"sync"

	"golang.org/x/sys/unix"
)

// hugeHeap asks the system to back the next mb MB of the heap (a quarter
// of the memory at most) with transparent huge pages: it allocates them,
// advises MADV_HUGEPAGE on them without touching them, and drops them, so
// that the heap's later allocations, which reuse that address range,
// fault in 2 MB at a time.
//
// A run in worker processes copies every value that crosses a process
// several times (its encoding, the connection's buffers, the
// coordinator's server, its decoding), into heap the short-lived
// process has not touched yet: sort at n = 250,000 on 2 worker processes
// took 31,000 page faults of about 14 µs each on this project's virtual
// machine, most of the run's CPU, where one process passes the values by
// reference (docs/performance.md, "Where a run in worker processes loses
// its time"). The Go runtime leaves its heap in 4 KB pages where the
// system gives huge pages only on request (transparent_hugepage set to
// madvise, as here); the advice stays on the address range after the
// free, and costs address space, not memory. Only a process's first call
// does it: a coordinator that runs several times keeps the range, which a
// second allocation of it, reusing pages touched since, would zero.
func hugeHeap(mb int) {
	if mb <= 0 || !hugePages(readTHP()) {
		return
	}
	hugeHeapOnce.Do(func() { adviseHugeHeap(mb) })
}

var hugeHeapOnce sync.Once

// hugeHeapChunk is the size of the allocations adviseHugeHeap advises.
const hugeHeapChunk = 4 << 20

// adviseHugeHeap is hugeHeap's work.
func adviseHugeHeap(mb int) {
	size := int64(mb) << 20
	var si unix.Sysinfo_t
	if unix.Sysinfo(&si) == nil {
		// A system that counts address space against its memory
		// (vm.overcommit_memory) refuses an allocation much larger than
		// it, which would end the process: a quarter of the memory at
		// most.
		size = min(size, int64(si.Totalram)*int64(si.Unit)/4)
	}
	// Fresh from the system, an allocation is neither zeroed nor
	// touched; one that reuses any memory the heap has freed is zeroed
	// whole, every page touched before the advice. As one allocation of
	// the whole size after 16 MB had been freed, 3 processes of 4 here
	// zeroed the gigabyte: 258,000 page faults, 4 s. In chunks, only a
	// chunk that reuses freed memory is zeroed, pages mostly mapped
	// already. No collection meanwhile: it would find nothing to free.
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	chunks := make([][]byte, 0, size/hugeHeapChunk+1)
	for left := size; left > 0; left -= hugeHeapChunk {
		b := make([]byte, min(left, hugeHeapChunk))
		_ = unix.Madvise(b, unix.MADV_HUGEPAGE)
		chunks = append(chunks, b)
	}
	// Alive until every chunk is allocated: none reuses another's range.
	goruntime.KeepAlive(chunks)
	// Freed now, the range is where the next allocations go. Left to
	// the collection its size starts, it would still be marked alive
	// there and set the next collection's goal at twice its size: the
	// run's allocations would go to fresh memory beyond it (sort at
	// n = 250,000: 24,000 page faults instead of 7,500).
	goruntime.GC()
}

// readTHP returns the system's transparent huge pages setting, as
// /sys/kernel/mm/transparent_hugepage/enabled shows it ("" when it
// cannot be read).
func readTHP() string {
	b, _ := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	return string(b)
}

// hugePages reports whether setting, the contents of the kernel's
// transparent_hugepage/enabled ("always [madvise] never"), gives huge
// pages to memory that asks for them.
func hugePages(setting string) bool {
	return strings.Contains(setting, "[always]") || strings.Contains(setting, "[madvise]")
}
