// Package tracedb owns the traces, calls, trace_shapes and trace_packs
// tables of the store: it ingests Lib-DVM trace files (once per content,
// in one transaction), writing every call both as a row of the calls
// table, for SQL users, and into the trace's pack, a compact form from
// which Open streams the trace back as ptr values without re-parsing it.
package tracedb

import (
	"github.com/presage-dvm/presage/ingest/filestore"
	"github.com/presage-dvm/presage/ingest/ptr"
)

// Info describes a stored trace (a row of the traces table).
type Info struct {
	ID         int64  `db:"id"`
	Name       string `db:"name"` // file base name without .gz and .ptr
	Path       string `db:"path"` // as given to Ingest
	SHA256     string `db:"sha256"`
	Bytes      int64  `db:"bytes"` // uncompressed size
	Calls      int    `db:"calls"`
	ProcCount  int    `db:"proc_count"`
	RootLine   int    `db:"root_line"`
	RootFile   string `db:"root_file"`
	IngestedAt string `db:"ingested_at"` // RFC 3339, UTC
	// Existing is set by Ingest when the file's content was already
	// stored and nothing was written.
	Existing bool `db:"-"`
}

// Trace is a stored trace loaded whole.
type Trace struct {
	Info
	Header *ptr.Header
	Calls  []*ptr.Call
}

// Source returns the calls of t as a ptr.Source.
func (t *Trace) Source() ptr.Source { return ptr.NewSliceSource(t.Calls) }

// TraceName is the name a trace file is stored under: its base name without
// a .gz and then a .ptr suffix.
func TraceName(path string) string { return filestore.Name(path, ".gz", ".ptr") }

const infoColumns = `id, name, path, sha256, bytes, calls, proc_count, root_line, root_file, ingested_at`
