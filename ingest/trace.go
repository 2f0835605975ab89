package ingest

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/presage-dvm/presage/ingest/ptr"
	"github.com/presage-dvm/presage/schema/store"
	"github.com/presage-dvm/presage/sim"
	"github.com/presage-dvm/presage/sim/trace"
	"github.com/zeebo/xxh3"
)

// TraceName is the name a trace file is stored under: its base name without
// a .gz and then a .ptr suffix.
func TraceName(path string) string { return storedName(path, ".gz", ".ptr") }

// Trace stores the trace file at path (plain or gzip) unless a file with
// the same bytes is stored already, in which case it returns that trace
// with Existing set and writes nothing. The trace is parsed and packed in
// one pass and one transaction, each field's limits checked where it is
// read: on any error (a defective trace is a *ptr.Error) nothing is
// written. What the calls mean is not simulated here (that would cost as
// much as the rest of the ingest): the trace's first prediction is its
// check, and a defect it finds marks the trace refused in the store
// (internal/stage); TraceOptions.CheckMeaning checks at ingest instead.
// progress, if not nil, is called now and then with the bytes of the file
// read so far and the file's size, and once at the end. The calls table
// is not written (TraceOptions.Calls).
func Trace(ctx context.Context, st *store.Store, path string, progress func(done, total int64)) (store.TraceInfo, error) {
	return TraceWith(ctx, st, path, TraceOptions{Progress: progress})
}

// TraceOptions are the choices of TraceWith.
type TraceOptions struct {
	// Progress, if not nil, is called as Trace describes.
	Progress func(done, total int64)
	// Calls also writes the trace's rows of the calls table, one per call,
	// for SQL users (store.MaterializeCalls), in a second transaction; a
	// stored trace gets them too when it has none.
	Calls bool
	// CheckMeaning also checks what a new trace's calls mean, in the pass
	// that packs it, by simulating them on one processor (sim.Checker):
	// a trace no configuration can simulate is refused at ingest with an
	// *engine.Error naming its line, and nothing is written (`presage
	// ingest trace --check`). Without it the trace's first prediction
	// checks it.
	CheckMeaning bool
	// Check, if not nil, makes the check of a new trace's calls in the
	// pass that packs it, in place of CheckMeaning's (given the trace's
	// header and the file's path): a prediction of the trace, whose
	// defects are the check's (`presage predict FILE`,
	// stage.PredictFile). It is not called for a trace stored already.
	Check func(h *trace.Header, path string) CallCheck
}

// TraceWith is Trace with options.
func TraceWith(ctx context.Context, st *store.Store, path string, opt TraceOptions) (store.TraceInfo, error) {
	check := opt.Check
	if check == nil && opt.CheckMeaning {
		check = func(h *trace.Header, name string) CallCheck { return sim.NewChecker(h, name) }
	}
	info, err := packFile(ctx, st, path, opt.Progress, check)
	if err != nil || !opt.Calls {
		return info, err
	}
	if _, err := st.MaterializeCalls(ctx, info); err != nil {
		return store.TraceInfo{}, err
	}
	return info, nil
}

// packFile stores the trace at path with its pack, as Trace describes,
// its calls checked as they are read by the check check makes when it is
// not nil.
// The file is hashed first, so that a stored trace costs one read of the
// file (of its compressed bytes when gzip), not a parse; a new one is then
// inflated in a goroutine beside the parsing, and the parser keeps the
// parameter texts without parsing them, as the pack needs. A plain text
// file ingested into a store that holds no trace (`presage predict FILE`
// on a new store) cannot be stored already: it is hashed in the pass that
// parses it (hashedPass), read once instead of twice.
func packFile(ctx context.Context, st *store.Store, path string, progress func(done, total int64), check func(*trace.Header, string) CallCheck) (store.TraceInfo, error) {
	f, size, err := openSniffed(path, ptr.Sniff)
	if err != nil {
		return store.TraceInfo{}, err
	}
	defer f.Close()
	var in io.Reader = f
	var digest string
	var late func() (string, error)
	if pass, ok, err := newHashedPass(ctx, st, f); err != nil {
		return store.TraceInfo{}, err
	} else if ok {
		in, late = pass.tee(), pass.sum
	} else {
		if digest, err = sumFile(ctx, f, xxh3Reader); err != nil {
			return store.TraceInfo{}, err
		}
		if info, found, err := storedTrace(ctx, st, f, digest); err != nil || found {
			return info, err
		}
	}
	cr := &countingReader{r: in, total: size, progress: progress}
	text, err := inputText(ctx, cr, path)
	if err != nil {
		return store.TraceInfo{}, err
	}
	defer text.Close()
	r, err := ptr.NewConcurrentReader(text, path)
	if err != nil {
		return store.TraceInfo{}, err
	}
	defer r.Close()
	r.TextOnly()
	var calls store.TraceReader = r
	if check != nil {
		calls = newCheckedReader(r, path, check)
	}
	info, err := st.SaveTraceSummed(ctx, store.TraceInfo{Name: TraceName(path), Path: path, XXH3: digest}, calls, late)
	if err != nil {
		return store.TraceInfo{}, err
	}
	cr.report(true)
	return info, nil
}

// hashedPass is the XXH3 of a file taken as the parser reads it: every
// byte read from f passes through the hash (tee), and sum hashes what the
// parser left unread and gives the digest of the whole file.
type hashedPass struct {
	ctx context.Context
	f   *os.File
	h   *xxh3.Hasher128
}

// newHashedPass returns the pass that hashes f as it is parsed when f is
// plain text (read by the parser in this goroutine, so the hash sees its
// bytes in order) and the store holds no trace; ok is false otherwise, and
// f is hashed first. f is at its start.
func newHashedPass(ctx context.Context, st *store.Store, f *os.File) (p hashedPass, ok bool, err error) {
	magic := make([]byte, 2)
	if n, _ := f.ReadAt(magic, 0); n == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		return p, false, nil
	}
	has, err := st.HasTraces(ctx)
	if err != nil || has {
		return p, false, err
	}
	return hashedPass{ctx: ctx, f: f, h: xxh3.New128()}, true, nil
}

func (p hashedPass) tee() io.Reader { return io.TeeReader(p.f, p.h) }

func (p hashedPass) sum() (string, error) {
	if _, err := io.CopyBuffer(p.h, struct{ io.Reader }{contextReader{p.ctx, p.f}}, make([]byte, 1<<16)); err != nil {
		return "", fmt.Errorf("%s: %w", p.f.Name(), err)
	}
	return hexSum(p.h), nil
}

// storedTrace finds the stored trace of file f, whose XXH3 is digest,
// hashing f with SHA-256 when the store needs it (store.TraceOfFile). f is
// left at its start.
func storedTrace(ctx context.Context, st *store.Store, f *os.File, digest string) (store.TraceInfo, bool, error) {
	return st.TraceOfFile(ctx, digest, func() (string, error) { return sumFile(ctx, f, sumReader) })
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
