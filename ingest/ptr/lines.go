package ptr

import (
	"bytes"
	"errors"
	"io"
)

// lineBufSize is the initial size of a lineReader's buffer: large, so that
// its refills, and the search for NUL bytes done once per refill, are few.
const lineBufSize = 256 << 10

// lineReader splits a text into physical lines. It differs from
// bufio.Reader.ReadSlice in checking the text for NUL bytes (which no
// trace holds) once per refill of its buffer, not once per line, and in
// growing the buffer for a long line instead of returning it in pieces.
type lineReader struct {
	src  io.Reader
	buf  []byte
	r, w int   // buf[r:w] is not read yet
	nul  int   // index in buf of the first NUL byte from r on, -1 for none in buf[r:w]
	err  error // the error that ended src, returned when buf[r:w] has no line end
}

// newLineReader returns a lineReader of src with a buffer of size bytes
// to begin with.
func newLineReader(src io.Reader, size int) *lineReader {
	return &lineReader{src: src, buf: make([]byte, size), nul: -1}
}

// errLineTooLong is returned by next for a line longer than maxLine.
var errLineTooLong = errors.New("line too long")

// next returns the next line with its '\n', valid until the next call, and
// the index in it of its first NUL byte (-1 for none). Like ReadSlice, at
// the end of src it returns the last bytes without '\n' along with the
// error of src (io.EOF at the end of the text). A line (with its '\n')
// longer than maxLine gives errLineTooLong, whatever follows it.
func (lr *lineReader) next() (line []byte, nul int, err error) {
	// The common case first, in few instructions: a whole line is
	// buffered, with no NUL byte.
	i := bytes.IndexByte(lr.buf[lr.r:lr.w], '\n')
	if end := lr.r + i + 1; i >= 0 && i < maxLine && (lr.nul < 0 || lr.nul >= end) {
		line, lr.r = lr.buf[lr.r:end], end
		return line, -1, nil
	}
	return lr.nextSlow()
}

// nextSlow is next when the buffer has no whole line, or a NUL byte.
func (lr *lineReader) nextSlow() (line []byte, nul int, err error) {
	from := lr.r // the search for '\n' resumes here after a refill
	for {
		if i := bytes.IndexByte(lr.buf[from:lr.w], '\n'); i >= 0 {
			return lr.take(from + i + 1)
		}
		if lr.w-lr.r > maxLine {
			return nil, -1, errLineTooLong
		}
		if lr.err != nil {
			line, nul, _ = lr.take(lr.w)
			return line, nul, lr.err
		}
		from = lr.w - lr.r
		lr.fill()
		from += lr.r
	}
}

// skipEmpty consumes the empty lines ("\n") at the start of the buffer
// and returns their number.
func (lr *lineReader) skipEmpty() int {
	n := 0
	for lr.r+n < lr.w && lr.buf[lr.r+n] == '\n' {
		n++
	}
	lr.r += n
	return n
}

// take consumes buf[r:end] as a line.
func (lr *lineReader) take(end int) (line []byte, nul int, err error) {
	line = lr.buf[lr.r:end]
	if len(line) > maxLine {
		return nil, -1, errLineTooLong
	}
	nul = -1
	if lr.nul >= 0 && lr.nul < end {
		nul = lr.nul - lr.r
		lr.nul = -1
		if i := bytes.IndexByte(lr.buf[end:lr.w], 0); i >= 0 {
			lr.nul = end + i
		}
	}
	lr.r = end
	return line, nul, nil
}

// maxEmptyReads is how many reads returning nothing and no error are
// taken before giving up, as bufio does.
const maxEmptyReads = 100

// fill moves the unread bytes to the start of the buffer (growing it when
// they fill it), reads more from src and looks for a NUL byte in what came.
func (lr *lineReader) fill() {
	if lr.w-lr.r == len(lr.buf) {
		lr.buf = append(lr.buf, make([]byte, len(lr.buf))...)
	}
	if lr.r > 0 {
		copy(lr.buf, lr.buf[lr.r:lr.w])
		lr.w -= lr.r
		if lr.nul >= 0 {
			lr.nul -= lr.r
		}
		lr.r = 0
	}
	for range maxEmptyReads {
		n, err := lr.src.Read(lr.buf[lr.w:])
		if lr.nul < 0 {
			if i := bytes.IndexByte(lr.buf[lr.w:lr.w+n], 0); i >= 0 {
				lr.nul = lr.w + i
			}
		}
		lr.w += n
		if err != nil {
			lr.err = err
			return
		}
		if n > 0 {
			return
		}
	}
	lr.err = io.ErrNoProgress
}

// rest returns the bytes read from src and not consumed, and consumes
// them.
func (lr *lineReader) rest() []byte {
	b := lr.buf[lr.r:lr.w]
	lr.r = lr.w
	return b
}
