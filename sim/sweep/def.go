package sweep

import (
	"fmt"

	"github.com/presage-dvm/presage/sim/network"
	"github.com/presage-dvm/presage/sim/result"
)

// Kinds of sweeps.
const (
	KindSweep  = "sweep"  // a cartesian product (presage sweep)
	KindSearch = "search" // an optimal-configuration search (presage search)
)

// MachineRef names a machine of a definition. Only its content hash is part
// of the definition's identity: names and store ids differ between stores.
type MachineRef struct {
	Name   string `json:"name"`
	SHA256 string `json:"sha256"`
}

// Definition is what a sweep computes. Its Hash identifies the sweep in
// every store, so it holds contents (hashes), never store ids.
type Definition struct {
	Kind  string `json:"kind"`
	Trace string `json:"trace"` // the trace's name, for people
	// The trace's content hash: the SHA-256 of a trace stored before
	// schema 11 (so that its sweeps keep their identity), else its XXH3.
	TraceSHA  string       `json:"trace_sha256,omitempty"`
	TraceXXH3 string       `json:"trace_xxh3,omitempty"`
	Machines  []MachineRef `json:"machines"`
	Grids     [][]int      `json:"grids"`
	Networks  []string     `json:"networks"`
	// Overrides in seconds (TStart, TByte) and relative power; 0 = the
	// machine file's value.
	TStart     []float64 `json:"tstart"`
	TByte      []float64 `json:"tbyte"`
	Power      []float64 `json:"power"`
	PerProcMax int       `json:"per_proc_max"` // 0 = per-processor rows always
	Options    []string  `json:"options"`      // deviations switched on (sim.Options.Names)
	// Extra distinguishes searches of different objectives or modes.
	Extra string `json:"extra,omitempty"`
}

// Normalize fills the defaults (the default network, no overrides) and
// checks the lists with the simulator's own checks.
func (d *Definition) Normalize() error {
	if d.Kind == "" {
		d.Kind = KindSweep
	}
	if len(d.Networks) == 0 {
		d.Networks = []string{network.Cluster.String()}
	}
	for _, n := range d.Networks {
		if _, err := network.ParseKind(n); err != nil {
			return err
		}
	}
	for _, l := range []*[]float64{&d.TStart, &d.TByte, &d.Power} {
		if len(*l) == 0 {
			*l = []float64{0}
		}
	}
	// Each list on its own: the product of three lists of a million
	// values is too long to walk.
	for _, ts := range d.TStart {
		if err := (result.Config{TStart: ts}).CheckOverrides(); err != nil {
			return fmt.Errorf("sweep: %w", err)
		}
	}
	for _, tb := range d.TByte {
		if err := (result.Config{TByte: tb}).CheckOverrides(); err != nil {
			return fmt.Errorf("sweep: %w", err)
		}
	}
	for _, pw := range d.Power {
		if err := (result.Config{Power: pw}).CheckOverrides(); err != nil {
			return fmt.Errorf("sweep: %w", err)
		}
	}
	if len(d.Machines) == 0 {
		return fmt.Errorf("sweep: no machine")
	}
	if len(d.Grids) == 0 {
		return fmt.Errorf("sweep: no grid")
	}
	for _, g := range d.Grids {
		if err := result.CheckGrid(g); err != nil {
			return fmt.Errorf("sweep: %w", err)
		}
	}
	n := 1
	for _, k := range []int{len(d.Machines), len(d.Grids), len(d.Networks), len(d.TStart), len(d.TByte), len(d.Power)} {
		if k > MaxConfigs/n {
			return fmt.Errorf("sweep: %d machines × %d grids × %d networks × %d tstart × %d tbyte × %d power: more than %d configurations",
				len(d.Machines), len(d.Grids), len(d.Networks), len(d.TStart), len(d.TByte), len(d.Power), MaxConfigs)
		}
		n *= k
	}
	return nil
}

// MaxConfigs bounds the configurations of a definition, so that they are
// counted without overflow.
const MaxConfigs = 1 << 62

// Hash identifies the definition (DefinitionHash) without the names of
// its trace and machines.
func (d Definition) Hash() string {
	c := d
	c.Trace = ""
	c.Machines = make([]MachineRef, len(d.Machines))
	for i, m := range d.Machines {
		c.Machines[i] = MachineRef{SHA256: m.SHA256}
	}
	return DefinitionHash(c)
}

// Config is one configuration of a sweep.
type Config struct {
	Index   int // position in the canonical order
	Machine int // index in Definition.Machines
	Grid    []int
	Network string
	TStart  float64
	TByte   float64
	Power   float64
}

// Position is the configuration's index in the canonical order.
func (c Config) Position() int { return c.Index }

// Procs is the processor count of the configuration's grid.
func (c Config) Procs() int { return result.Config{Grid: c.Grid}.Procs() }

// Configs enumerates the cartesian product in the canonical order: machine,
// grid, network, tstart, tbyte, power, the last varying fastest. Grids with
// more processors than the machine has (procs[i] for machine i) are left out
// and counted in skipped; indexes number the configurations kept.
func (d Definition) Configs(procs []int) (cfgs []Config, skipped int) {
	groups, skipped := d.Groups(procs)
	for _, g := range groups {
		for k := range g.Count {
			cfgs = append(cfgs, d.config(g, g.First+k))
		}
	}
	return cfgs, skipped
}

// Group is the configurations of one machine and grid, numbered First to
// First+Count−1 in the canonical order: they differ only in network,
// TStart, TByte and power.
type Group struct {
	Machine      int // index in Definition.Machines
	Grid         []int
	First, Count int
}

// Groups counts the configurations of Configs by machine and grid without
// listing them, in the same order: a dry run of a product of millions of
// configurations holds a few groups, not the configurations.
func (d Definition) Groups(procs []int) (groups []Group, skipped int) {
	per := len(d.Networks) * len(d.TStart) * len(d.TByte) * len(d.Power)
	next := 0
	for mi := range d.Machines {
		for _, g := range d.Grids {
			if (Config{Grid: g}).Procs() > procs[mi] {
				skipped += per
				continue
			}
			groups = append(groups, Group{Machine: mi, Grid: g, First: next, Count: per})
			next += per
		}
	}
	return groups, skipped
}

// config is configuration i of group g (First ≤ i < First+Count): the
// offset in the group read as digits of network, tstart, tbyte and power,
// power the fastest.
func (d Definition) config(g Group, i int) Config {
	k := i - g.First
	pw := k % len(d.Power)
	k /= len(d.Power)
	tb := k % len(d.TByte)
	k /= len(d.TByte)
	ts := k % len(d.TStart)
	nw := k / len(d.TStart)
	return Config{Index: i, Machine: g.Machine, Grid: g.Grid, Network: d.Networks[nw], TStart: d.TStart[ts], TByte: d.TByte[tb], Power: d.Power[pw]}
}
