package ingest

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"

	"github.com/klauspost/compress/gzip"

	"github.com/presage-dvm/presage/ingest/ptr"
)

// Every input file of the six kinds is opened here (openRegular) and, when
// gzip, decompressed here (inputText): the one place that refuses what is
// not a regular file before reading a byte, reads under the command's
// context, and bounds decompression.

// openRegular opens the file at path for reading and refuses it unless it
// is a regular file: a FIFO would block the command until a writer came
// (and its bytes cannot be read twice, to hash and then to parse), a
// device such as /dev/zero never ends, a directory is not an input. The
// file is opened without blocking, so that a FIFO is refused at once
// rather than waited on.
func openRegular(path string) (*os.File, fs.FileInfo, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, err
	}
	stat, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	if err := regular(path, stat); err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, stat, nil
}

// CheckRegular refuses, with the message of every ingest kind, a path
// that is not a regular file, without opening it: for the commands that
// read other inputs (a host file), which a FIFO would block.
func CheckRegular(path string) error {
	stat, err := os.Stat(path)
	if err != nil {
		return err
	}
	return regular(path, stat)
}

// regular returns nil when stat, path's, is a regular file's, else an
// error naming the path and what it is.
func regular(path string, stat fs.FileInfo) error {
	if stat.Mode().IsRegular() {
		return nil
	}
	return fmt.Errorf("%s: %s, not a regular file: expected a file Presage can read to its end twice (to hash, then to parse); copy it to a file first", path, kindOf(stat.Mode()))
}

// kindOf names what a file that is not regular is.
func kindOf(mode fs.FileMode) string {
	switch {
	case mode&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case mode&fs.ModeSocket != 0:
		return "a socket"
	case mode&fs.ModeCharDevice != 0:
		return "a character device"
	case mode&fs.ModeDevice != 0:
		return "a block device"
	case mode.IsDir():
		return "a directory"
	}
	return "a special file (" + mode.Type().String() + ")"
}

// contextReader reads r until ctx ends: every input is read through one,
// so that SIGINT or SIGTERM (which cancel the command's context) stop an
// ingest at its next read.
type contextReader struct {
	ctx context.Context
	r   io.Reader
}

func (c contextReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

// The bounds of decompression. Real traces and order traces compress 70
// to 160 times; a gzip bomb (zeros) about 1000 times, which the ratio
// refuses after its first megabytes rather than after it has filled the
// memory of whatever parses it. The absolute bound is far above any input
// Presage has met (traces of hundreds of megabytes).
const (
	maxInflateRatio = 500      // decompressed bytes per compressed byte
	inflateAllowed  = 64 << 20 // decompressed before the ratio applies
	maxInflated     = 64 << 30 // decompressed bytes of one file
)

// inputText returns the bytes of the input file f (its name name) as its
// reader must parse them, read under ctx: the file's own bytes, or when
// they are gzip (its magic bytes first), the decompressed ones, inflated
// in a goroutine of their own a few blocks ahead (ptr.ReadAhead) and
// bounded by maxInflateRatio and maxInflated. A gzip stream cut short (its
// last bytes missing) or damaged is an error naming the file. Close the
// result when done.
func inputText(ctx context.Context, f io.Reader, name string) (io.ReadCloser, error) {
	compressed := &byteCount{r: contextReader{ctx, f}}
	br := bufio.NewReaderSize(compressed, 1<<16)
	if magic, _ := br.Peek(2); len(magic) < 2 || magic[0] != 0x1f || magic[1] != 0x8b {
		return io.NopCloser(br), nil
	}
	gz, err := gzip.NewReader(br)
	if err != nil {
		return nil, gzipError(name, err)
	}
	return ptr.ReadAhead(&boundedInflate{gz: gz, compressed: compressed, name: name}), nil
}

// byteCount counts the bytes read from r.
type byteCount struct {
	r io.Reader
	n int64
}

func (b *byteCount) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	b.n += int64(n)
	return n, err
}

// boundedInflate is a gzip stream that fails once it has given more than
// maxInflateRatio bytes per compressed byte read (after inflateAllowed),
// or more than maxInflated in all.
type boundedInflate struct {
	gz         *gzip.Reader
	compressed *byteCount
	name       string
	n          int64
}

func (b *boundedInflate) Read(p []byte) (int, error) {
	n, err := b.gz.Read(p)
	b.n += int64(n)
	switch {
	case b.n > maxInflated:
		return n, fmt.Errorf("%s: decompresses to more than %d GB: expected an input Presage can hold (a gzip bomb?)", b.name, maxInflated>>30)
	case b.n > inflateAllowed && b.n > maxInflateRatio*b.compressed.n:
		return n, fmt.Errorf("%s: decompresses to more than %d times its compressed size (%d MB from %d KB): expected a trace or order trace, not a gzip bomb",
			b.name, maxInflateRatio, b.n>>20, b.compressed.n>>10)
	case err != nil && err != io.EOF:
		return n, gzipError(b.name, err)
	}
	return n, err
}

// gzipError names the file of a gzip error and says what a truncated
// stream is.
func gzipError(name string, err error) error {
	switch {
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return err
	case errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Errorf("%s: gzip stream cut short (its last bytes are missing): expected a complete gzip file", name)
	}
	return fmt.Errorf("%s: damaged gzip stream: %v", name, err)
}
