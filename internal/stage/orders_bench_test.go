package stage_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/presage-dvm/presage/ingest"
	"github.com/presage-dvm/presage/ingest/ordergen"
	"github.com/presage-dvm/presage/internal/stage"
	"github.com/presage-dvm/presage/internal/sweeptest"
	"github.com/presage-dvm/presage/orders/ordersched"
	"github.com/presage-dvm/presage/sim/ordersim"
)

// benchShapes are a million orders of every generated shape, as `presage
// gen orders --orders 1000000` writes them; with -short (CI's one run of
// every benchmark, which checks that each runs), 65,535 to 65,600.
func benchShapes() map[string]ordergen.Options {
	depth, items, rounds := 19, 250_000, 15_625
	if testing.Short() {
		depth, items, rounds = 15, 16_400, 1_025
	}
	return map[string]ordergen.Options{
		"dac":      {Shape: ordergen.DivideAndConquer, Depth: depth, Leaf: 1e-3, Combine: 1e-4, Jitter: 0.2, ArgBytes: 1024, ResultBytes: 1024, Seed: 1},
		"pipeline": {Shape: ordergen.Pipeline, Stages: 4, Items: items, Leaf: 1e-3, Combine: 1e-4, Jitter: 0.2, ArgBytes: 1024, ResultBytes: 1024, Seed: 1},
		"master":   {Shape: ordergen.MasterWorker, Workers: 64, Rounds: rounds, Leaf: 1e-3, Combine: 1e-4, Jitter: 0.2, ArgBytes: 1024, ResultBytes: 1024, Seed: 1},
	}
}

// BenchmarkIngestOrders measures `presage ingest orders` of a million
// orders of every shape, in orders per second.
func BenchmarkIngestOrders(b *testing.B) {
	for name, gen := range benchShapes() {
		b.Run(name, func(b *testing.B) {
			path := writeOrders(b, name, gen)
			for b.Loop() {
				b.StopTimer()
				st, _ := sweeptest.Store(b, "orders.db", nil, nil)
				b.StartTimer()
				if _, err := ingest.OrderTrace(context.Background(), st, path); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(gen.Count())*float64(b.N)/b.Elapsed().Seconds(), "orders/s")
		})
	}
}

// BenchmarkSimulateOrders measures `presage orders simulate` of a stored
// million-order trace of every shape on 64 and 1024 nodes, FIFO and work
// stealing, store included, in orders per second.
func BenchmarkSimulateOrders(b *testing.B) {
	for name, gen := range benchShapes() {
		st, _ := sweeptest.Store(b, "orders.db", nil, nil)
		if _, err := ingest.OrderTrace(context.Background(), st, writeOrders(b, name, gen)); err != nil {
			b.Fatal(err)
		}
		for _, nodes := range []int{64, 1024} {
			for _, sched := range []ordersim.Scheduler{ordersched.FIFO, ordersched.WorkStealing} {
				b.Run(name+"/"+string(sched)+"/"+strconv.Itoa(nodes), func(b *testing.B) {
					req := stage.OrdersRequest{Trace: name, Cluster: ordersim.Cluster{Nodes: nodes}, Options: ordersim.Options{Scheduler: sched}, MaxEvents: 100_000}
					for b.Loop() {
						if _, err := stage.SimulateOrders(context.Background(), st, req); err != nil {
							b.Fatal(err)
						}
					}
					b.ReportMetric(float64(gen.Count())*float64(b.N)/b.Elapsed().Seconds(), "orders/s")
				})
			}
		}
	}
}

// writeOrders writes the trace gen makes to name.jsonl, which ingest
// stores as name.
func writeOrders(b *testing.B, name string, gen ordergen.Options) string {
	path := filepath.Join(b.TempDir(), name+".jsonl")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	if err := ordergen.Generate(f, gen); err != nil {
		b.Fatal(err)
	}
	return path
}
