package csvexport_test

import (
	"context"
	"testing"

	"github.com/presage-dvm/presage/exports/csvexport"
	"github.com/presage-dvm/presage/exports/table"
	"github.com/presage-dvm/presage/internal/fixture"
)

// BenchmarkWriteValues10M exports the tidy table of the Large store
// (about 10 million rows).
func BenchmarkWriteValues10M(b *testing.B) { bench(b, []table.Table{table.Values}) }

// BenchmarkWriteAll10M exports every table of the Large store.
func BenchmarkWriteAll10M(b *testing.B) { bench(b, nil) }

func bench(b *testing.B, tables []table.Table) {
	db := fixture.BenchStore(b)
	fixture.BenchExport(b, func(dir string) (int64, int64, error) {
		s, err := csvexport.Write(context.Background(), db, dir, csvexport.Options{Tables: tables})
		return s.Rows, s.Bytes, err
	})
}
