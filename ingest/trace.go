package ingest

import (
	"context"
	"io"

	"github.com/presage-dvm/presage/ingest/ptr"
	"github.com/presage-dvm/presage/schema/store"
)

// TraceName is the name a trace file is stored under: its base name without
// a .gz and then a .ptr suffix.
func TraceName(path string) string { return storedName(path, ".gz", ".ptr") }

// Trace stores the trace file at path (plain or gzip) unless a file with
// the same bytes is stored already, in which case it returns that trace
// with Existing set and writes nothing. The trace is parsed and written in
// one transaction: on any error (a defective trace is a *ptr.Error)
// nothing is written. progress, if not nil, is called now and then with the
// bytes of the file read so far and the file's size, and once at the end.
func Trace(ctx context.Context, st *store.Store, path string, progress func(done, total int64)) (store.TraceInfo, error) {
	f, size, digest, err := openHashed(path, ptr.Sniff)
	if err != nil {
		return store.TraceInfo{}, err
	}
	defer f.Close()
	if info, found, err := st.TraceBySHA(ctx, digest); err != nil || found {
		return info, err
	}
	cr := &countingReader{r: f, total: size, progress: progress}
	r, err := ptr.NewReader(cr, path)
	if err != nil {
		return store.TraceInfo{}, err
	}
	info, err := st.SaveTrace(ctx, store.TraceInfo{Name: TraceName(path), Path: path, SHA256: digest}, r)
	if err != nil {
		return store.TraceInfo{}, err
	}
	cr.report(true)
	return info, nil
}

// countingReader counts the bytes read from the file for progress
// reports, made at most every reportEvery bytes.
type countingReader struct {
	r          io.Reader
	n, total   int64
	lastReport int64
	progress   func(done, total int64)
}

const reportEvery = 1 << 20

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	c.report(false)
	return n, err
}

func (c *countingReader) report(final bool) {
	if c.progress == nil || (!final && c.n-c.lastReport < reportEvery) {
		return
	}
	c.lastReport = c.n
	c.progress(c.n, c.total)
}
