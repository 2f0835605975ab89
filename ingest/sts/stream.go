package sts

import (
	"bytes"
	"errors"
	"io"
)

// stream reads one processor buffer sequentially, keeping the buffer offset
// for error messages. Allocations grow with the bytes actually present, so
// a corrupt length cannot make it allocate more than the input holds.
type stream struct {
	r    io.Reader
	off  int64 // buffer offset of the next byte
	size int64 // buffer size announced by the file, -1 when unknown
	file string
	proc int
}

// read returns the next n bytes; what names them for the error.
func (s *stream) read(n int, what string) ([]byte, error) {
	if n < 0 {
		return nil, s.errorf(s.off, "negative length %d of %s", n, what)
	}
	if s.size >= 0 && s.off+int64(n) > s.size {
		return nil, s.errorf(s.off, "%s (%d bytes) runs past the end of the %d-byte buffer", what, n, s.size)
	}
	var buf bytes.Buffer
	m, err := io.CopyN(&buf, s.r, int64(n))
	start := s.off
	s.off += m
	if err != nil {
		return nil, s.readError(start+m, what, err)
	}
	return buf.Bytes(), nil
}

// skipTo discards bytes up to buffer offset off.
func (s *stream) skipTo(off int64, what string) error {
	if off < s.off {
		return s.errorf(s.off, "%s at offset %d overlaps the data before it", what, off)
	}
	m, err := io.CopyBuffer(io.Discard, io.LimitReader(s.r, off-s.off), make([]byte, 256<<10))
	start := s.off
	s.off += m
	if err == nil && s.off < off {
		err = io.ErrUnexpectedEOF
	}
	if err != nil {
		return s.readError(start+m, "the free space before "+what, err)
	}
	return nil
}

// end checks that the buffer ends here (for zlib streams this also checks
// the stream's checksum).
func (s *stream) end() error {
	var one [1]byte
	n, err := io.ReadFull(s.r, one[:])
	if n > 0 {
		return s.errorf(s.off, "the processor buffer continues past its %d announced bytes", s.off)
	}
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return &Error{File: s.file, Proc: s.proc, Offset: s.off, Msg: "corrupt compressed buffer at its end: " + err.Error(), Err: err}
	}
	return nil
}

// readError reports a failed read at buffer offset at.
func (s *stream) readError(at int64, what string, err error) error {
	msg := "cannot read " + what + ": " + err.Error()
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		msg = "truncated: the buffer ends inside " + what
	}
	return &Error{File: s.file, Proc: s.proc, Offset: at, Msg: msg, Err: err}
}

// fields returns a value reader over b, which starts at buffer offset base.
func (s *stream) fields(b []byte, base int64, h Header) *fields {
	return &fields{b: b, base: base, order: h.Order, ss: h.SizeShort, sl: h.SizeLong, sv: h.SizePointer}
}
