package engine

import "github.com/presage-dvm/presage/sim/result"

// cnt indexes the per-processor counters of an interval (docs/model.md §6.1).
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

// kindSpec lists the counters a kind increases (cs[:n]) and whether it
// advances the processor's clock.
type kindSpec struct {
	cs    [4]cnt
	n     uint8
	clock bool
}

func spec(clock bool, cs ...cnt) kindSpec {
	k := kindSpec{n: uint8(len(cs)), clock: clock}
	copy(k.cs[:], cs)
	return k
}

// kindInfo is the AddTime table of docs/model.md §6.1, read through
// pointers to its entries (internal/arch's GlobalState: read only).
//
//arch:readonly
var kindInfo = [nKinds]kindSpec{
	KIOTime:        spec(true, cIO, cExec),
	KUsr:           spec(true, cUsr, cCPU, cExec),
	KSys:           spec(true, cSys, cCPU, cExec),
	KWaitReduct:    spec(true, cClassComm+cnt(result.OpReduction), cComm, cLost, cExec),
	KWaitShadow:    spec(true, cClassComm+cnt(result.OpShadow), cComm, cLost, cExec),
	KRemote:        spec(true, cClassComm+cnt(result.OpRemote), cComm, cLost, cExec),
	KRedist:        spec(true, cClassComm+cnt(result.OpRedistribution), cComm, cLost, cExec),
	KIOComm:        spec(true, cClassComm+cnt(result.OpIO), cComm, cLost, cExec),
	KInsUsr:        spec(false, cInsU, cIns, cLost),
	KInsSys:        spec(false, cInsS, cIns, cLost),
	KShadowOverlap: spec(false, cClassOver+cnt(result.OpShadow), cOver),
	KReductOverlap: spec(false, cClassOver+cnt(result.OpReduction), cOver),
	KRemoteOverlap: spec(false, cClassOver+cnt(result.OpRemote), cOver),
}

// counters returns the counters of the kind.
func (k *kindSpec) counters() []cnt { return k.cs[:k.n] }

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
