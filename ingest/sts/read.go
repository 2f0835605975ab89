package sts

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"

	"golang.org/x/sync/errgroup"
)

// maxProcs bounds the processor count a file may claim.
const maxProcs = 1 << 16

// Read decodes the statistics file at path.
func Read(path string) (*File, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	return Decode(fh, path)
}

// Decode decodes a statistics file from r; name is used in errors.
func Decode(r io.Reader, name string) (*File, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, &Error{File: name, Proc: -1, Msg: "corrupt gzip header: " + err.Error(), Err: err}
		}
		defer zr.Close()
		br = bufio.NewReaderSize(zr, 64<<10)
	}
	c := &counter{r: br, file: name}
	head, _ := br.Peek(24)
	var f *File
	var err error
	switch layout(head) {
	case "gz+":
		f, err = c.decodeGzPlus()
	case "plain":
		f, err = c.decodePlain()
	default:
		return nil, notStatistics(head, name)
	}
	if err != nil {
		return nil, err
	}
	return f, c.checkEnd()
}

// Sniff checks that head, the first bytes of a file (24 suffice), can
// begin a statistics file — gzip-compressed, .gz+ or plain — so that a
// file that is not one is refused before it is read whole.
func Sniff(head []byte, name string) error {
	if len(head) >= 2 && head[0] == 0x1f && head[1] == 0x8b || layout(head) != "" {
		return nil
	}
	return notStatistics(head, name)
}

// layout names the layout head begins, "" for none.
func layout(head []byte) string {
	switch {
	case len(head) > 0 && head[0] >= '0' && head[0] <= '9':
		return "gz+"
	case len(head) >= 2 && (head[0] == 1 && head[1] == 0 || head[0] == 0 && head[1] == 1):
		return "plain"
	}
	return ""
}

func notStatistics(head []byte, name string) error {
	return &Error{File: name, Proc: -1, Offset: 0, Msg: fmt.Sprintf(
		"not a statistics file: starts with %q; expected the decimal buffer size and a NUL (.gz+ layout) or a byte-order marker 01 00 (plain layout)", head[:min(len(head), 24)])}
}

// checkEnd refuses data after the last processor's buffer: a valid file
// followed by anything else is damaged.
func (c *counter) checkEnd() error {
	if _, err := c.r.Peek(1); err == io.EOF {
		return nil
	}
	return &Error{File: c.file, Proc: -1, Offset: c.off, Msg: "data after the last processor's buffer: expected the end of the file"}
}

// counter reads the file sequentially, counting bytes for error offsets.
type counter struct {
	r    *bufio.Reader
	off  int64
	file string
}

func (c *counter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.off += int64(n)
	return n, err
}

// number reads an ASCII decimal terminated by NUL.
func (c *counter) number(what string) (int64, error) {
	start := c.off
	var digits []byte
	for {
		b, err := c.r.ReadByte()
		if err != nil {
			return 0, &Error{File: c.file, Proc: -1, Offset: c.off, Msg: "truncated: the file ends inside " + what, Err: err}
		}
		c.off++
		if b == 0 {
			break
		}
		if b < '0' || b > '9' || len(digits) >= 19 {
			return 0, &Error{File: c.file, Proc: -1, Offset: c.off - 1, Msg: fmt.Sprintf(
				"not a statistics file: byte %q in %s; expected decimal digits and a NUL", b, what)}
		}
		digits = append(digits, b)
	}
	v, err := strconv.ParseInt(string(digits), 10, 64)
	if err != nil {
		return 0, &Error{File: c.file, Proc: -1, Offset: start, Msg: fmt.Sprintf("%s %q is not a decimal number", what, digits)}
	}
	return v, nil
}

// decodeGzPlus reads the .gz+ layout: buffer size, processor count, then a
// compressed size and a zlib stream per processor.
func (c *counter) decodeGzPlus() (*File, error) {
	size, err := c.number("the buffer size")
	if err != nil {
		return nil, err
	}
	at := c.off
	count, err := c.number("the processor count")
	if err != nil {
		return nil, err
	}
	if count < 1 || count > maxProcs {
		return nil, &Error{File: c.file, Proc: -1, Offset: at, Msg: fmt.Sprintf("processor count %d, expected 1..%d", count, maxProcs)}
	}
	// Blocks are inflated in parallel as they are read, at most
	// GOMAXPROCS at a time, so that only that many compressed blocks are
	// held besides the decoded buffers.
	f := &File{Name: c.file, Layout: "gz+", Procs: make([]Proc, count)}
	errs := make([]error, count)
	var g errgroup.Group
	g.SetLimit(runtime.GOMAXPROCS(0))
	for p := 0; p < int(count); p++ {
		at := c.off
		clen, err := c.number(fmt.Sprintf("the compressed size of processor %d", p))
		if err != nil {
			g.Wait()
			return nil, err
		}
		var block bytes.Buffer
		if n, err := io.CopyN(&block, c, clen); err != nil {
			g.Wait()
			return nil, &Error{File: c.file, Proc: -1, Offset: at, Msg: fmt.Sprintf(
				"truncated: the file ends %d bytes into the %d compressed bytes of processor %d", n, clen, p), Err: err}
		}
		g.Go(func() error {
			f.Procs[p], errs[p] = c.inflate(block.Bytes(), size, p)
			return nil
		})
	}
	g.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return f, checkFile(f)
}

// inflate decodes the zlib block of processor p, whose buffer must have
// size bytes.
func (c *counter) inflate(block []byte, size int64, p int) (Proc, error) {
	zr, err := zlib.NewReader(bytes.NewReader(block))
	if err != nil {
		return Proc{}, &Error{File: c.file, Proc: p, Offset: 0, Msg: fmt.Sprintf("corrupt zlib stream of %d bytes: %v", len(block), err), Err: err}
	}
	defer zr.Close()
	s := &stream{r: zr, size: size, file: c.file, proc: p}
	return s.decodeProc()
}

// decodePlain reads the buffers written back to back without compression.
func (c *counter) decodePlain() (*File, error) {
	f := &File{Name: c.file, Layout: "plain"}
	for p := 0; ; p++ {
		s := &stream{r: c, size: -1, file: c.file, proc: p}
		proc, err := s.decodeProcBody()
		if err != nil {
			return nil, err
		}
		f.Procs = append(f.Procs, proc)
		if int64(len(f.Procs)) >= proc.Header.ProcCount || len(f.Procs) >= maxProcs {
			break
		}
	}
	return f, checkFile(f)
}

// checkFile checks what must agree between the processors: their count,
// and the processor grid, whose sizes multiply to it.
func checkFile(f *File) error {
	h := f.Procs[0].Header
	if int64(len(f.Procs)) != h.ProcCount {
		return &Error{File: f.Name, Proc: -1, Msg: fmt.Sprintf("the file holds %d processor buffers, the header says %d processors", len(f.Procs), h.ProcCount)}
	}
	if len(h.Grid) == 0 {
		return nil
	}
	product := int64(1)
	for _, d := range h.Grid {
		// Checked size by size, the product cannot overflow.
		if d < 1 || d > h.ProcCount || product*d > h.ProcCount {
			product = -1
			break
		}
		product *= d
	}
	if product != h.ProcCount {
		return &Error{File: f.Name, Proc: 0, Offset: 10, Msg: fmt.Sprintf("processor grid %s for %d processors: expected positive sizes whose product is the processor count",
			gridString(h.Grid), h.ProcCount)}
	}
	return nil
}

func gridString(grid []int64) string {
	parts := make([]string, len(grid))
	for i, d := range grid {
		parts[i] = strconv.FormatInt(d, 10)
	}
	return strings.Join(parts, "x")
}
