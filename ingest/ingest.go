// Package ingest reads the input files of Presage into the store: Lib-DVM
// traces (Trace), machine files (Machine) and statistics files of real
// runs (Sts). It parses each with its reader (ingest/ptr,
// ingest/machinefile, ingest/sts with ingest/pppa) and writes it through
// the store's typed methods, in one transaction per file.
//
// A file is known by the hash of its bytes (XXH3-128 for a trace, SHA-256
// for the others) and stored once per content,
// under its base name without the suffixes of its format: ingesting the
// same bytes again writes nothing and returns the stored file's
// description with Existing set.
package ingest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/zeebo/xxh3"
)

// sum returns the sha256 of b in hex, as the store's sha256 columns hold
// it.
func sum(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// sumReader is sum of everything r yields, for files too large to hold.
func sumReader(r io.Reader) (string, error) { return hashReader(sha256.New(), r) }

// xxh3Reader is the XXH3-128 of everything r yields, in hex: how a trace
// is known since schema 11 (schema/0011_trace_xxh3.sql).
func xxh3Reader(r io.Reader) (string, error) { return hashReader(xxh3.New128(), r) }

// hashReader feeds h everything r yields, in large blocks (a trace is
// hundreds of megabytes, and io.Copy's 32 KB reads cost a third of
// SHA-256's own time), and returns the sum in hex.
func hashReader(h hash.Hash, r io.Reader) (string, error) {
	if _, err := io.CopyBuffer(h, struct{ io.Reader }{r}, make([]byte, 1<<20)); err != nil {
		return "", err
	}
	return hexSum(h), nil
}

// hexSum is h's sum in hex, as the store's digest columns hold it.
func hexSum(h hash.Hash) string { return hex.EncodeToString(h.Sum(nil)) }

// sniffJSONLines checks that head can begin a JSON Lines file (order
// traces, measured runs): gzip, or a '{' after blanks.
func sniffJSONLines(head []byte, name string) error {
	if len(head) >= 2 && head[0] == 0x1f && head[1] == 0x8b {
		return nil
	}
	if t := bytes.TrimLeft(head, " \t\r\n"); len(t) == 0 || t[0] == '{' {
		return nil
	}
	return fmt.Errorf("%s: starts with %q: expected JSON Lines (a '{' first) or gzip", name, head[:min(len(head), 16)])
}

// sniffSize is how many first bytes a format's sniff looks at.
const sniffSize = 512

// openHashed opens the file at path and returns it positioned at its
// start, with its size and its sha256 (sum), so that an ingester can look
// the content up in the store before parsing it. sniff, when not nil,
// first checks the file's first bytes, so that a file of another kind is
// refused at once rather than after hashing it whole.
func openHashed(ctx context.Context, path string, sniff func(head []byte, name string) error) (f *os.File, size int64, digest string, err error) {
	return openSummed(ctx, path, sniff, sumReader)
}

// openSummed is openHashed with the hash function sum.
func openSummed(ctx context.Context, path string, sniff func(head []byte, name string) error, sum func(io.Reader) (string, error)) (f *os.File, size int64, digest string, err error) {
	if f, size, err = openSniffed(path, sniff); err != nil {
		return nil, 0, "", err
	}
	if digest, err = sumFile(ctx, f, sum); err != nil {
		f.Close()
		return nil, 0, "", err
	}
	return f, size, digest, nil
}

// sumFile returns sum of the whole of f, read under ctx, and leaves f at
// its start again; an error names the file.
func sumFile(ctx context.Context, f *os.File, sum func(io.Reader) (string, error)) (string, error) {
	digest, err := sum(contextReader{ctx, f})
	if err == nil {
		_, err = f.Seek(0, io.SeekStart)
	}
	if err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		return "", fmt.Errorf("%s: %w", f.Name(), err)
	}
	return digest, nil
}

// openSniffed opens the file at path, refused unless it is a regular
// file (openRegular), checks its first bytes with sniff when it is not
// nil, and returns it positioned at its start, with its size.
func openSniffed(path string, sniff func(head []byte, name string) error) (*os.File, int64, error) {
	f, stat, err := openRegular(path)
	if err != nil {
		return nil, 0, err
	}
	fail := func(err error) (*os.File, int64, error) {
		f.Close()
		return nil, 0, err
	}
	if sniff != nil {
		head := make([]byte, sniffSize)
		n, err := io.ReadFull(f, head)
		if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
			return fail(fmt.Errorf("%s: %w", path, err))
		}
		if err := sniff(head[:n], path); err != nil {
			return fail(err)
		}
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return fail(fmt.Errorf("%s: %w", path, err))
		}
	}
	return f, stat.Size(), nil
}

// storedName is the name a file is stored under: the base name of path
// without each of suffixes in turn, where the name ends with it and
// something is left.
func storedName(path string, suffixes ...string) string {
	name := filepath.Base(path)
	for _, suf := range suffixes {
		if len(name) > len(suf) {
			name = strings.TrimSuffix(name, suf)
		}
	}
	return name
}
