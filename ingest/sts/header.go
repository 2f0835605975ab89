package sts

import (
	"encoding/binary"
	"fmt"
)

// Reader-side sizes the writer's sizes are checked against.
const (
	readerShort  = 2
	readerLong   = 8
	readerDouble = 8
	maxSize      = 16 // larger type sizes are taken as corruption
	// The DVMH header holds 3 longs and 8 GPU entries of a long and a
	// 65-byte name.
	gpuNameLen = 65
)

// decodeHeader reads the general information of a processor buffer.
func (s *stream) decodeHeader() (Header, error) {
	var h Header
	b, err := s.read(10, "the 10-byte buffer prefix (byte-order marker and type sizes)")
	if err != nil {
		return h, err
	}
	switch {
	case b[0] == 1 && b[1] == 0:
		h.Order = binary.LittleEndian
	case b[0] == 0 && b[1] == 1:
		h.Order = binary.BigEndian
	default:
		return h, s.errorf(0, "not a statistics buffer: byte-order marker %02x %02x, expected 1 in either byte order", b[0], b[1])
	}
	h.SizeShort = int(h.Order.Uint16(b[2:]))
	h.SizeLong = int(h.Order.Uint16(b[4:]))
	h.SizePointer = int(h.Order.Uint16(b[6:]))
	h.SizeDouble = int(h.Order.Uint16(b[8:]))
	if h.SizeShort != readerShort || h.SizeDouble != readerDouble {
		return h, s.errorf(2, "bad header sizes: short %d, double %d; expected %d and %d (size of accumulating data > size of machine data)",
			h.SizeShort, h.SizeDouble, readerShort, readerDouble)
	}
	if h.SizeLong < 1 || h.SizeLong > maxSize || h.SizePointer < 1 || h.SizePointer > maxSize {
		return h, s.errorf(4, "bad header sizes: long %d, pointer %d; expected 1..%d", h.SizeLong, h.SizePointer, maxSize)
	}
	n := 4*h.SizeShort + 7*h.SizeLong + h.SizePointer + h.SizeDouble
	b, err = s.read(n, "the buffer header")
	if err != nil {
		return h, err
	}
	f := s.fields(b, 10, h)
	h.Rank = f.short()
	h.MaxLevel = f.short()
	h.SmallBuff = f.short() == 1
	h.VersionLen = f.short()
	h.ProcCount = f.long()
	h.MPSType = f.long()
	h.IOProc = f.long()
	h.QFrag = f.long()
	h.LBuf = f.long()
	h.LInter = f.long()
	h.LSynchro = f.long()
	h.PBuffer = f.pointer()
	h.ProcTime = f.double()
	if err := s.checkCounts(&h); err != nil {
		return h, err
	}
	off := s.off
	b, err = s.read(h.Rank*h.SizeLong, "the processor-grid sizes")
	if err != nil {
		return h, err
	}
	f = s.fields(b, off, h)
	for range h.Rank {
		h.Grid = append(h.Grid, f.long())
	}
	off = s.off
	b, err = s.read(h.VersionLen, "the version block (version, platform, processor name)")
	if err != nil {
		return h, err
	}
	f = s.fields(b, off, h)
	var ok bool
	for _, p := range []*string{&h.Version, &h.Platform, &h.ProcName} {
		if *p, ok = f.cstring(); !ok {
			break
		}
	}
	h.DVMH, err = s.decodeDVMHHeader(h)
	return h, err
}

// checkCounts validates the header counts before they size anything.
func (s *stream) checkCounts(h *Header) error {
	const at = 10
	switch {
	case h.Rank < 0 || h.Rank > 64:
		return s.errorf(at, "processor-grid rank %d, expected 0..64", h.Rank)
	case h.VersionLen <= 0:
		return s.errorf(at, "incorrect version: version block length %d, expected > 0", h.VersionLen)
	case h.LInter <= 0:
		return s.errorf(at, "execution was exit with statistics error: interval bytes %d, expected > 0", h.LInter)
	case h.QFrag <= 0:
		return s.errorf(at, "number of intervals %d, expected > 0", h.QFrag)
	case h.LSynchro < 0:
		return s.errorf(at, "synchronisation bytes %d, expected >= 0", h.LSynchro)
	case h.ProcCount <= 0 || h.ProcCount > 1<<20:
		return s.errorf(at, "processor count %d, expected 1..%d", h.ProcCount, 1<<20)
	case s.size >= 0 && h.LBuf != s.size:
		return s.errorf(at, "buffer size %d in the header, expected %d as the file says", h.LBuf, s.size)
	case h.LBuf < h.LInter+h.LSynchro || h.LInter > h.LBuf || h.LSynchro > h.LBuf:
		return s.errorf(at, "interval bytes %d plus synchronisation bytes %d exceed the buffer size %d", h.LInter, h.LSynchro, h.LBuf)
	}
	return nil
}

// decodeDVMHHeader reads the DVMH header that follows the version block.
func (s *stream) decodeDVMHHeader(h Header) (DVMHHeader, error) {
	var d DVMHHeader
	off := s.off
	b, err := s.read(h.SizeLong, "the DVMH header size")
	if err != nil {
		return d, err
	}
	d.Size = s.fields(b, off, h).long()
	if d.Size < int64(3*h.SizeLong) || d.Size > 1<<20 {
		return d, s.errorf(off, "DVMH header size %d, expected %d..%d", d.Size, 3*h.SizeLong, 1<<20)
	}
	b, err = s.read(int(d.Size)-h.SizeLong, "the DVMH header")
	if err != nil {
		return d, err
	}
	f := s.fields(b, off+int64(h.SizeLong), h)
	d.IntervalConstPart = f.long()
	d.Threads = f.long()
	if d.Threads < 0 || d.Threads > 1<<16 {
		return d, s.errorf(off, "DVMH threads amount %d, expected 0..%d", d.Threads, 1<<16)
	}
	for range MaxGPUs {
		if !f.need(h.SizeLong + gpuNameLen) {
			break
		}
		var g GPU
		g.ID = f.long()
		name := f.b[f.pos : f.pos+gpuNameLen]
		f.skip(gpuNameLen)
		g.Name = cstr(name)
		if g.Name != "" {
			d.GPUs = append(d.GPUs, g)
		}
	}
	return d, nil
}

// cstr returns b up to its first NUL.
func cstr(b []byte) string {
	for i, c := range b {
		if c == 0 {
			return string(b[:i])
		}
	}
	return string(b)
}

// errorf builds an error at buffer offset off of the current processor.
func (s *stream) errorf(off int64, format string, args ...any) error {
	return &Error{File: s.file, Proc: s.proc, Offset: off, Msg: fmt.Sprintf(format, args...)}
}
