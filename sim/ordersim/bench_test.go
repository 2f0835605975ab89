package ordersim

import (
	"io"
	"runtime"
	"testing"
	"time"

	"github.com/presage-dvm/presage/orders/ordersched"
	"github.com/presage-dvm/presage/sim/ordertrace"
)

// BenchmarkSimulate reports the simulation's speed in orders per second
// (one goroutine) on a million-order divide and conquer, for every
// scheduler. Its peak-live of a million under FIFO is no leak: the level
// numbering makes FIFO unfold the whole tree before the first leaf runs
// (see the package doc, on what bounds memory). With -short (CI's one
// run of every benchmark, which checks that each runs) 65,535 orders.
func BenchmarkSimulate(b *testing.B) {
	depth := benchDepth()
	for _, s := range ordersched.All {
		b.Run(string(s), func(b *testing.B) {
			benchSim(b, openDAC(depth), dacOrders(depth), Cluster{Nodes: 64, Latency: 1e-3, Bandwidth: 1e9}, Options{Pin: true, Scheduler: s})
		})
	}
	b.Run("no-path", func(b *testing.B) {
		benchSim(b, openDAC(depth), dacOrders(depth), Cluster{Nodes: 64, Latency: 1e-3, Bandwidth: 1e9}, Options{Pin: true, NoCriticalPath: true})
	})
	// The sums by procedure, as the sweeps of internal/stage ask: a
	// float more by live order (its wait), not its schedule.
	b.Run("by-proc", func(b *testing.B) {
		benchSim(b, openDAC(depth), dacOrders(depth), Cluster{Nodes: 64, Latency: 1e-3, Bandwidth: 1e9}, Options{Pin: true, ByProc: true})
	})
	// The trace held in memory, read without cost: the simulation alone
	// (the engine never changes the orders it is handed).
	dac := collect(b, openDAC(depth))
	for _, sc := range []Scheduler{FIFO, WorkStealing} {
		b.Run(string(sc)+"-in-memory", func(b *testing.B) {
			benchSim(b, dac.open, dacOrders(depth), Cluster{Nodes: 64, Latency: 1e-3, Bandwidth: 1e9}, Options{Pin: true, Scheduler: sc})
		})
	}
	b.Run("master", func(b *testing.B) {
		rounds := benchRounds()
		benchSim(b, openMaster(100, rounds), int64(100*rounds+1), Cluster{Nodes: 64}, Options{Pin: true})
	})
}

// benchSim measures the simulations of a prepared trace: the counting
// pass is done once, and the simulations share one Workspace, as a
// sweep's do.
func benchSim(b *testing.B, open func() (ordertrace.Source, error), orders int64, cl Cluster, opt Options) {
	tr, err := Prepare(open)
	if err != nil {
		b.Fatal(err)
	}
	opt.Workspace = new(Workspace)
	b.ReportAllocs()
	var elapsed time.Duration
	for b.Loop() {
		start := time.Now()
		r, err := tr.Simulate(cl, opt)
		elapsed += time.Since(start)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(r.PeakLive), "peak-live")
		b.ReportMetric(float64(r.PeakBuffered), "peak-buffered")
		if r.Orders != orders {
			b.Fatalf("%d orders simulated, want %d", r.Orders, orders)
		}
	}
	b.ReportMetric(float64(orders)*float64(b.N)/elapsed.Seconds(), "orders/s")
}

// BenchmarkTenMillion simulates ten million orders — 10,000 rounds of
// 999 tasks — on 256 nodes, and reports the peak numbers of orders held
// and the peak heap, sampled every million orders. With -short, a
// million: 1,000 rounds.
func BenchmarkTenMillion(b *testing.B) {
	const tasks = 999
	rounds := 10_000
	if testing.Short() {
		rounds = 1_000
	}
	tr, err := Prepare(openRounds(tasks, rounds))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		var peakHeap uint64
		var ms runtime.MemStats
		opt := Options{Pin: true, OnOrder: func(r OrderResult) {
			if r.ID%1_000_000 == 0 {
				runtime.ReadMemStats(&ms)
				peakHeap = max(peakHeap, ms.HeapAlloc)
			}
		}}
		start := time.Now()
		r, err := tr.Simulate(Cluster{Nodes: 256, Latency: 1e-4, Bandwidth: 1e9}, opt)
		if err != nil {
			b.Fatal(err)
		}
		if r.Orders != roundsOrders(tasks, rounds) {
			b.Fatalf("%d orders simulated, want %d", r.Orders, roundsOrders(tasks, rounds))
		}
		b.ReportMetric(float64(r.Orders)/time.Since(start).Seconds(), "orders/s")
		b.ReportMetric(float64(r.PeakLive), "peak-live")
		b.ReportMetric(float64(r.PeakBuffered), "peak-buffered")
		b.ReportMetric(float64(peakHeap)/(1<<20), "peak-heap-MB")
		b.Logf("%d orders, makespan %.1f, peak live %d, buffered %d, heap %.1f MB (the counts of Prepare: %.1f MB)",
			r.Orders, r.Makespan, r.PeakLive, r.PeakBuffered, float64(peakHeap)/(1<<20), float64(2*r.Orders)/(1<<20))
	}
}

// BenchmarkSweep sizes a cluster for a million-order trace: every size
// from 1 to 1024 nodes for a master handing out rounds of 100 tasks
// (sizes from the 101 nodes it can use on reuse one run), and the powers
// of two up to 1024 for a divide and conquer whose parallelism exceeds
// them all. It uses both cores. With -short (CI's one run of every
// benchmark, which checks that each runs) the master's sizes go to 16,
// and the traces are BenchmarkSimulate's short ones.
func BenchmarkSweep(b *testing.B) {
	every := make([]int, 1024)
	if testing.Short() {
		every = every[:16]
	}
	for i := range every {
		every[i] = i + 1
	}
	powers := []int{1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024}
	for _, bc := range []struct {
		name  string
		open  func() (ordertrace.Source, error)
		sizes []int
	}{
		{"master-1..1024", openMaster(100, benchRounds()), every},
		{"dac-powers", openDAC(benchDepth()), powers},
	} {
		b.Run(bc.name, func(b *testing.B) {
			tr, err := Prepare(bc.open)
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				s, err := tr.Sizes(Cluster{Latency: 1e-4, Bandwidth: 1e9}, Options{Pin: true, NoCriticalPath: true})
				if err != nil {
					b.Fatal(err)
				}
				points := sweepSizes(b, s, bc.sizes, 2)
				simulated := 0
				for _, p := range points {
					if !p.Reused {
						simulated++
					}
				}
				b.ReportMetric(float64(simulated), "simulated")
				b.ReportMetric(points[len(points)-1].Result.Makespan, "makespan-at-max")
			}
		})
	}
}

// replay is a trace read once into memory and handed out again as it is.
type replay []*ordertrace.Order

func (r replay) open() (ordertrace.Source, error) { return &replaySource{orders: r}, nil }

type replaySource struct {
	orders replay
	next   int
}

func (s *replaySource) Next() (*ordertrace.Order, error) {
	if s.next == len(s.orders) {
		return nil, io.EOF
	}
	s.next++
	return s.orders[s.next-1], nil
}

// collect reads the trace open gives into memory.
func collect(b *testing.B, open func() (ordertrace.Source, error)) replay {
	src, err := open()
	if err != nil {
		b.Fatal(err)
	}
	out, err := ordertrace.ReadAll(src)
	if err != nil {
		b.Fatal(err)
	}
	return out
}

// benchDepth is the depth of the benchmarks' divide and conquer: 2^20 - 1
// orders, or 2^16 - 1 with -short.
func benchDepth() int {
	if testing.Short() {
		return 15
	}
	return 19
}

// benchRounds is the rounds of the benchmarks' master of 100 workers: a
// million orders, or 65,601 with -short.
func benchRounds() int {
	if testing.Short() {
		return 656
	}
	return 10_000
}
