package pppa

import (
	"math"

	"github.com/presage-dvm/presage/ingest/sts"
)

// gen indexes the general per-processor values (the analyzer's typetime).
type gen int

const (
	lost       gen = iota // lost time
	insufUsr              // user insufficient parallelism
	insuf                 // system insufficient parallelism
	idle                  // idle time
	comm                  // communication
	rcomm                 // real synchronisation
	sumSyn                // synchronisation
	sumVar                // time variation
	sumOverlap            // overlap
	imb                   // load imbalance
	exec                  // execution time
	cpuUsr                // productive user CPU time
	cpuSys                // productive system CPU time
	ioTime                // input/output time
	start                 // send and receive start time
	proc                  // processors that executed the interval
	thrUser               // threads' user time
	thrSys                // threads' system time
	gpuProd               // GPU productive time
	gpuLost               // GPU lost time
	numGen
)

// op indexes the collective-operation classes (the analyzer's typecom).
type op int

const (
	opIO op = iota
	opRD
	opSH
	opRA
	opRED
	numOps
)

// col indexes the per-operation arrays (the analyzer's typegrp).
type col int

const (
	colCom col = iota
	colRCom
	colSyn
	colVar
	colOverlap
	colCalls
	numCols
)

// values are one processor's values of one interval.
type values struct {
	g   [numGen]float64
	ops [numCols][numOps]float64
	// Row and column sums of the time matrix (count, product, lost): what
	// the analyzer's -m option prints.
	rows, cols [sts.Groups][3]float64
}

// fromMatrix computes the values the time matrix and the send/receive
// statistics give (docs/model.md §10.4).
func fromMatrix(iv *sts.Interval) values {
	var v values
	m := &iv.Times
	var sumPr, sumLs float64
	for i := range sts.Groups {
		v.g[comm] += m[i][sts.GrpMsgPas].Lost
		v.g[rcomm] += m[i][sts.GrpMsgPas].Product
	}
	for j := range sts.Groups {
		v.g[cpuUsr] += m[sts.GrpUser][j].Product
		v.g[insufUsr] += m[sts.GrpUser][j].Lost
		v.g[ioTime] += m[sts.GrpIO][j].Product
	}
	for i := range sts.Groups {
		for j := range sts.Groups {
			sumPr += m[i][j].Product
			sumLs += m[i][j].Lost
		}
	}
	v.g[exec] = sumPr + sumLs - v.g[rcomm]
	v.g[cpuSys] = math.Max(0, sumPr-v.g[cpuUsr]-v.g[rcomm]-v.g[ioTime])
	v.g[insuf] = sumLs - v.g[insufUsr] - v.g[comm]
	v.g[start] = iv.SendTime + iv.RecvTime

	msg := sts.GrpMsgPas
	v.ops[colCom][opRD] = m[sts.GrpWaitRed][msg].Lost + m[sts.GrpStartRed][msg].Lost
	v.ops[colRCom][opRD] = m[sts.GrpWaitRed][msg].Product
	v.ops[colCalls][opRD] = m[sts.GrpUser][sts.GrpWaitRed].Count
	v.ops[colCom][opSH] = m[sts.GrpWaitShd][msg].Lost + m[sts.GrpDoPL][msg].Lost + m[sts.GrpStartShd][msg].Lost
	v.ops[colRCom][opSH] = m[sts.GrpWaitShd][msg].Product + m[sts.GrpDoPL][msg].Product
	v.ops[colCalls][opSH] = m[sts.GrpUser][sts.GrpWaitShd].Count
	v.ops[colCom][opRA] = m[sts.GrpRemAccess][msg].Lost
	v.ops[colRCom][opRA] = m[sts.GrpRemAccess][msg].Product
	v.ops[colCalls][opRA] = m[sts.GrpUser][sts.GrpRemAccess].Count
	v.ops[colCom][opRED] = m[sts.GrpReDistr][msg].Lost
	v.ops[colRCom][opRED] = m[sts.GrpReDistr][msg].Product
	v.ops[colCalls][opRED] = m[sts.GrpUser][sts.GrpReDistr].Count
	v.ops[colCom][opIO] = m[sts.GrpIO][msg].Lost
	v.ops[colRCom][opIO] = m[sts.GrpIO][msg].Product
	v.ops[colCalls][opIO] = m[sts.GrpUser][sts.GrpIO].Count

	for i := range sts.Groups {
		for j := range sts.Groups {
			c := m[i][j]
			for k, x := range [3]float64{c.Count, c.Product, c.Lost} {
				v.rows[i][k] += x
				v.cols[j][k] += x
			}
		}
	}
	v.g[thrUser], v.g[thrSys] = iv.ThreadTimes()
	v.g[gpuProd], v.g[gpuLost] = iv.GPUTimes()
	return v
}

// finish completes an interval once its nested intervals are added.
func (v *values) finish(qproc int64) {
	for o := range numOps {
		v.g[sumSyn] += v.ops[colSyn][o]
		v.g[sumVar] += v.ops[colVar][o]
		v.g[sumOverlap] += v.ops[colOverlap][o]
	}
	v.g[proc] = float64(qproc)
	if qproc != 0 {
		v.g[lost] = v.g[insuf] + v.g[insufUsr] + v.g[idle] + v.g[comm]
	}
}

// add adds a nested interval's values (all but the three sums that finish
// derives from the per-operation arrays).
func (v *values) add(c *values) {
	for k := range numGen {
		if k == sumSyn || k == sumVar || k == sumOverlap {
			continue
		}
		v.g[k] += c.g[k]
	}
	for i := range numCols {
		for o := range numOps {
			v.ops[i][o] += c.ops[i][o]
		}
	}
	for g := range sts.Groups {
		for k := range 3 {
			v.rows[g][k] += c.rows[g][k]
			v.cols[g][k] += c.cols[g][k]
		}
	}
}
