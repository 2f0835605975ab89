package ordersim

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/presage-dvm/presage/orders/ordertrace"
)

// BenchmarkSimulate reports the simulation's speed in orders per second
// (one goroutine) on a million-order divide and conquer, for every
// scheduler.
func BenchmarkSimulate(b *testing.B) {
	const depth = 19 // 2^20 - 1 orders
	for _, s := range Schedulers {
		b.Run(string(s), func(b *testing.B) {
			benchSim(b, openDAC(depth), dacOrders(depth), Cluster{Nodes: 64, Latency: 1e-3, Bandwidth: 1e9}, Options{Scheduler: s})
		})
	}
	b.Run("no-path", func(b *testing.B) {
		benchSim(b, openDAC(depth), dacOrders(depth), Cluster{Nodes: 64, Latency: 1e-3, Bandwidth: 1e9}, Options{NoCriticalPath: true})
	})
	b.Run("master", func(b *testing.B) {
		benchSim(b, openMaster(100, 10000), 1_000_001, Cluster{Nodes: 64}, Options{})
	})
}

// benchSim measures the simulations of a prepared trace: the counting
// pass is done once, as Sweep does.
func benchSim(b *testing.B, open func() (ordertrace.Source, error), orders int64, cl Cluster, opt Options) {
	tr, err := Prepare(open)
	if err != nil {
		b.Fatal(err)
	}
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

// BenchmarkTenMillion simulates a 10-million-order divide and conquer on
// 64 nodes, work stealing, and reports the peak numbers of orders held
// and the peak heap, sampled every million orders.
func BenchmarkTenMillion(b *testing.B) {
	const depth = 22 // 2^23 - 1 = 8.4 M orders
	for b.Loop() {
		var peakHeap uint64
		var ms runtime.MemStats
		opt := Options{Scheduler: WorkStealing, OnOrder: func(r OrderResult) {
			if r.ID%1_000_000 == 0 {
				runtime.ReadMemStats(&ms)
				peakHeap = max(peakHeap, ms.HeapAlloc)
			}
		}}
		start := time.Now()
		r, err := Simulate(openDAC(depth), Cluster{Nodes: 64, Latency: 1e-4, Bandwidth: 1e9}, opt)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(r.Orders)/time.Since(start).Seconds(), "orders/s")
		b.ReportMetric(float64(r.PeakLive), "peak-live")
		b.ReportMetric(float64(r.PeakBuffered), "peak-buffered")
		b.ReportMetric(float64(peakHeap)/(1<<20), "peak-heap-MB")
		b.Log(fmt.Sprintf("%d orders, makespan %.1f, peak live %d, buffered %d, heap %.1f MB",
			r.Orders, r.Makespan, r.PeakLive, r.PeakBuffered, float64(peakHeap)/(1<<20)))
	}
}
