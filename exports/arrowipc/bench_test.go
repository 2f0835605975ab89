package arrowipc_test

import (
	"context"
	"testing"

	"github.com/presage-dvm/presage/exports/arrowipc"
	"github.com/presage-dvm/presage/exports/table"
	"github.com/presage-dvm/presage/internal/fixture"
)

// BenchmarkWriteValues10M exports the tidy table of the Large store
// (about 10 million rows).
func BenchmarkWriteValues10M(b *testing.B) { bench(b, []table.Table{table.Values}, false) }

// BenchmarkWriteValues10MZstd is the same with compressed record batches.
func BenchmarkWriteValues10MZstd(b *testing.B) { bench(b, []table.Table{table.Values}, true) }

// BenchmarkWriteAll10M exports every table of the Large store.
func BenchmarkWriteAll10M(b *testing.B) { bench(b, nil, false) }

func bench(b *testing.B, tables []table.Table, zstd bool) {
	db := fixture.BenchStore(b)
	fixture.BenchExport(b, func(dir string) (int64, int64, error) {
		s, err := arrowipc.Write(context.Background(), db, dir, arrowipc.Options{Tables: tables, Zstd: zstd})
		return s.Rows, s.Bytes, err
	})
}
