// Package hostprobe measures what the host itself costs a program, for
// the model's terms that a micro-benchmark of the host prices rather
// than a fit (docs/compare.md, "The extended model"): the time the host
// takes to give a process a page of memory it never touched.
package hostprobe

import (
	"fmt"
	"slices"

	"github.com/presage-dvm/presage/sim/machine"
)

// probeBytes is how much fresh memory one probe touches: 64 MB, 16,384
// pages, enough that the time of the mapping and of the timer are lost in
// it, and more than the caches hold.
const probeBytes = 64 << 20

// probes is how many times FreshPage touches fresh memory: it reports
// the median, against a neighbour's burst on a shared host.
const probes = 5

// FreshPage is the host's fresh page time, seconds per page of
// machine.PageBytes: the median over probes of the time writing one byte
// of every page of probeBytes of fresh anonymous memory takes, in small
// pages (no transparent huge pages, as a program's malloc gets them), per
// page (machine.Machine.FreshPage).
func FreshPage() (float64, error) {
	times := make([]float64, 0, probes)
	for range probes {
		d, err := touchFresh(probeBytes)
		if err != nil {
			return 0, fmt.Errorf("measuring the host's fresh page time: %w", err)
		}
		times = append(times, d.Seconds()/float64(probeBytes/machine.PageBytes))
	}
	slices.Sort(times)
	return times[len(times)/2], nil
}

// touch writes one byte of every page of b: each write takes the page's
// fault.
func touch(b []byte) {
	for i := 0; i < len(b); i += machine.PageBytes {
		b[i] = 1
	}
}
