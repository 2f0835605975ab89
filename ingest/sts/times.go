package sts

// decodeTimes decodes the synchronisation-time records of b, the last
// lsynchro bytes of the buffer (starting at buffer offset base). The writer
// fills them from the end backwards, so the last record is the first event.
func (s *stream) decodeTimes(h Header, b []byte, base int64) ([]TimeRecord, error) {
	size := h.SizeShort + h.SizeLong + h.SizePointer + h.SizeDouble
	n := len(b) / size
	recs := make([]TimeRecord, n)
	f := s.fields(b, base, h)
	for k := range n {
		f.pos = len(b) - (k+1)*size
		at := f.offset()
		r := &recs[k]
		r.Item = f.short()
		ninter := f.long()
		r.Group = f.pointer()
		r.Time = f.double()
		if r.Item < 1 || r.Item > 40 {
			return nil, s.errorf(at, "time record %d: operation item %d, expected 1..40", k, r.Item)
		}
		if ninter < 1 || ninter > h.QFrag {
			return nil, s.errorf(at, "time record %d: interval number %d, expected 1..%d", k, ninter, h.QFrag)
		}
		r.Interval = int(ninter)
	}
	return recs, nil
}

// decodeProc decodes one processor buffer from s, a stream that must end
// with the buffer.
func (s *stream) decodeProc() (Proc, error) {
	p, err := s.decodeProcBody()
	if err != nil {
		return p, err
	}
	return p, s.end()
}

// decodeProcBody decodes one processor buffer, leaving s at its end.
func (s *stream) decodeProcBody() (Proc, error) {
	var p Proc
	h, err := s.decodeHeader()
	if err != nil {
		return p, err
	}
	p.Header = h
	if s.size < 0 {
		s.size = h.LBuf
		if err := s.checkCounts(&h); err != nil {
			return p, err
		}
	}
	if s.off+h.LInter+h.LSynchro > h.LBuf {
		return p, s.errorf(s.off, "interval bytes %d from offset %d plus synchronisation bytes %d run past the end of the %d-byte buffer",
			h.LInter, s.off, h.LSynchro, h.LBuf)
	}
	base := s.off
	b, err := s.read(int(h.LInter), "the interval records")
	if err != nil {
		return p, err
	}
	if p.Intervals, err = s.decodeIntervals(h, b, base); err != nil {
		return p, err
	}
	base = h.LBuf - h.LSynchro
	if err := s.skipTo(base, "the synchronisation-time records"); err != nil {
		return p, err
	}
	if b, err = s.read(int(h.LSynchro), "the synchronisation-time records"); err != nil {
		return p, err
	}
	p.Times, err = s.decodeTimes(h, b, base)
	return p, err
}
