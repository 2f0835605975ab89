package hugepage

import (
	"bufio"
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
	"unsafe"
)

// mapping is a mapping of /proc/self/smaps.
type mapping struct {
	lo, hi uintptr
	flags  string
}

// mappings returns the process's mappings, skipping the test where huge
// pages cannot be advised.
func mappings(t *testing.T) []mapping {
	if runtime.GOOS != "linux" {
		t.Skip("advice is given on Linux only")
	}
	if _, err := os.Stat("/sys/kernel/mm/transparent_hugepage/enabled"); err != nil {
		t.Skipf("this kernel has no transparent huge pages: %v", err)
	}
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skipf("no /proc/self/smaps: %v", err)
	}
	defer f.Close()
	var ms []mapping
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		var m mapping
		if n, _ := fmt.Sscanf(line, "%x-%x ", &m.lo, &m.hi); n == 2 {
			ms = append(ms, m)
		} else if rest, ok := strings.CutPrefix(line, "VmFlags:"); ok && len(ms) > 0 {
			ms[len(ms)-1].flags = rest
		}
	}
	return ms
}

// advised returns the bytes of the mappings advised huge pages ("hg").
func advised(ms []mapping) uintptr {
	n := uintptr(0)
	for _, m := range ms {
		if strings.Contains(m.flags, " hg") {
			n += m.hi - m.lo
		}
	}
	return n
}

// Heap advises as much of the address space as it is asked for, in
// pieces.
func TestHeapAdvises(t *testing.T) {
	before := advised(mappings(t))
	Heap(4 * PieceSize)
	if after := advised(mappings(t)); after < before+4*PieceSize {
		t.Errorf("advised %d MB after Heap(%d MB), %d MB before", after>>20, 4*PieceSize>>20, before>>20)
	}
}

// Slice advises every 2 MB page its array touches: the kernel marks the
// mappings there "hg" (huge pages advised).
func TestSliceAdvisesAroundTheArray(t *testing.T) {
	mappings(t)
	s := make([]int64, 3<<20/8+5) // 3 MB and a bit: three or four huge pages
	Slice(s)
	p := uintptr(unsafe.Pointer(unsafe.SliceData(s)))
	start, end := p&^(Size-1), (p+uintptr(len(s))*8+Size-1)&^(Size-1)
	covered := uintptr(0)
	for _, m := range mappings(t) {
		if m.lo < end && start < m.hi {
			covered += min(m.hi, end) - max(m.lo, start)
			if !strings.Contains(m.flags, " hg") {
				t.Errorf("mapping %#x-%#x, around the array, has flags%s, without hg", m.lo, m.hi, m.flags)
			}
		}
	}
	if covered != end-start {
		t.Errorf("the mappings cover %d of the %d bytes around the array", covered, end-start)
	}
	runtime.KeepAlive(s)
}
