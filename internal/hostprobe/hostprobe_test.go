package hostprobe

import (
	"runtime"
	"testing"

	"github.com/presage-dvm/presage/sim/machine"
)

// TestFreshPage: on Linux the host's fresh page time is measured, a
// positive time within the model's range; elsewhere it is refused.
func TestFreshPage(t *testing.T) {
	got, err := FreshPage()
	if runtime.GOOS != "linux" {
		if err == nil {
			t.Errorf("FreshPage on %s = %g, want an error: it is measured on Linux only", runtime.GOOS, got)
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	if got <= 0 || !machine.FreshPageRange.Contains(got) {
		t.Errorf("fresh page time %g s, want a positive time within %v", got, machine.FreshPageRange)
	}
	t.Logf("fresh page time %.3g µs", got*1e6)
}

// TestTouch: every page of a buffer is written, and nothing else.
func TestTouch(t *testing.T) {
	b := make([]byte, 3*machine.PageBytes+1)
	touch(b)
	for i, v := range b {
		want := byte(0)
		if i%machine.PageBytes == 0 {
			want = 1
		}
		if v != want {
			t.Fatalf("byte %d = %d, want %d", i, v, want)
		}
	}
}
