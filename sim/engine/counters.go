package engine

import "github.com/presage-dvm/presage/sim/result"

// cnt indexes the per-processor counters of an interval (MODEL.md §6.1).
type cnt uint8

const (
	cExec cnt = iota
	cCPU
	cUsr
	cSys
	cIO
	cLost
	cIns
	cInsU
	cInsS
	cComm
	cSynch
	cVary
	cOver
	cClassComm  // + class: IO_comm, Wait_reduction, Wait_shadow, Remote_access, Redistribution
	cClassSynch = cClassComm + 5
	cClassVary  = cClassSynch + 5
	cClassOver  = cClassVary + 5
	nCnt        = cClassOver + 5
)

// counters are one processor's values in one interval.
type counters [nCnt]float64

// class is an operation class, in result.OpClass order.
type class = result.OpClass

// Kind is the kind of an AddTime charge.
type Kind uint8

const (
	KIOTime Kind = iota
	KUsr
	KSys
	KWaitReduct
	KWaitShadow
	KRemote
	KRedist
	KIOComm
	KInsUsr
	KInsSys
	KShadowOverlap
	KReductOverlap
	KRemoteOverlap
	nKinds
)

// kindInfo lists the counters a kind increases and whether it advances the
// processor's clock.
var kindInfo = [nKinds]struct {
	cs    []cnt
	clock bool
}{
	KIOTime:        {[]cnt{cIO, cExec}, true},
	KUsr:           {[]cnt{cUsr, cCPU, cExec}, true},
	KSys:           {[]cnt{cSys, cCPU, cExec}, true},
	KWaitReduct:    {[]cnt{cClassComm + cnt(result.OpReduction), cComm, cLost, cExec}, true},
	KWaitShadow:    {[]cnt{cClassComm + cnt(result.OpShadow), cComm, cLost, cExec}, true},
	KRemote:        {[]cnt{cClassComm + cnt(result.OpRemote), cComm, cLost, cExec}, true},
	KRedist:        {[]cnt{cClassComm + cnt(result.OpRedistribution), cComm, cLost, cExec}, true},
	KIOComm:        {[]cnt{cClassComm + cnt(result.OpIO), cComm, cLost, cExec}, true},
	KInsUsr:        {[]cnt{cInsU, cIns, cLost}, false},
	KInsSys:        {[]cnt{cInsS, cIns, cLost}, false},
	KShadowOverlap: {[]cnt{cClassOver + cnt(result.OpShadow), cOver}, false},
	KReductOverlap: {[]cnt{cClassOver + cnt(result.OpReduction), cOver}, false},
	KRemoteOverlap: {[]cnt{cClassOver + cnt(result.OpRemote), cOver}, false},
}

// kindClass is the operation class of a communication kind (for the
// synchronisation counters).
func kindClass(k Kind) class {
	switch k {
	case KWaitReduct:
		return result.OpReduction
	case KWaitShadow:
		return result.OpShadow
	case KRemote:
		return result.OpRemote
	case KRedist:
		return result.OpRedistribution
	}
	return result.OpIO
}

const (
	classIO        = result.OpIO
	classReduction = result.OpReduction
	classShadow    = result.OpShadow
	classRemote    = result.OpRemote
	classRedist    = result.OpRedistribution
)
