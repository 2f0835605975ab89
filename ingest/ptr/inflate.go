package ptr

import (
	"io"
	"sync"
)

// inflater runs a reader (the gzip decompressor) in a goroutine of its own,
// a few blocks ahead of the parser, so that inflating and parsing a
// compressed trace use two cores. Its Read is not safe for concurrent use.
type inflater struct {
	full chan block // blocks read ahead, in order
	free chan []byte
	stop chan struct{}
	once sync.Once
	cur  block
	off  int
	done bool // the final block (with its error) has been read
}

// block is a run of bytes read ahead and the error that followed them.
type block struct {
	buf []byte
	err error
}

const (
	aheadBlocks = 4
	aheadSize   = 256 << 10
)

// ReadAhead reads src in a goroutine of its own, a few blocks ahead of
// the reader of the result, as NewConcurrentReader inflates a gzip trace:
// for a decompressor that its caller bounds or checks itself. Close the
// result to stop the goroutine.
func ReadAhead(src io.Reader) io.ReadCloser { return newInflater(src) }

// fill reads src into buf until buf is full or src fails; io.EOF only
// when src ended. Unlike io.ReadFull, it keeps the decompressor's own
// io.ErrUnexpectedEOF — a gzip stream cut short — apart from a short
// last block.
func fill(src io.Reader, buf []byte) (int, error) {
	n := 0
	for n < len(buf) {
		m, err := src.Read(buf[n:])
		n += m
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

func newInflater(src io.Reader) *inflater {
	in := &inflater{
		full: make(chan block, aheadBlocks),
		free: make(chan []byte, aheadBlocks),
		stop: make(chan struct{}),
	}
	for range aheadBlocks {
		in.free <- make([]byte, aheadSize)
	}
	go in.run(src)
	return in
}

// run reads src into the free blocks until an error (io.EOF included) or
// Close.
func (in *inflater) run(src io.Reader) {
	for {
		var buf []byte
		select {
		case buf = <-in.free:
		case <-in.stop:
			return
		}
		n, err := fill(src, buf)
		select {
		case in.full <- block{buf: buf[:n], err: err}:
		case <-in.stop:
			return
		}
		if err != nil {
			return
		}
	}
}

func (in *inflater) Read(p []byte) (int, error) {
	for in.off == len(in.cur.buf) {
		if in.done {
			return 0, in.cur.err
		}
		if in.cur.buf != nil {
			in.free <- in.cur.buf[:cap(in.cur.buf)]
		}
		in.cur, in.off = <-in.full, 0
		in.done = in.cur.err != nil
		if in.done && len(in.cur.buf) == 0 {
			return 0, in.cur.err
		}
	}
	n := copy(p, in.cur.buf[in.off:])
	in.off += n
	return n, nil
}

// Close stops the goroutine.
func (in *inflater) Close() error {
	in.once.Do(func() { close(in.stop) })
	return nil
}
