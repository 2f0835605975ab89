package trace

import "io"

// Source yields the calls of a trace in order; Next returns io.EOF after
// the last one.
type Source interface {
	Next() (*Call, error)
}

// SliceSource is a Source over calls already in memory.
type SliceSource struct {
	calls []*Call
	pos   int
}

// NewSliceSource returns a Source yielding calls in order.
func NewSliceSource(calls []*Call) *SliceSource {
	return &SliceSource{calls: calls}
}

// Next returns the next call, or io.EOF after the last one.
func (s *SliceSource) Next() (*Call, error) {
	if s.pos >= len(s.calls) {
		return nil, io.EOF
	}
	c := s.calls[s.pos]
	s.pos++
	return c, nil
}

// ReadAll drains src into a slice.
func ReadAll(src Source) ([]*Call, error) {
	var calls []*Call
	for {
		c, err := src.Next()
		if err == io.EOF {
			return calls, nil
		}
		if err != nil {
			return calls, err
		}
		calls = append(calls, c)
	}
}
