package ordertrace

import (
	"fmt"
	"io"
)

// ChunkSource reads the orders of packed chunks (docs/orders.md, "The
// stored form"), one chunk after another, as a Scanner. The chunks come
// from a function: the store's, which fetches each from SQLite when the
// reader reaches it, or a PackedTrace's, held in memory.
type ChunkSource struct {
	name    string
	hdr     Header
	u       *Unpacker
	next    func() (orders, segments []byte, err error)
	chunk   int // the chunk being read, from 0
	started bool
	err     error
}

var _ Scanner = (*ChunkSource)(nil)

// NewChunkSource returns a source of the chunks next returns, in turn:
// each chunk's orders and segments (nil segments: its orders come
// without), io.EOF after the last. name names the trace in errors;
// names are the trace's names (Packer.Names).
func NewChunkSource(name string, h Header, names []string, next func() (orders, segments []byte, err error)) *ChunkSource {
	return &ChunkSource{name: name, hdr: h, u: NewUnpacker(names), next: next, chunk: -1}
}

// Header returns the trace's header.
func (s *ChunkSource) Header() Header { return s.hdr }

// Next returns the next order, a fresh one, io.EOF after the last.
func (s *ChunkSource) Next() (*Order, error) {
	o := new(Order)
	if err := s.Scan(o); err != nil {
		return nil, err
	}
	return o, nil
}

// Scan decodes the next order into o, reusing its lists (Scanner).
func (s *ChunkSource) Scan(o *Order) error {
	for s.err == nil {
		if s.started {
			err := s.u.Scan(o)
			if err != io.EOF {
				if err != nil {
					s.err = s.errorf(err)
				}
				return s.err
			}
		}
		orders, segments, err := s.next()
		s.chunk++
		switch {
		case err == io.EOF:
			s.err = io.EOF
		case err != nil:
			s.err = s.errorf(err)
		default:
			s.started = true
			if err := s.u.Reset(orders, segments); err != nil {
				s.err = s.errorf(err)
			}
		}
	}
	return s.err
}

func (s *ChunkSource) errorf(err error) error {
	return fmt.Errorf("order trace %s, chunk %d: %w", s.name, s.chunk, err)
}

// A PackedTrace is a trace's chunks held in memory, decompressed, without
// their segments: what the many simulations of a sweep read, each through
// its own source, rather than each fetching and decompressing the
// chunks again. It is read only, so its sources may run at once.
type PackedTrace struct {
	Name   string
	Header Header
	Names  []string
	Chunks [][]byte // each chunk's orders, as a Packer packed them
}

// Open returns a source of t's orders.
func (t *PackedTrace) Open() *ChunkSource {
	i := 0
	return NewChunkSource(t.Name, t.Header, t.Names, func() ([]byte, []byte, error) {
		if i == len(t.Chunks) {
			return nil, nil, io.EOF
		}
		i++
		return t.Chunks[i-1], nil, nil
	})
}
