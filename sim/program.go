package sim

import (
	"errors"
	"github.com/presage-dvm/presage/sim/trace"
	"io"

	"github.com/presage-dvm/presage/sim/engine"
	"github.com/presage-dvm/presage/sim/machine"
	"github.com/presage-dvm/presage/sim/result"
)

// Program is a trace compiled for simulation: every call's handler and
// parameters resolved and parsed once, independently of any machine
// configuration. A Program is immutable; many goroutines may Simulate it at
// once.
type Program struct {
	header *trace.Header
	// ops in chunks of chunkOps: a long trace grows without copying and
	// without the slack of a doubled slice.
	chunks [][]engine.Op
	n      int
}

const chunkOps = 1 << 14

// Calls returns the number of traced calls of the program.
func (p *Program) Calls() int { return p.n }

func (p *Program) add(op engine.Op) {
	if k := len(p.chunks); k == 0 || len(p.chunks[k-1]) == chunkOps {
		p.chunks = append(p.chunks, make([]engine.Op, 0, chunkOps))
	}
	last := &p.chunks[len(p.chunks)-1]
	*last = append(*last, op)
	p.n++
}

// Compile reads every call of src and compiles the trace. Defects of the
// trace that depend on the simulation (a missing parameter, an unknown
// object) are reported by Simulate, as Predict reports them.
func Compile(h *trace.Header, src trace.Source) (*Program, error) {
	if h == nil || src == nil {
		return nil, errors.New("sim: Compile needs a trace header and calls")
	}
	comp := engine.NewCompiler()
	p := &Program{header: h}
	for {
		c, err := src.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		p.add(comp.Compile(c))
	}
	if k := len(p.chunks); k > 0 {
		// Trim the last chunk's spare room.
		p.chunks[k-1] = append([]engine.Op(nil), p.chunks[k-1]...)
	}
	return p, nil
}

// Simulate simulates the compiled trace on the machine configuration; it
// gives the same result as Predict on the trace the program was compiled
// from (see Predict for cfg, m and the result).
func Simulate(prog *Program, m *machine.Machine, cfg result.Config, opt Options) (*result.Run, error) {
	if prog == nil || m == nil {
		return nil, errors.New("sim: Simulate needs a program and a machine")
	}
	e, cfg, err := start(prog.header, m, cfg, opt)
	if err != nil {
		return nil, err
	}
	for _, ops := range prog.chunks {
		for len(ops) > 0 { // stopEvery calls at a time
			if err := opt.stop(); err != nil {
				return nil, err
			}
			k := min(len(ops), stopEvery)
			if err := e.ExecAll(ops[:k]); err != nil {
				return nil, err
			}
			ops = ops[k:]
		}
	}
	return finish(e, cfg, opt)
}
