package table

import (
	"context"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/presage-dvm/presage/internal/fixture"
	"github.com/presage-dvm/presage/internal/storetest"
	"github.com/presage-dvm/presage/sim/result"
)

func TestStreamRejectsUnexpectedNull(t *testing.T) {
	st, _, _ := fixture.NewStore(t, fixture.Spec{Runs: 1, Intervals: 2, Procs: 1, Seed: 2})
	run := &result.Run{Kind: result.Measured, Program: "m", Config: result.Config{Grid: []int{2}},
		Intervals: []*result.Interval{{ID: 1, Type: result.Main, File: "a.f"}}}
	storetest.Save(t, st, run)
	strict := Table{Name: "strict", Columns: []Column{{Name: "machine", Kind: String}}, stream: Runs.stream}
	_, err := Stream(context.Background(), st, strict, 0, 10, func(arrow.RecordBatch) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "machine") {
		t.Fatalf("NULL machine in a non-nullable column: error %v, want one naming the column", err)
	}
}

func TestStreamRejectsUnknownColumn(t *testing.T) {
	st, _, _ := fixture.NewStore(t, fixture.Spec{Runs: 1, Intervals: 2, Procs: 1, Seed: 2})
	odd := Table{Name: "odd", Columns: []Column{{Name: "no_such_column", Kind: Int64}}, stream: Values.stream}
	_, err := Stream(context.Background(), st, odd, 0, 10, func(arrow.RecordBatch) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "no_such_column") {
		t.Fatalf("column without a source: error %v, want one naming it", err)
	}
}
