package orders

import (
	"context"
	"fmt"
	goruntime "runtime"
	"runtime/metrics"
	"testing"
	"time"
)

// The benchmarks of this file run one DAG of orders two ways, with the
// runtime (run mode) and with plain goroutines and channels, and report
// what the runtime costs above them (docs/orders-sim.md, "The runtime's
// own cost per order and per wait"):
//
//	go test ./orders -run '^$' -bench 'GoroutineCost|Speedup' -benchtime 5x
//
// The DAG: main makes n leaves, by batches of k, and gets each batch's
// results before making the next; a leaf spins for a fixed count of
// CPU-bound steps (its work). With plain goroutines a leaf is a
// goroutine sending its result on a channel of its own, and main
// receives them in the same order. Both run on as many threads as
// workers (GOMAXPROCS): Go's scheduler is the goroutines' pool, and the
// runtime's Workers as many, so that neither has an idle thread the
// other has not (an idle thread spins a while each time a goroutine is
// woken, which counts in the process's CPU time).

// spinSteps is how many steps of spin take a microsecond here, measured
// once per process (spinRate).
var spinSteps float64

// spin does n steps of xorshift, CPU-bound work the compiler cannot drop.
func spin(n int) uint64 {
	x := uint64(n) | 1
	for range n {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
	}
	return x
}

// spinRate measures spinSteps: the fastest of a few runs of a million
// steps, for the fastest is the one the other programs slowed least.
func spinRate() float64 {
	if spinSteps == 0 {
		best := time.Duration(1 << 62)
		for range 7 {
			start := time.Now()
			spinSink = spin(1_000_000)
			best = min(best, time.Since(start))
		}
		spinSteps = 1e6 / (float64(best.Nanoseconds()) / 1e3)
	}
	return spinSteps
}

//lint:ignore U1000 written only: spin's result must go somewhere
var spinSink uint64

var (
	leaf  = Proc("bench.leaf", func(_ *Ctx, steps int) (uint64, error) { return spin(steps), nil })
	batch = Proc3("bench.batches", func(c *Ctx, n, k, steps int) (uint64, error) {
		var sum uint64
		hs := make([]*Handle[uint64], 0, k)
		for made := 0; made < n; {
			hs = hs[:0]
			for ; len(hs) < k && made < n; made++ {
				hs = append(hs, Make(c, leaf, steps))
			}
			for _, h := range hs {
				x, err := h.Get(c)
				if err != nil {
					return 0, err
				}
				sum += x
			}
		}
		return sum, nil
	})
)

// plainBatches is the DAG of batch with a goroutine per leaf.
func plainBatches(n, k, steps int) uint64 {
	var sum uint64
	chs := make([]chan uint64, 0, k)
	for made := 0; made < n; {
		chs = chs[:0]
		for ; len(chs) < k && made < n; made++ {
			ch := make(chan uint64, 1)
			go func() { ch <- spin(steps) }()
			chs = append(chs, ch)
		}
		for _, ch := range chs {
			sum += <-ch
		}
	}
	return sum
}

// dag is one shape of the DAG: n leaves of steps each, by batches of k.
type dag struct{ n, k, steps int }

// plain runs d with goroutines on workers threads; it returns the wall
// and the CPU time (user and system, every thread of the process).
func (d dag) plain(workers int) (wall, cpu time.Duration) {
	defer goruntime.GOMAXPROCS(goruntime.GOMAXPROCS(workers))
	goruntime.GC()
	c0, start := cpuSoFar(), time.Now()
	spinSink = plainBatches(d.n, d.k, d.steps)
	return time.Since(start), cpuSoFar() - c0
}

// orders runs d as orders on workers workers and procs threads
// (GOMAXPROCS; 0 keeps the process's).
func (d dag) orders(b *testing.B, workers, procs int) (wall, cpu time.Duration) {
	defer goruntime.GOMAXPROCS(goruntime.GOMAXPROCS(procs))
	goruntime.GC()
	c0, start := cpuSoFar(), time.Now()
	_, _, err := Run(context.Background(), Config{Workers: workers}, Call3(batch, d.n, d.k, d.steps))
	wall, cpu = time.Since(start), cpuSoFar()-c0
	if err != nil {
		b.Fatal(err)
	}
	return wall, cpu
}

// cpuSoFar is the process's CPU time so far, user and system.
func cpuSoFar() time.Duration {
	d, _ := processCPU()
	return d
}

// BenchmarkGoroutineCost runs the DAG with plain goroutines and with the
// runtime, interleaved in every iteration, and reports each one's wall
// and CPU time per order and the runtime's overhead per order above the
// goroutines, in wall and in CPU time (medians over the iterations), in
// µs. On a machine other programs load, the CPU time is the figure: the
// wall time counts their turns on the cores. The leaves are empty
// (the cost alone) or of 5 µs; batches of 16 (main waits once per batch)
// or all at once (main makes every leaf first).
func BenchmarkGoroutineCost(b *testing.B) {
	steps5 := int(5 * spinRate())
	for _, d := range []struct {
		name string
		dag
	}{
		{"empty/batch16", dag{8192, 16, 0}},
		{"empty/fan", dag{8192, 8192, 0}},
		{"5us/batch16", dag{8192, 16, steps5}},
		{"5us/fan", dag{65536, 65536, steps5}},
	} {
		for _, workers := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/workers=%d", d.name, workers), func(b *testing.B) {
				var plainWall, ordersWall, plainCPU, ordersCPU, over, overCPU []float64
				per := func(t time.Duration) float64 { return t.Seconds() * 1e6 / float64(d.n) }
				for b.Loop() {
					pw, pc := d.plain(workers)
					ow, oc := d.orders(b, workers, workers)
					plainWall, plainCPU = append(plainWall, per(pw)), append(plainCPU, per(pc))
					ordersWall, ordersCPU = append(ordersWall, per(ow)), append(ordersCPU, per(oc))
					over, overCPU = append(over, per(ow)-per(pw)), append(overCPU, per(oc)-per(pc))
				}
				b.ReportMetric(median(plainWall), "plain-µs/order")
				b.ReportMetric(median(ordersWall), "orders-µs/order")
				b.ReportMetric(median(over), "overhead-µs/order")
				b.ReportMetric(median(plainCPU), "plain-cpu-µs/order")
				b.ReportMetric(median(ordersCPU), "orders-cpu-µs/order")
				b.ReportMetric(median(overCPU), "overhead-cpu-µs/order")
			})
		}
	}
}

// BenchmarkSpeedup runs 65,536 leaves of 5 µs on one and on two
// workers, interleaved, with plain goroutines and with the runtime, and
// reports the median speedups (wall time on one over wall time on two):
// each on as many threads as workers, and the runtime on the process's
// threads both times (GOMAXPROCS kept, as a program runs with
// -orders.workers 1 and 2). Beside them, the time the Go runtime's Ps
// were idle per order in the runtime's run on two workers and two
// threads (its own count, runtime/metrics): what the wall time on two
// loses to waiting inside the process, which other programs' load does
// not move as it moves the speedups.
func BenchmarkSpeedup(b *testing.B) {
	d := dag{65536, 65536, int(5 * spinRate())}
	var orders, kept, plain, idle []float64
	for b.Loop() {
		o1, _ := d.orders(b, 1, 1)
		k1, _ := d.orders(b, 1, 0)
		p1, _ := d.plain(1)
		i0 := idleTime()
		o2, _ := d.orders(b, 2, 2)
		idle = append(idle, (idleTime()-i0).Seconds()*1e6/float64(d.n))
		k2, _ := d.orders(b, 2, 0)
		p2, _ := d.plain(2)
		orders = append(orders, o1.Seconds()/o2.Seconds())
		kept = append(kept, k1.Seconds()/k2.Seconds())
		plain = append(plain, p1.Seconds()/p2.Seconds())
	}
	b.ReportMetric(median(orders), "orders-speedup")
	b.ReportMetric(median(kept), "orders-gomaxprocs-speedup")
	b.ReportMetric(median(plain), "plain-speedup")
	b.ReportMetric(median(idle), "orders-idle-µs/order")
}

// idleTime is the time the Go runtime's Ps have been idle so far, after a
// collection: the runtime updates its CPU classes at the end of each.
func idleTime() time.Duration {
	goruntime.GC()
	s := []metrics.Sample{{Name: "/cpu/classes/idle:cpu-seconds"}}
	metrics.Read(s)
	return time.Duration(s[0].Value.Float64() * 1e9)
}

// reverse is the DAG of batch got last first: the maker waits once per
// batch, for its last order, when every earlier one has run.
var reverse = Proc2("bench.reverse", func(c *Ctx, n, k int) (uint64, error) {
	var sum uint64
	hs := make([]*Handle[uint64], 0, k)
	for made := 0; made < n; {
		hs = hs[:0]
		for ; len(hs) < k && made < n; made++ {
			hs = append(hs, Make(c, leaf, 0))
		}
		for j := len(hs) - 1; j >= 0; j-- {
			x, err := hs[j].Get(c)
			if err != nil {
				return 0, err
			}
			sum += x
		}
	}
	return sum, nil
})

// runOne returns the wall time of prog on one worker, the process's
// GOMAXPROCS kept and no collection forced first, as calibrate mode
// times the runtime.
func runOne[R any](b *testing.B, prog Program[R]) time.Duration {
	start := time.Now()
	if _, _, err := Run(context.Background(), Config{Workers: 1}, prog); err != nil {
		b.Fatal(err)
	}
	return time.Since(start)
}

// BenchmarkRuntimeCosts measures run mode's cost per order and per wait
// on one worker, the prices calibrate mode gives OrderBlock and
// WaitBlock, and beside them calibrate mode's own timing (timeRuntime),
// in the same iterations, medians in µs, and the median of each
// iteration's ratio of the two (ratios). The benchmark's way: 65,536
// empty orders by batches of 16, got last first (the maker waits once
// per batch: n orders and n/16 waits) and first first (it waits for
// each: n orders and n waits, for the maker resumes ahead of the batch's
// next order), each timed whole from outside Run. Both on one worker
// with the process's GOMAXPROCS, as a program runs.
func BenchmarkRuntimeCosts(b *testing.B) {
	const n, k = 65536, 16
	var order, wait, calOrder, calWait []float64
	for b.Loop() {
		few := runOne(b, Call2(reverse, n, k)).Seconds() * 1e6 / n
		each := runOne(b, Call3(batch, n, k, 0)).Seconds() * 1e6 / n
		w := (each - few) / (1 - 1.0/k)
		order, wait = append(order, few-w/k), append(wait, w)
		o, ws, err := timeRuntime(context.Background(), 1)
		if err != nil {
			b.Fatal(err)
		}
		calOrder, calWait = append(calOrder, o[0]*1e6), append(calWait, ws[0]*1e6)
	}
	b.ReportMetric(median(order), "order-µs")
	b.ReportMetric(median(wait), "wait-µs")
	b.ReportMetric(median(calOrder), "calibrated-order-µs")
	b.ReportMetric(median(calWait), "calibrated-wait-µs")
	b.ReportMetric(median(ratios(calOrder, order)), "calibrated/order")
	b.ReportMetric(median(ratios(calWait, wait)), "calibrated/wait")
}

// ratios are a[i]/b[i]: a benchmark's figures paired within each
// iteration, where the host's speed, which drifts from one second to the
// next (docs/performance.md, "The host's drift"), is the same for both.
func ratios(a, b []float64) []float64 {
	out := make([]float64, len(a))
	for i := range a {
		out[i] = a[i] / b[i]
	}
	return out
}
