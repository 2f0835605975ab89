package store_test

import (
	"bytes"
	"context"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"
	"github.com/klauspost/compress/zstd"

	"github.com/presage-dvm/presage/ingest/ordergen"
	"github.com/presage-dvm/presage/orders/ordersched"
	"github.com/presage-dvm/presage/schema"
	"github.com/presage-dvm/presage/schema/store"
	"github.com/presage-dvm/presage/sim/machine"
	"github.com/presage-dvm/presage/sim/ordersim"
	"github.com/presage-dvm/presage/sim/ordertrace"
	"github.com/presage-dvm/presage/sim/workspan"
)

// TestLegacyOrderTracesPacked: a store made by a build of schema 13, whose
// order traces are chunks of JSON lines, is packed once when this build
// opens it (migration 24's step): every chunk packed and numbered from 0,
// the names and counts stored, the packing column gone; and the trace
// predicts, on every scheduler and on clusters whose messages cost, bit
// for bit what its file predicts, which is what the JSON lines predicted
// (the one reader of the format read them).
func TestLegacyOrderTracesPacked(t *testing.T) {
	ctx := context.Background()
	traces := map[string]ordergen.Options{
		"dac":    {Shape: ordergen.DivideAndConquer, Depth: 8, Leaf: 1e-3, Split: 1e-4, Combine: 2e-4, Jitter: 0.3, ArgBytes: 4096, ResultBytes: 2048, Seed: 3},
		"master": {Shape: ordergen.MasterWorker, Workers: 8, Rounds: 30, Leaf: 1e-3, Feed: 1e-5, Combine: 1e-4, Jitter: 0.3, ResultBytes: 512, Seed: 7},
	}
	path := filepath.Join(t.TempDir(), "old.db")
	files := map[string][]byte{}
	db, err := sqlx.Open("sqlite", "file:"+path+"?_pragma=foreign_keys(1)")
	if err != nil {
		t.Fatal(err)
	}
	if err := schema.MigrateTo(db, 13); err != nil {
		t.Fatal(err)
	}
	for name, gen := range traces {
		var text bytes.Buffer
		if err := ordergen.Generate(&text, gen); err != nil {
			t.Fatal(err)
		}
		files[name] = text.Bytes()
		storeLegacyOrderTrace(t, db, name, text.Bytes())
	}
	db.Close()

	st, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	infos, err := st.OrderTraces()
	if err != nil || len(infos) != len(traces) {
		t.Fatalf("%d order traces after the migration (%v), want %d", len(infos), err, len(traces))
	}
	raw, err := sqlx.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	var packing int
	if err := raw.Get(&packing, `SELECT count(*) FROM pragma_table_info('order_traces') WHERE name = 'packing'`); err != nil || packing != 0 {
		t.Errorf("order_traces.packing: %d columns (%v), want it dropped", packing, err)
	}
	for _, info := range infos {
		file := files[info.Name]
		fromFile := func() (ordertrace.Source, error) { return ordertrace.NewReader(bytes.NewReader(file), info.Name) }
		var chunks []int
		if err := raw.Select(&chunks, `SELECT chunk FROM order_trace_chunks WHERE trace_id = ? ORDER BY chunk`, info.ID); err != nil {
			t.Fatal(err)
		}
		for i, c := range chunks {
			if c != i {
				t.Fatalf("%s: chunks %v, want 0, 1, … in turn", info.Name, chunks)
			}
		}
		counts, err := st.OrderTraceCounts(ctx, info)
		if err != nil || counts.Orders() != info.Orders {
			t.Fatalf("%s: counts of %v orders (%v), want %d", info.Name, counts, err, info.Orders)
		}
		loaded, err := st.LoadOrderTrace(ctx, info)
		if err != nil {
			t.Fatal(err)
		}
		stored := func() (ordertrace.Source, error) { return st.OpenOrderTrace(ctx, info, true) }
		all, err := ordertrace.ReadAll(mustOpen(t, stored))
		if err != nil {
			t.Fatal(err)
		}
		want, err := ordertrace.ReadAll(mustOpen(t, fromFile))
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(all, want) {
			t.Errorf("%s: the packed orders, segments included, differ from the file's", info.Name)
		}
		fileTrace, err := ordersim.Prepare(fromFile)
		if err != nil {
			t.Fatal(err)
		}
		storedTrace, err := ordersim.Counted(func() (ordertrace.Source, error) { return loaded.Open(), nil }, counts)
		if err != nil {
			t.Fatal(err)
		}
		for _, cl := range []ordersim.Cluster{{Nodes: 1}, {Nodes: 5, Cores: 2, Latency: 1e-5, Bandwidth: 1e8}, {Nodes: 3, Latency: 2e-4, Hub: true}} {
			net := machine.Cluster(cl).Link()
			wsFile, err := workspan.Analyze(mustOpen(t, fromFile), net)
			if err != nil {
				t.Fatal(err)
			}
			wsStored, err := workspan.AnalyzeCounted(mustOpen(t, stored), net, counts)
			if err != nil || wsStored != wsFile {
				t.Errorf("%s on %+v: work and span %+v (%v), want the file's %+v", info.Name, cl, wsStored, err, wsFile)
			}
			for _, sched := range ordersched.All {
				opt := ordersim.Options{Scheduler: sched, ByProc: true, Seed: 5}
				a, errA := fileTrace.Simulate(cl, opt)
				b, errB := storedTrace.Simulate(cl, opt)
				if errA != nil || errB != nil || !reflect.DeepEqual(a, b) {
					t.Errorf("%s, %s on %+v: the migrated trace predicts otherwise than its file (%v, %v)", info.Name, sched, cl, errA, errB)
				}
			}
		}
	}
}

// storeLegacyOrderTrace stores the order trace text (a header line, then
// the orders' lines) as a build of schema 13 stored it: its row, and its
// lines after the header zstd-compressed in chunks, here of 100 lines.
func storeLegacyOrderTrace(t *testing.T, db *sqlx.DB, name string, text []byte) {
	t.Helper()
	r, err := ordertrace.NewReader(bytes.NewReader(text), name)
	if err != nil {
		t.Fatal(err)
	}
	h := r.Header()
	ws, err := workspan.Analyze(r, workspan.Network{})
	if err != nil {
		t.Fatal(err)
	}
	res := db.MustExec(`INSERT INTO order_traces(name, path, sha256, bytes, program, unit, machine, orders, work, span, ingested_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, '2025-01-01T00:00:00Z')`,
		name, name+".jsonl", "sha-"+name, len(text), h.Program, h.Unit, h.Machine, ws.Orders, ws.Work, ws.Span)
	id, err := res.LastInsertId()
	if err != nil {
		t.Fatal(err)
	}
	enc, err := zstd.NewWriter(nil)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(text), "\n")[1:]
	for chunk := 0; len(lines) > 0; chunk++ {
		n := min(100, len(lines))
		data := enc.EncodeAll([]byte(strings.Join(lines[:n], "")), nil)
		db.MustExec(`INSERT INTO order_trace_chunks(trace_id, chunk, orders, data) VALUES (?, ?, ?, ?)`, id, chunk, n, data)
		lines = lines[n:]
	}
}

func mustOpen(t *testing.T, open func() (ordertrace.Source, error)) ordertrace.Source {
	t.Helper()
	src, err := open()
	if err != nil {
		t.Fatal(err)
	}
	return src
}
