package ingest_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/ingest"
	"github.com/presage-dvm/presage/ingest/ordergen"
	"github.com/presage-dvm/presage/internal/storetest"
	"github.com/presage-dvm/presage/orders/calibration"
	"github.com/presage-dvm/presage/orders/tracefile"
	"github.com/presage-dvm/presage/sim/ordertrace"
)

// writeOrders generates an order trace file in dir.
func writeOrders(t *testing.T, dir, name string, opt ordergen.Options) string {
	t.Helper()
	path := filepath.Join(dir, name)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := ordergen.Generate(f, opt); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestOrderTraceStoredAndStreamed: an ingested order trace records the
// generator's exact work and span, streams back order by order as
// written, and a second ingest of the same bytes writes nothing.
func TestOrderTraceStoredAndStreamed(t *testing.T) {
	ctx := context.Background()
	st := storetest.Open(t)
	opt := ordergen.Options{Shape: ordergen.DivideAndConquer, Depth: 15, // 65535 orders: four chunks, so that the fetching ahead reuses its memory
		Leaf: 1e-3, Split: 1e-4, Combine: 2e-4,
		ArgBytes: 64, ResultBytes: 64}
	path := writeOrders(t, t.TempDir(), "dac.jsonl", opt)
	info, err := ingest.OrderTrace(ctx, st, path)
	if err != nil {
		t.Fatal(err)
	}
	want, err := ordergen.Expect(opt, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if info.Name != "dac" || info.Orders != want.Orders || math.Abs(info.Work-want.Work) > 1e-9*want.Work ||
		math.Abs(info.Span-want.Span) > 1e-9*want.Span || info.Existing {
		t.Errorf("stored %+v, want %d orders, work %g, span %g", info, want.Orders, want.Work, want.Span)
	}
	again, err := ingest.OrderTrace(ctx, st, path)
	if err != nil || !again.Existing || again.ID != info.ID {
		t.Errorf("second ingest: %+v, %v; want the stored trace", again, err)
	}
	stored, err := st.OpenOrderTrace(ctx, info, true)
	if err != nil {
		t.Fatal(err)
	}
	sameOrders(t, path, stored, info.Orders, true)
	loaded, err := st.LoadOrderTrace(ctx, info)
	if err != nil {
		t.Fatal(err)
	}
	if len(loaded.Chunks) != 4 {
		t.Errorf("loaded %d chunks, want 4", len(loaded.Chunks))
	}
	sameOrders(t, path, loaded.Open(), info.Orders, false)
}

// TestOrderTraceDigest: a trace is stored with its file's SHA-256,
// computed beside the passes when no stored trace has the file's size and
// first otherwise; a copy under another name is found stored, and a file
// of the same size but other bytes is stored anew.
func TestOrderTraceDigest(t *testing.T) {
	ctx := context.Background()
	st := storetest.Open(t)
	dir := t.TempDir()
	path := writeOrders(t, dir, "tasks.jsonl", ordergen.Options{Shape: ordergen.MasterWorker, Workers: 10, Rounds: 3, Leaf: 1e-3})
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	other := strings.Replace(string(text), `"program":"master"`, `"program":"mister"`, 1)
	if other == string(text) {
		t.Fatal("the header names no program master")
	}
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	first, err := ingest.OrderTrace(ctx, st, path)
	if err != nil || first.Existing || first.SHA256 != sha256Hex(text) {
		t.Fatalf("first: %+v, %v; want a new trace with the file's SHA-256 %s", first, err, sha256Hex(text))
	}
	again, err := ingest.OrderTrace(ctx, st, write("copy.jsonl", string(text)))
	if err != nil || !again.Existing || again.ID != first.ID {
		t.Errorf("copy: %+v, %v; want trace %d, stored already", again, err, first.ID)
	}
	renamed, err := ingest.OrderTrace(ctx, st, write("other.jsonl", other))
	if err != nil || renamed.Existing || renamed.ID == first.ID || renamed.SHA256 != sha256Hex([]byte(other)) || renamed.Bytes != first.Bytes {
		t.Errorf("same size, other bytes: %+v, %v; want a new trace with its own SHA-256", renamed, err)
	}
}

func sha256Hex(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// sameOrders checks that got gives the orders of the file at path, with
// their segments or without.
func sameOrders(t *testing.T, path string, got ordertrace.Source, orders int64, segments bool) {
	t.Helper()
	file, err := ordertrace.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	for n := int64(0); ; n++ {
		a, errA := file.Next()
		b, errB := got.Next()
		if errA != nil || errB != nil {
			if errA != errB || n != orders {
				t.Fatalf("after %d orders: file %v, store %v", n, errA, errB)
			}
			return
		}
		if !segments {
			a.Segments = nil
		}
		if la, lb := string(tracefile.AppendOrder(nil, a)), string(tracefile.AppendOrder(nil, b)); la != lb {
			t.Fatalf("order %d: stored\n%s\nfile\n%s", a.ID, lb, la)
		}
	}
}

// TestOrderTraceBadInput: a defective trace is refused with its file and
// line, and the store keeps nothing of it.
func TestOrderTraceBadInput(t *testing.T) {
	ctx := context.Background()
	st := storetest.Open(t)
	dir := t.TempDir()
	good := writeOrders(t, dir, "good.jsonl", ordergen.Options{Shape: ordergen.Pipeline, Stages: 3, Items: 20, Leaf: 1e-3})
	text, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(text), "\n")
	for name, bad := range map[string]string{
		"cut.jsonl":    strings.Join(lines[:10], "") + lines[10][:len(lines[10])/2],
		"parent.jsonl": strings.Join(lines[:5], "") + strings.Replace(lines[5], `"parent":1`, `"parent":99`, 1) + strings.Join(lines[6:], ""),
	} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(bad), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := ingest.OrderTrace(ctx, st, path)
		if err == nil || !strings.Contains(err.Error(), path+":") {
			t.Errorf("%s: error %v, want one naming the file and line", name, err)
		}
		for _, table := range []string{"order_traces", "order_trace_chunks"} {
			if n := storetest.Count(t, st, table); n != 0 {
				t.Errorf("%s: %d rows of %s left", name, n, table)
			}
		}
	}
}

// TestCalibrationStored: rows and their per-block analysis are stored and
// read back in file order.
func TestCalibrationStored(t *testing.T) {
	ctx := context.Background()
	st := storetest.Open(t)
	path := filepath.Join(t.TempDir(), "cal.csv")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := calibration.NewWriter(f)
	var rows []calibration.Row
	for _, n := range []float64{64, 128, 256} {
		for rep := range 3 {
			r := calibration.Row{Block: "mul", Alpha: []float64{n}, F: n * n * n, Seconds: 2e-9 * n * n * n, Machine: "m", Rep: rep,
				Copies: 1 + rep%2, Wall: 2.5e-9 * n * n * n}
			rows = append(rows, r)
			if err := w.Write(r); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	info, err := ingest.Calibration(ctx, st, path)
	if err != nil {
		t.Fatal(err)
	}
	if info.Rows != 9 || storetest.Count(t, st, "calibration_blocks") != 1 {
		t.Errorf("stored %+v with %d blocks", info, storetest.Count(t, st, "calibration_blocks"))
	}
	_, got, err := st.Calibration("cal")
	if err != nil {
		t.Fatal(err)
	}
	for i := range rows {
		if got[i].F != rows[i].F || got[i].Seconds != rows[i].Seconds || got[i].Alpha[0] != rows[i].Alpha[0] || got[i].Rep != rows[i].Rep ||
			got[i].Copies != rows[i].Copies || got[i].Wall != rows[i].Wall {
			t.Errorf("row %d: %+v, want %+v", i, got[i], rows[i])
		}
	}
	if err := os.WriteFile(path+"2", []byte("block,alpha,f,seconds,machine,rep\nmul,64,0,1,m,0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ingest.Calibration(ctx, st, path+"2"); err == nil || !strings.Contains(err.Error(), ":2") {
		t.Errorf("f = 0: error %v, want one naming line 2", err)
	}
}
