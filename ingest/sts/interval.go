package sts

import "math"

// decodeIntervals decodes the qfrag interval records of b (which starts at
// buffer offset base) and resolves their links.
func (s *stream) decodeIntervals(h Header, b []byte, base int64) ([]Interval, error) {
	metric, err := s.metricSize(h, base)
	if err != nil {
		return nil, err
	}
	f := s.fields(b, base, h)
	fixed := 2*h.SizeShort + 7*h.SizeLong + 4*h.SizePointer + 7*h.SizeDouble + 3*Groups*Groups*h.SizeDouble
	body := fixed + int(h.DVMH.IntervalConstPart) + 16*int(h.DVMH.Threads)
	ivs := make([]Interval, 0, min(h.QFrag, int64(len(b)/body)+1))
	links := make([][3]uint64, 0, cap(ivs))
	byOffset := map[int64]int{}
	for k := int64(0); k < h.QFrag; k++ {
		at := f.offset()
		if !f.need(body) {
			return nil, s.errorf(at, "interval record %d of %d (%d bytes plus its file name) runs past the end of the %d interval bytes",
				k+1, h.QFrag, body, h.LInter)
		}
		var iv Interval
		iv.Num, iv.Offset = int(k+1), at
		var l [3]uint64
		s.decodeRecord(f, &iv, &l, h, metric)
		name, ok := f.cstring()
		if !ok {
			return nil, s.errorf(f.offset(), "interval record %d: source-file name without a terminating NUL before the end of the interval bytes", k+1)
		}
		iv.File = name
		if err := s.checkRecord(&iv, h, at); err != nil {
			return nil, err
		}
		byOffset[at] = iv.Num
		ivs = append(ivs, iv)
		links = append(links, l)
	}
	if err := s.resolveLinks(h, ivs, links, byOffset); err != nil {
		return nil, err
	}
	return ivs, s.checkTree(ivs)
}

// metricSize is the size of one GPU metric in the DVMH interval part. The
// metrics are packed; the part may hold more after them (per-GPU totals),
// which the analyzer does not use.
func (s *stream) metricSize(h Header, at int64) (int, error) {
	m := 2*h.SizeShort + h.SizeLong + 6*h.SizeDouble
	if need := int64(h.SizeLong + MaxGPUs*GPUMetrics*m); h.DVMH.IntervalConstPart < need || h.DVMH.IntervalConstPart > 1<<24 {
		return 0, s.errorf(at, "DVMH interval part of %d bytes, expected %d..%d (a mask and %d x %d metrics of %d bytes)",
			h.DVMH.IntervalConstPart, need, 1<<24, MaxGPUs, GPUMetrics, m)
	}
	return m, nil
}

// decodeRecord reads the fixed fields, the matrix and the DVMH part.
func (s *stream) decodeRecord(f *fields, iv *Interval, links *[3]uint64, h Header, metric int) {
	iv.Level = f.short()
	iv.Type = f.short()
	iv.Line = f.long()
	iv.LineEnd = f.long()
	iv.Expr = f.long()
	iv.QProc = f.long()
	f.long() // ninter: records are numbered by position, which the writer's number equals
	iv.SendCalls = f.long()
	iv.RecvCalls = f.long()
	links[0], links[1], links[2] = f.pointer(), f.pointer(), f.pointer()
	f.pointer() // ptimes: an address in the writer, meaningless here
	for _, p := range []*float64{&iv.Enter, &iv.SendTime, &iv.MinSend, &iv.MaxSend, &iv.RecvTime, &iv.MinRecv, &iv.MaxRecv} {
		*p = f.double()
	}
	decodeMatrix(f, &iv.Times)
	start := f.pos
	iv.GPUMask = f.long()
	for g := range iv.GPUs {
		for m := range iv.GPUs[g] {
			at := f.pos
			x := &iv.GPUs[g][m]
			x.IsReduced = f.short()
			x.HasOwnMeasures = f.short()
			f.pos = at + metric - 6*h.SizeDouble - h.SizeLong
			x.CountMeasures = f.long()
			for _, p := range []*float64{&x.TimeProductive, &x.TimeLost, &x.Min, &x.Mean, &x.Max, &x.Sum} {
				*p = f.double()
			}
		}
	}
	f.pos = start + int(h.DVMH.IntervalConstPart)
	if h.DVMH.Threads > 0 {
		iv.Threads = make([]ThreadTime, h.DVMH.Threads)
		for t := range iv.Threads {
			iv.Threads[t].User = f.double()
			iv.Threads[t].System = f.double()
		}
	}
}

// decodeMatrix reads the 28 x 28 matrix of (count, product, lost) doubles.
func decodeMatrix(f *fields, m *[Groups][Groups]Cell) {
	b := f.b[f.pos : f.pos+3*8*Groups*Groups]
	f.pos += len(b)
	u := f.order.Uint64
	for i := range m {
		for j := range m[i] {
			c := &m[i][j]
			c.Count = math.Float64frombits(u(b[0:]))
			c.Product = math.Float64frombits(u(b[8:]))
			c.Lost = math.Float64frombits(u(b[16:]))
			b = b[24:]
		}
	}
}

// checkRecord validates the identity fields of one record.
func (s *stream) checkRecord(iv *Interval, h Header, at int64) error {
	switch {
	case iv.Type < 5 || iv.Type > TypeUser:
		return s.errorf(at, "interval record %d: unknown interval type %d, expected 20 (main), 21 (seq), 22 (par), 23 (user) or an operation code 5..19",
			iv.Num, iv.Type)
	case iv.Level < 0 || iv.Level > h.MaxLevel:
		return s.errorf(at, "interval record %d: level %d, expected 0..%d (the header's deepest level)", iv.Num, iv.Level, h.MaxLevel)
	case iv.Num == 1 && iv.Level != 0:
		return s.errorf(at, "interval record 1: level %d, expected 0 (the whole program)", iv.Level)
	case iv.Num > 1 && iv.Level == 0:
		return s.errorf(at, "interval record %d: a second level-0 interval (more interval ends than starts)", iv.Num)
	case iv.Enter < 0 || math.IsNaN(iv.Enter):
		return s.errorf(at, "interval record %d: entry count %v, expected >= 0", iv.Num, iv.Enter)
	}
	return nil
}

// resolveLinks turns the writer's up/next/down addresses into interval
// numbers: an address is an offset from the buffer's own address.
func (s *stream) resolveLinks(h Header, ivs []Interval, links [][3]uint64, byOffset map[int64]int) error {
	names := [3]string{"up", "next", "down"}
	for k := range ivs {
		dst := [3]*int{&ivs[k].Up, &ivs[k].Next, &ivs[k].Down}
		for j, p := range links[k] {
			if p == 0 {
				continue
			}
			n, ok := byOffset[int64(p-h.PBuffer)]
			if !ok || p < h.PBuffer {
				return s.errorf(ivs[k].Offset, "interval record %d: broken %s link %#x, expected the address of an interval record",
					ivs[k].Num, names[j], p)
			}
			*dst[j] = n
		}
	}
	return nil
}

// checkTree verifies that the links form the interval tree the levels say.
func (s *stream) checkTree(ivs []Interval) error {
	at := func(n int) *Interval { return &ivs[n-1] }
	for k := range ivs {
		iv := &ivs[k]
		if iv.Num == 1 {
			if iv.Up != 0 || iv.Next != 0 {
				return s.errorf(iv.Offset, "interval record 1: the whole program has a parent or a sibling (broken links)")
			}
		} else if iv.Up == 0 || at(iv.Up).Level != iv.Level-1 {
			return s.errorf(iv.Offset, "interval record %d of level %d: parent link to record %d does not point one level up (broken links: more ends than starts)",
				iv.Num, iv.Level, iv.Up)
		}
		if iv.Next != 0 && (at(iv.Next).Up != iv.Up || iv.Next <= iv.Num) {
			return s.errorf(iv.Offset, "interval record %d: next link to record %d is not a later sibling (broken links)", iv.Num, iv.Next)
		}
		if iv.Down != 0 && (at(iv.Down).Up != iv.Num || iv.Down <= iv.Num) {
			return s.errorf(iv.Offset, "interval record %d: down link to record %d is not a later child (broken links)", iv.Num, iv.Down)
		}
	}
	return nil
}
