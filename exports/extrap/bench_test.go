package extrap_test

import (
	"context"
	"testing"

	"github.com/presage-dvm/presage/exports/extrap"
	"github.com/presage-dvm/presage/internal/fixture"
)

// BenchmarkWrite10M exports the interval values of the Large store.
func BenchmarkWrite10M(b *testing.B) {
	db := fixture.BenchStore(b)
	fixture.BenchExport(b, func(dir string) (int64, int64, error) {
		s, err := extrap.Write(context.Background(), db, dir, extrap.Options{})
		return s.Rows, s.Bytes, err
	})
}
