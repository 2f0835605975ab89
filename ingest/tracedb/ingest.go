package tracedb

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/presage-dvm/presage/ingest/filestore"
	"github.com/presage-dvm/presage/ingest/ptr"
)

// batchRows is the number of calls written by one INSERT statement: a
// multi-row INSERT is several times faster than one row per statement.
const batchRows = 100

const callColumns = 10

// Ingest stores the trace file at path unless a file with the same bytes
// is stored already, in which case it returns that trace's Info with
// Existing set and writes nothing. The trace is parsed and written in one
// transaction: on any error (a defective trace is a *ptr.Error) nothing is
// written. progress, if not nil, is called now and then with the bytes of
// the file read so far and the file's size.
func Ingest(ctx context.Context, db *sqlx.DB, path string, progress func(done, total int64)) (Info, error) {
	f, err := os.Open(path)
	if err != nil {
		return Info{}, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return Info{}, err
	}
	sum, err := filestore.SumReader(f)
	if err != nil {
		return Info{}, fmt.Errorf("%s: %w", path, err)
	}
	if info, err := bySHA(ctx, db, sum); err != nil || info.ID != 0 {
		return info, err
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return Info{}, err
	}
	cr := &countingReader{r: f, total: st.Size(), progress: progress}
	r, err := ptr.NewReader(cr, path)
	if err != nil {
		return Info{}, err
	}
	info := Info{
		Name: TraceName(path), Path: path, SHA256: sum,
		ProcCount: r.Header().ProcCount, RootLine: r.Header().RootLine, RootFile: r.Header().RootFile,
		IngestedAt: time.Now().UTC().Format(time.RFC3339),
	}
	tx, err := db.BeginTxx(ctx, nil)
	if err != nil {
		return Info{}, err
	}
	defer tx.Rollback() // no-op after Commit
	if err := insert(ctx, tx, r, &info); err != nil {
		if filestore.IsDuplicate(err, "traces") {
			// Another ingest of the same bytes won the race.
			tx.Rollback()
			return bySHA(ctx, db, sum)
		}
		return Info{}, err
	}
	if err := tx.Commit(); err != nil {
		return Info{}, err
	}
	cr.report(true)
	return info, nil
}

// insert writes the traces row, the calls of r and their pack within tx
// and fills info's ID, Calls and Bytes.
func insert(ctx context.Context, tx *sqlx.Tx, r *ptr.Reader, info *Info) error {
	res, err := tx.ExecContext(ctx, `INSERT INTO traces(name, path, sha256, bytes, calls, proc_count, header,
		root_line, root_file, ingested_at) VALUES (?, ?, ?, 0, 0, ?, ?, ?, ?, ?)`,
		info.Name, info.Path, info.SHA256, info.ProcCount, strings.Join(r.Header().Lines, "\n"),
		info.RootLine, info.RootFile, info.IngestedAt)
	if err != nil {
		return fmt.Errorf("store trace %s: %w", info.Path, err)
	}
	if info.ID, err = res.LastInsertId(); err != nil {
		return err
	}
	w, err := newCallWriter(ctx, tx, info.ID)
	if err != nil {
		return err
	}
	defer w.close()
	pw, err := newPackWriter(ctx, tx, info.ID)
	if err != nil {
		return err
	}
	defer pw.close()
	for {
		c, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if err := w.add(c); err != nil {
			return fmt.Errorf("store trace %s: call at line %d: %w", info.Path, c.TraceLine, err)
		}
		if err := pw.add(c); err != nil {
			return fmt.Errorf("store trace %s: call at line %d: %w", info.Path, c.TraceLine, err)
		}
		if w.seq%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
	}
	if err := w.flush(); err != nil {
		return fmt.Errorf("store trace %s: %w", info.Path, err)
	}
	if err := pw.finish(); err != nil {
		return fmt.Errorf("store trace %s: %w", info.Path, err)
	}
	info.Calls, info.Bytes = int(w.seq), r.TextBytes()
	_, err = tx.ExecContext(ctx, `UPDATE traces SET calls = ?, bytes = ? WHERE id = ?`, info.Calls, info.Bytes, info.ID)
	return err
}

// callWriter batches calls into multi-row INSERTs.
type callWriter struct {
	ctx   context.Context
	tx    *sqlx.Tx
	id    int64
	seq   int64
	batch *sql.Stmt
	args  []any
}

func newCallWriter(ctx context.Context, tx *sqlx.Tx, id int64) (*callWriter, error) {
	stmt, err := tx.PrepareContext(ctx, insertCalls(batchRows))
	if err != nil {
		return nil, err
	}
	return &callWriter{ctx: ctx, tx: tx, id: id, batch: stmt, args: make([]any, 0, batchRows*callColumns)}, nil
}

func insertCalls(rows int) string {
	var b strings.Builder
	b.WriteString(`INSERT INTO calls(trace_id, seq, func, call_time, ret_time, line, file, trace_line,
		call_params, ret_params) VALUES `)
	for i := range rows {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("(?,?,?,?,?,?,?,?,?,?)")
	}
	return b.String()
}

func (w *callWriter) add(c *ptr.Call) error {
	w.args = append(w.args, w.id, w.seq, c.Func, c.CallTime, c.RetTime, c.Line, c.File, c.TraceLine,
		c.InText, c.OutText)
	w.seq++
	if len(w.args) < batchRows*callColumns {
		return nil
	}
	_, err := w.batch.ExecContext(w.ctx, w.args...)
	w.args = w.args[:0]
	return err
}

// flush writes the calls of an incomplete batch.
func (w *callWriter) flush() error {
	if len(w.args) == 0 {
		return nil
	}
	_, err := w.tx.ExecContext(w.ctx, insertCalls(len(w.args)/callColumns), w.args...)
	w.args = w.args[:0]
	return err
}

func (w *callWriter) close() { w.batch.Close() }

// bySHA returns the stored trace with the given content hash, with
// Existing set, or a zero Info when there is none.
func bySHA(ctx context.Context, db *sqlx.DB, sum string) (Info, error) {
	info, found, err := filestore.Find[Info](ctx, db, `SELECT `+infoColumns+` FROM traces WHERE sha256 = ?`, sum)
	info.Existing = found
	return info, err
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
