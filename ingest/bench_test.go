package ingest_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/presage-dvm/presage/ingest"
	"github.com/presage-dvm/presage/internal/golden"
	"github.com/presage-dvm/presage/schema/store"
)

// benchTrace ingests the trace into a new store per iteration; MB/s are
// of the unpacked text.
func benchTrace(b *testing.B, name string) {
	path := golden.Path(b, "traces", name)
	var text int64
	for b.Loop() {
		st, err := store.Open(filepath.Join(b.TempDir(), "b.db"))
		if err != nil {
			b.Fatal(err)
		}
		info, err := ingest.Trace(context.Background(), st, path, nil)
		if err != nil {
			b.Fatal(err)
		}
		text = info.Bytes
		st.Close()
	}
	b.SetBytes(text)
}

func BenchmarkTraceX1000(b *testing.B)  { benchTrace(b, "jac1d_x1000.ptr.gz") }
func BenchmarkTraceX40000(b *testing.B) { benchTrace(b, "jac1d_x40000.ptr.gz") }
