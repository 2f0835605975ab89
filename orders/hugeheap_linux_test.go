package orders

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

func TestHugePages(t *testing.T) {
	for _, c := range []struct {
		setting string
		want    bool
	}{
		{"[always] madvise never\n", true},
		{"always [madvise] never\n", true},
		{"always madvise [never]\n", false},
		{"", false}, // not readable: no huge pages asked for
	} {
		if got := hugePages(c.setting); got != c.want {
			t.Errorf("hugePages(%q) = %v, want %v", c.setting, got, c.want)
		}
	}
}

func TestHugePagesDefault(t *testing.T) {
	for _, c := range []struct{ mb, want int }{{0, 1024}, {-1, 0}, {32, 32}} {
		if got := (Config{HugePages: c.mb}).hugePagesMB(); got != c.want {
			t.Errorf("HugePages %d: %d MB, want %d", c.mb, got, c.want)
		}
	}
}

// TestHugeHeapFaultsLess runs a fresh process that allocates 64 MB in
// values of 2 MB, as values crossing processes do, without and with
// hugeHeap(256) first, and counts the page faults of the allocations:
// in huge pages, a fault maps 2 MB instead of 4 KB.
func TestHugeHeapFaultsLess(t *testing.T) {
	if !hugePages(readTHP()) {
		t.Skip("no transparent huge pages on this system: hugeHeap does nothing")
	}
	if raceEnabled {
		t.Skip("the race detector's shadow memory faults in pages of its own")
	}
	faults := func(mb int) int64 {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHugeHeapChild$")
		cmd.Env = append(os.Environ(), "PRESAGE_HUGE_HEAP_CHILD="+strconv.Itoa(mb))
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("child: %v\n%s", err, out)
		}
		_, count, found := strings.Cut(string(out), "faults ")
		var n int64
		if _, err := fmt.Sscanf(count, "%d", &n); !found || err != nil {
			t.Fatalf("child's output %q: no count of faults (%v)", out, err)
		}
		return n
	}
	without, with := faults(0), faults(256)
	t.Logf("page faults allocating 64 MB: %d in 4 KB pages, %d in huge pages", without, with)
	if without < 4000 {
		t.Fatalf("in 4 KB pages the allocations took %d page faults, expected a fault per page they first touched (the test measures nothing)", without)
	}
	if with > without/4 {
		t.Errorf("in huge pages the allocations took %d page faults, more than a quarter of the %d in 4 KB pages", with, without)
	}
}

// TestHugeHeapChild is TestHugeHeapFaultsLess's fresh process.
func TestHugeHeapChild(t *testing.T) {
	mb, err := strconv.Atoi(os.Getenv("PRESAGE_HUGE_HEAP_CHILD"))
	if err != nil {
		t.Skip("run by TestHugeHeapFaultsLess")
	}
	hugeHeap(mb)
	var ru0, ru1 syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru0)
	var keep [][]byte
	for range 32 {
		v := make([]byte, 2<<20)
		for i := 0; i < len(v); i += 4096 {
			v[i] = 1
		}
		keep = append(keep, v)
		if len(keep) > 4 { // a few values alive at once
			keep = keep[1:]
		}
	}
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru1)
	fmt.Printf("faults %d\n", ru1.Minflt-ru0.Minflt)
}
