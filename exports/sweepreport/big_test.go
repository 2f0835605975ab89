package sweepreport

import (
	"bytes"
	"fmt"
	"math"
	"testing"

	"github.com/presage-dvm/presage/exports/internal/htmltest"
	"github.com/presage-dvm/presage/schema/stored"
	"github.com/presage-dvm/presage/sim/result"
)

// bigSweep is a large sweep in shape: every grid of rank 1 or 2 of
// 1..maxProcs processors, start-up times 1, 10 and 100 µs, and the three
// networks (74,574 configurations for 1024 processors with the demo's
// 1-D grids counted twice, as p and px1). Its times follow a simple
// model in which long, thin grids communicate more.
func bigSweep(maxProcs int) *Input {
	rep := &stored.SweepReport{Sweep: stored.Sweep{ID: 1, Command: "presage sweep --procs 1..1024 --tstart 1,10,100 --network cluster,bus,mesh"}, Trace: "jac"}
	id := int64(0)
	for _, network := range []string{"cluster", "bus", "mesh"} {
		for _, tstart := range []float64{1e-6, 1e-5, 1e-4} {
			for p := 1; p <= maxProcs; p++ {
				grids := []string{fmt.Sprint(p)}
				for a := 1; a <= p; a++ {
					if p%a == 0 {
						grids = append(grids, fmt.Sprintf("%dx%d", a, p/a))
					}
				}
				for _, g := range grids {
					id++
					var a, b int
					if _, err := fmt.Sscanf(g, "%dx%d", &a, &b); err != nil {
						a, b = p, 1
					}
					comm := tstart * 1e3 * float64(max(a, b)) / math.Sqrt(float64(p))
					if network == "bus" {
						comm *= 2
					}
					tm := 10/float64(p) + comm
					rep.Configs = append(rep.Configs, stored.SweepConfig{RunID: id, Program: "jac", Grid: g, Procs: p,
						Network: network, TStart: tstart, Time: tm,
						Efficiency: stored.Null[float64]{V: 10 / (tm * float64(p)), Valid: true}})
				}
			}
		}
	}
	run := &result.Run{ID: 1, Intervals: []*result.Interval{{ID: 1, Type: result.Main, Line: 1, File: "jac.fdv"}}}
	return &Input{Sweep: rep, Run: run}
}

// TestBigSweepStaysSmall renders a sweep of 74,574 configurations: the page
// stays under 2 MB, each quantity has one chart per network with one line
// per start-up time, and no chart has more than maxSeries lines.
func TestBigSweepStaysSmall(t *testing.T) {
	in := bigSweep(1024)
	var b bytes.Buffer
	if err := Write(&b, in, Options{}); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d configurations: %d bytes", len(in.Sweep.Configs), b.Len())
	if len(in.Sweep.Configs) < 70000 {
		t.Fatalf("%d configurations, want about 74,574", len(in.Sweep.Configs))
	}
	if b.Len() > 2<<20 {
		t.Errorf("page of %d bytes, want at most 2 MiB", b.Len())
	}
	doc := htmltest.Parse(t, b.Bytes())
	charts := lineCharts(t, doc)
	if len(charts) != 9 {
		t.Errorf("%d line charts, want 9 (3 quantities x 3 networks)", len(charts))
	}
	for id, svg := range charts {
		lines := svg.All(htmltest.WithClass("line"))
		if len(lines) != 3 || len(lines) > maxSeries {
			t.Errorf("%s: %d lines, want 3 (one per start-up time)", id, len(lines))
		}
		for _, l := range lines {
			if n := len(l.All(htmltest.WithClass("mark"))); n > maxMarkers {
				t.Errorf("%s: series %s has %d markers, want at most %d", id, l.Attr["data-series"], n, maxMarkers)
			}
		}
	}
}

func BenchmarkWriteBigSweep(b *testing.B) {
	in := bigSweep(1024)
	var size int
	for b.Loop() {
		var buf bytes.Buffer
		if err := Write(&buf, in, Options{}); err != nil {
			b.Fatal(err)
		}
		size = buf.Len()
	}
	b.ReportMetric(float64(size), "bytes/page")
}
