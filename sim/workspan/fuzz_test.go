package workspan

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/sim/ordertrace"
)

// FuzzAnalyze runs the analysis on every trace the Reader accepts: it
// must not panic, and it must agree with the fixed-point evaluation.
func FuzzAnalyze(f *testing.F) {
	const h = `{"format":"presage-orders","version":1,"unit":"s"}` + "\n"
	f.Add(h + strings.Join(sortTrace, "\n") + "\n")
	f.Add(h + order(1, 0, 0, 2, `"requests":[{"order":2,"at":1}],"results":[`+res(2, 0)+`]`) + "\n" +
		order(2, 1, 0, 1, `"requests":[{"order":1,"at":0}],"results":[`+res(1, 0)+`]`) + "\n")
	f.Fuzz(func(t *testing.T, text string) {
		r, err := ordertrace.NewReader(strings.NewReader(text), "fuzz.jsonl")
		if err != nil {
			return
		}
		var orders []*ordertrace.Order
		for {
			o, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				return
			}
			orders = append(orders, o)
		}
		compareWithFixedPoint(t, orders, Network{Latency: 0.5, Bandwidth: 4})
	})
}

// compareWithFixedPoint fails t unless Analyze and the fixed point agree
// on orders: both deadlock, or both give the same spans; and unless
// AnalyzeCounted agrees with Analyze.
func compareWithFixedPoint(t *testing.T, orders []*ordertrace.Order, net Network) (deadlock bool) {
	t.Helper()
	got, err := Analyze(&slice{orders: orders}, net)
	compareCounted(t, orders, net, got, err)
	span, ok := fixedPoint(orders, func(int64) float64 { return 0 })
	burdened, _ := fixedPoint(orders, net.MessageTime)
	var d *DeadlockError
	switch {
	case !ok:
		if !errors.As(err, &d) {
			t.Fatalf("the fixed point deadlocks, Analyze says %v", err)
		}
	case err != nil:
		t.Fatalf("%v; the fixed point finishes with span %v", err, span)
	case !near(got.Span, span) || !near(got.BurdenedSpan, burdened):
		t.Fatalf("span %v burdened %v, the fixed point %v and %v", got.Span, got.BurdenedSpan, span, burdened)
	}
	return !ok
}

// FuzzRandomTraces compares the analysis with the fixed point on random
// traces grown from the fuzzer's seeds, which reach far more valid traces
// than mutated text does.
func FuzzRandomTraces(f *testing.F) {
	f.Add(uint64(1), uint64(2), uint8(10))
	f.Fuzz(func(t *testing.T, s1, s2 uint64, n uint8) {
		orders := randomTrace(rand.New(rand.NewPCG(s1, s2)), 1+int(n%64))
		compareWithFixedPoint(t, orders, Network{Latency: 0.5, Bandwidth: 4})
	})
}

// compareCounted fails t unless AnalyzeCounted, given the counts of
// orders, returns what Analyze did: the same summary, bit for bit, or the
// same error.
func compareCounted(t *testing.T, orders []*ordertrace.Order, net Network, want Summary, wantErr error) {
	t.Helper()
	got, err := AnalyzeCounted(&slice{orders: orders}, net, countsOf(t, orders))
	if fmt.Sprint(err) != fmt.Sprint(wantErr) || got != want {
		t.Fatalf("counted: %+v, %v; uncounted: %+v, %v", got, err, want, wantErr)
	}
}
