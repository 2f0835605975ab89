package sweep

import (
	"context"
	"fmt"

	"github.com/jmoiron/sqlx"

	"github.com/presage-dvm/presage/ingest/machine"
	"github.com/presage-dvm/presage/ingest/machinedb"
	"github.com/presage-dvm/presage/sim"
)

// Request names what to sweep in terms of the store.
type Request struct {
	Kind     string   // KindSweep (default) or KindSearch
	Trace    string   // stored trace, name or id
	Machines []string // stored machines, names or ids
	Grids    [][]int
	Networks []string  // default cluster
	TStart   []float64 // seconds; default: the file's
	TByte    []float64 // seconds; default: the file's
	Power    []float64 // default: the file's
	// PerProcMax limits the per-processor rows to runs of at most this many
	// processors (0: always written).
	PerProcMax int
	Options    sim.Options
	Extra      string // see Definition.Extra
}

// Plan is a request resolved against the store: the trace in memory, the
// machines parsed, the configurations enumerated.
type Plan struct {
	Def      Definition
	Trace    *Trace
	Machines []*machine.Machine
	Infos    []machinedb.Info
	Configs  []Config // all configurations in canonical order
	Skipped  int      // left out: grid larger than the machine
	Options  sim.Options
}

// NewPlan loads and compiles the trace (once, for all configurations) and
// loads the machines.
func NewPlan(ctx context.Context, db *sqlx.DB, req Request) (*Plan, error) {
	tr, err := LoadTrace(ctx, db, req.Trace, nil)
	if err != nil {
		return nil, err
	}
	return PlanFor(db, tr, req)
}

// PlanFor is NewPlan for a trace loaded already (req.Trace is ignored).
func PlanFor(db *sqlx.DB, tr *Trace, req Request) (*Plan, error) {
	p := &Plan{Trace: tr, Options: req.Options}
	p.Options.Trace = tr.Name
	def := Definition{
		Kind: req.Kind, Trace: tr.Name, TraceSHA: tr.SHA256, Grids: req.Grids, Networks: req.Networks,
		TStart: req.TStart, TByte: req.TByte, Power: req.Power, PerProcMax: req.PerProcMax,
		Options: req.Options.Names(), Extra: req.Extra,
	}
	if len(req.Machines) == 0 {
		return nil, fmt.Errorf("sweep: no machine given")
	}
	procs := make([]int, len(req.Machines))
	for i, name := range req.Machines {
		m, info, err := machinedb.Load(db, name)
		if err != nil {
			return nil, err
		}
		p.Machines = append(p.Machines, m)
		p.Infos = append(p.Infos, info)
		def.Machines = append(def.Machines, MachineRef{Name: info.Name, SHA256: info.SHA256})
		procs[i] = m.Processors()
	}
	if err := def.Normalize(); err != nil {
		return nil, err
	}
	p.Def = def
	p.Configs, p.Skipped = def.Configs(procs)
	return p, nil
}
