package sts

import (
	"encoding/binary"

	"github.com/presage-dvm/presage/schema/stored"
)

// Interval type codes of the run-time system (docs/model.md §10.3).
const (
	TypeMain = 20 // the whole program (prefix interval)
	TypeSeq  = 21 // sequential loop or block
	TypePar  = 22 // parallel loop
	TypeUser = 23 // user interval (binter_/einter_)
)

// NoExpr is the expression value of an interval that has none.
const NoExpr = 2000000000

// Matrix dimensions and DVMH sizes fixed by the run-time system.
const (
	Groups     = stored.StsGroups // operation groups: rows and columns of the time matrix
	MaxGPUs    = 8
	GPUMetrics = 22
)

// Operation groups (rows and columns of the time matrix) the analyzer uses.
const (
	GrpUser      = 0
	GrpMsgPas    = 1
	GrpStartRed  = 2
	GrpWaitRed   = 3
	GrpStartShd  = 5
	GrpWaitShd   = 6
	GrpReDistr   = 9
	GrpDoPL      = 11
	GrpIO        = 13
	GrpRemAccess = 14
)

// File is a decoded statistics file: one buffer per processor, in rank order.
type File struct {
	Name   string // the name given to Read or Decode
	Layout string // "gz+" or "plain"
	Procs  []Proc
}

// Proc is the statistics buffer of one processor.
type Proc struct {
	Header    Header
	Intervals []Interval   // in file order; Intervals[k].Num == k+1
	Times     []TimeRecord // in event order (the buffer stores them backwards)
}

// Header is the general information at the start of a processor buffer.
type Header struct {
	Order                                        binary.ByteOrder // byte order of the writer
	SizeShort, SizeLong, SizePointer, SizeDouble int              // sizes on the writing machine
	Rank                                         int              // rank of the processor grid
	MaxLevel                                     int              // deepest interval level
	SmallBuff                                    bool             // not all collective-operation times were stored
	VersionLen                                   int
	ProcCount, MPSType, IOProc                   int64
	QFrag                                        int64 // number of interval records
	LBuf, LInter, LSynchro                       int64 // buffer size; bytes of interval and time records
	PBuffer                                      uint64
	ProcTime                                     float64 // processor performance-test time
	Grid                                         []int64 // processor grid sizes
	Version, Platform, ProcName                  string
	DVMH                                         DVMHHeader
}

// DVMHHeader describes the DVMH part of the buffer.
type DVMHHeader struct {
	Size              int64 // bytes of this header
	IntervalConstPart int64 // bytes of the fixed DVMH part of each interval record
	Threads           int64 // threads per processor
	GPUs              []GPU
}

// GPU names one accelerator of a processor.
type GPU struct {
	ID   int64
	Name string
}

// Cell is one entry of the time matrix.
type Cell struct {
	Count, Product, Lost float64
}

// Interval is one interval record.
type Interval struct {
	Num       int   // 1-based number in file order (the record's ninter)
	Offset    int64 // buffer offset of the record
	Level     int
	Type      int
	Line      int64
	LineEnd   int64
	Expr      int64 // NoExpr when none
	QProc     int64 // number of processors that executed the interval
	SendCalls int64
	RecvCalls int64
	Up        int // parent's number, 0 for the root
	Next      int // next sibling's number, 0 if none
	Down      int // first child's number, 0 if none
	Enter     float64
	SendTime  float64
	MinSend   float64
	MaxSend   float64
	RecvTime  float64
	MinRecv   float64
	MaxRecv   float64
	Times     [Groups][Groups]Cell // [calling group][group that spent the time]
	GPUMask   int64
	GPUs      [MaxGPUs][GPUMetrics]GPUMetric
	Threads   []ThreadTime
	File      string
}

// GPUMetric is one DVMH metric of one GPU in one interval.
type GPUMetric struct {
	IsReduced, HasOwnMeasures int
	CountMeasures             int64
	TimeProductive, TimeLost  float64
	Min, Mean, Max, Sum       float64
}

// ThreadTime is the CPU time of one thread in one interval.
type ThreadTime struct {
	User, System float64
}

// TimeRecord is a collective-operation event: items 1..20 are entries,
// item+20 the matching returns (docs/model.md §10.5).
type TimeRecord struct {
	Item     int
	Interval int    // 1-based interval number
	Group    uint64 // address of the operation group in the writer
	Time     float64
}

// GPUTimes returns the interval's GPU productive and lost time: the sums
// over GPUs and metrics of the positive values.
func (iv *Interval) GPUTimes() (prod, lost float64) {
	for g := range iv.GPUs {
		var p, l float64
		for _, m := range iv.GPUs[g] {
			if m.TimeProductive > 0 {
				p += m.TimeProductive
			}
			if m.TimeLost > 0 {
				l += m.TimeLost
			}
		}
		if p > 0 {
			prod += p
		}
		if l > 0 {
			lost += l
		}
	}
	return prod, lost
}

// ThreadTimes returns the sums of the positive user and system times of
// the interval's threads.
func (iv *Interval) ThreadTimes() (user, sys float64) {
	for _, t := range iv.Threads {
		if t.User > 0 {
			user += t.User
		}
		if t.System > 0 {
			sys += t.System
		}
	}
	return user, sys
}
