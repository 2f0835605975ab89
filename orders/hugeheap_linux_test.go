package orders

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	goruntime "runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/presage-dvm/presage/orders/calibration"
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
	faults := func(mb int) int64 { return childFaults(t, "TestHugeHeapChild", "PRESAGE_HUGE_HEAP_CHILD", mb) }
	without, with := faults(0), faults(256)
	t.Logf("page faults allocating 64 MB: %d in 4 KB pages, %d in huge pages", without, with)
	if without < 4000 {
		t.Fatalf("in 4 KB pages the allocations took %d page faults, expected a fault per page they first touched (the test measures nothing)", without)
	}
	if with > without/4 {
		t.Errorf("in huge pages the allocations took %d page faults, more than a quarter of the %d in 4 KB pages", with, without)
	}
}

// childFaults runs the test named test in a fresh process, with the
// environment variable env set to value, and returns the page faults it
// prints ("faults N").
func childFaults(t *testing.T, test, env string, value int) int64 {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+test+"$")
	cmd.Env = append(os.Environ(), env+"="+strconv.Itoa(value))
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

// minorFaults returns the page faults the process has taken so far.
func minorFaults() int64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Minflt
}

// TestHugeHeapAfterFrees asks for the huge heap, in fresh processes, after
// 16 MB of the heap have been used and freed, as a program's own values
// are before its run in worker processes, and counts the page faults
// that asking takes: a few hundred, not one per 4 KB of the gigabyte
// (one allocation of it was zeroed whole in 3 processes of 4 here,
// 258,000 faults in 4 s).
func TestHugeHeapAfterFrees(t *testing.T) {
	if !hugePages(readTHP()) {
		t.Skip("no transparent huge pages on this system: hugeHeap does nothing")
	}
	if raceEnabled {
		t.Skip("the race detector's shadow memory faults in pages of its own")
	}
	for range 3 {
		if n := childFaults(t, "TestHugeHeapAfterFreesChild", "PRESAGE_HUGE_HEAP_FREED", 16); n > 16384 {
			t.Errorf("asking for 1 GB of huge heap after 16 MB freed took %d page faults, more than 64 MB in 4 KB pages", n)
		}
	}
}

// TestHugeHeapAfterFreesChild is TestHugeHeapAfterFrees's fresh process.
func TestHugeHeapAfterFreesChild(t *testing.T) {
	mb, err := strconv.Atoi(os.Getenv("PRESAGE_HUGE_HEAP_FREED"))
	if err != nil {
		t.Skip("run by TestHugeHeapAfterFrees")
	}
	b := make([]byte, mb<<20)
	for i := 0; i < len(b); i += 4096 {
		b[i] = 1
	}
	b = nil
	goruntime.GC()
	before := minorFaults()
	hugeHeap(1024)
	fmt.Printf("faults %d\n", minorFaults()-before)
}

// TestHugeHeapChild is TestHugeHeapFaultsLess's fresh process.
func TestHugeHeapChild(t *testing.T) {
	mb, err := strconv.Atoi(os.Getenv("PRESAGE_HUGE_HEAP_CHILD"))
	if err != nil {
		t.Skip("run by TestHugeHeapFaultsLess")
	}
	hugeHeap(mb)
	before := minorFaults()
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
	fmt.Printf("faults %d\n", minorFaults()-before)
}

// quarters sums its numbers by orders of a quarter of them each, down to
// half a million numbers: arguments of megabytes that a recording with
// Config.Codec encodes and decodes.
var quarters = Recursive("hugeheap.quarters", func(self *Procedure1[[]float64, float64], c *Ctx, xs []float64) (float64, error) {
	if len(xs) <= 1<<19 {
		var s float64
		for _, x := range xs {
			s += x
		}
		return s, nil
	}
	q := len(xs) / 4
	var hs []*Handle[float64]
	for i := range 4 {
		hs = append(hs, Make(c, self, xs[i*q:(i+1)*q]))
	}
	var s float64
	for _, h := range hs {
		v, err := h.Get(c)
		if err != nil {
			return 0, err
		}
		s += v
	}
	return s, nil
})

// TestCodecRecordingInHugePages records, in a fresh process each, a
// program whose orders pass 16 MB of arguments, with Config.Codec, without
// and with huge pages (Config.HugePages -1 and its default), and counts
// the page faults of the recording: recorded for worker processes, its
// encodings and decodings land in the heap they have, in huge pages,
// and the trace's times hold the faults that the workers take, not four
// kilobytes' (sort at n = 250,000: main's own time 51 ms in 4 KB pages,
// 11 ms in huge pages, where a worker's run of it took 12 ms).
func TestCodecRecordingInHugePages(t *testing.T) {
	if !hugePages(readTHP()) {
		t.Skip("no transparent huge pages on this system: hugeHeap does nothing")
	}
	if raceEnabled {
		t.Skip("the race detector's shadow memory faults in pages of its own")
	}
	faults := func(hugePages int) int64 {
		return childFaults(t, "TestCodecRecordingChild", "PRESAGE_CODEC_RECORDING_CHILD", hugePages)
	}
	without, with := faults(-1), faults(0)
	t.Logf("page faults recording 16 MB of arguments: %d in 4 KB pages, %d in huge pages", without, with)
	if without < 8000 {
		t.Fatalf("in 4 KB pages the recording took %d page faults, expected one per page of its encodings at least (the test measures nothing)", without)
	}
	if with > without/4 {
		t.Errorf("in huge pages the recording took %d page faults, more than a quarter of the %d in 4 KB pages", with, without)
	}
}

// TestCodecRecordingChild is TestCodecRecordingInHugePages's fresh process.
func TestCodecRecordingChild(t *testing.T) {
	hugePages, err := strconv.Atoi(os.Getenv("PRESAGE_CODEC_RECORDING_CHILD"))
	if err != nil {
		t.Skip("run by TestCodecRecordingInHugePages")
	}
	xs := make([]float64, 2<<20) // 16 MB, touched before the count
	for i := range xs {
		xs[i] = float64(i)
	}
	before := minorFaults()
	cfg := Config{Mode: ModeRecord, Codec: true, HugePages: hugePages, Constants: calibration.Constants{}, Machine: "m", Output: io.Discard}
	if _, _, err := Main(cfg, quarters, xs); err != nil {
		t.Fatal(err)
	}
	fmt.Printf("faults %d\n", minorFaults()-before)
}
