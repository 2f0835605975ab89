package sweep

import (
	"context"
	"fmt"

	"github.com/presage-dvm/presage/sim"
	"github.com/presage-dvm/presage/sim/machine"
	"github.com/presage-dvm/presage/sim/result"
)

// Machine is a machine of a plan: the parsed file with the name and store
// id its runs record.
type Machine struct {
	Name    string
	ID      int64 // 0 when not stored
	SHA256  string
	Machine *machine.Machine
}

// Plan is a definition resolved against its inputs: the trace compiled
// once for all configurations, the machines parsed, the configurations
// enumerated.
type Plan struct {
	Def      Definition
	Program  *sim.Program
	Machines []Machine
	Configs  []Config // all configurations in canonical order (nil in a counted plan)
	Groups   []Group  // the configurations by machine and grid, counted
	Skipped  int      // left out: grid larger than the machine
	Options  sim.Options
}

// NewPlan normalizes def (filling its Machines from machines) and
// enumerates its configurations. opt.Trace names the trace in messages.
func NewPlan(def Definition, prog *sim.Program, machines []Machine, opt sim.Options) (*Plan, error) {
	p, err := NewCountedPlan(def, prog, machines, opt)
	if err != nil {
		return nil, err
	}
	p.Configs, _ = p.Def.Configs(p.procs())
	return p, nil
}

// NewCountedPlan is NewPlan without the list of configurations (Configs
// stays nil), for a dry run: EstimateRows counts them by group, so that
// its memory does not grow with the product of the lists.
func NewCountedPlan(def Definition, prog *sim.Program, machines []Machine, opt sim.Options) (*Plan, error) {
	if len(machines) == 0 {
		return nil, fmt.Errorf("sweep: no machine given")
	}
	def.Machines = nil
	procs := make([]int, len(machines))
	for i, m := range machines {
		def.Machines = append(def.Machines, MachineRef{Name: m.Name, SHA256: m.SHA256})
		procs[i] = m.Machine.Processors()
	}
	def.Options = opt.Names()
	if err := def.Normalize(); err != nil {
		return nil, err
	}
	p := &Plan{Def: def, Program: prog, Machines: machines, Options: opt}
	p.Groups, p.Skipped = def.Groups(procs)
	return p, nil
}

// procs is the processor count of each machine of the plan.
func (p *Plan) procs() []int {
	procs := make([]int, len(p.Machines))
	for i, m := range p.Machines {
		procs[i] = m.Machine.Processors()
	}
	return procs
}

// Simulate simulates one configuration of the plan; it is safe for
// concurrent use. A cancelled ctx stops it before it starts, or between
// steps of the simulation (sim.Options.Stop).
func (p *Plan) Simulate(ctx context.Context, c Config) (*result.Run, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	m := p.Machines[c.Machine]
	cfg := result.Config{Machine: m.Name, MachineID: m.ID, Grid: c.Grid, Network: c.Network,
		TStart: c.TStart, TByte: c.TByte, Power: c.Power}
	opt := p.Options
	opt.Stop = ctx.Err
	run, err := sim.Simulate(p.Program, m.Machine, cfg, opt)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("configuration %d (%s): %w", c.Index, p.Describe(c), err)
	}
	return run, nil
}

// Describe names a configuration for messages: "Predictor 2x2 cluster".
func (p *Plan) Describe(c Config) string {
	s := fmt.Sprintf("%s %s %s", p.Def.Machines[c.Machine].Name, result.GridString(c.Grid), c.Network)
	if c.TStart != 0 {
		s += fmt.Sprintf(" tstart=%gs", c.TStart)
	}
	if c.TByte != 0 {
		s += fmt.Sprintf(" tbyte=%gs", c.TByte)
	}
	if c.Power != 0 {
		s += fmt.Sprintf(" power=%g", c.Power)
	}
	return s
}
