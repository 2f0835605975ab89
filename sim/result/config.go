package result

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/presage-dvm/presage/sim/machine"
)

// Config is the machine configuration of a predicted run, or the processor
// grid of a measured one.
type Config struct {
	Machine   string   // machine file name (empty for measured runs)
	MachineID int64    // 0 when not stored
	Grid      []int    // processor grid, e.g. [2 2]
	Network   string   // "cluster", "bus" or "mesh"; "" for measured runs
	TStart    float64  // override of every cluster's start-up time (s); 0 = from the file
	TByte     float64  // override of every cluster's time per byte (s); 0 = from the file
	Power     float64  // override of every processor's power; 0 = from the file
	Options   []string // deviations from the original that are switched on
	// Used are the machine's values the prediction used, filled in by
	// sim with the grid and the network: the override where one was
	// given, else the machine file's. Zero for measured runs and for runs
	// stored before schema 9.
	Used MachineValues
}

// MachineValues are the values of a machine a prediction used: the
// message start-up time (s) and time per byte (s) of its top-level
// cluster, the one that connects its nodes, and the mean relative power
// of the grid's processors.
type MachineValues struct {
	TStart, TByte, Power float64
}

// MaxRank is the largest rank of a processor grid.
const MaxRank = 4

// MaxProcessors bounds the processors of a grid (and of a machine), so
// that a mistyped size cannot exhaust memory or overflow.
const MaxProcessors = 1 << 20

// Procs is the number of processors of the grid.
func (c Config) Procs() int {
	n := 1
	for _, d := range c.Grid {
		n *= d
	}
	return n
}

// CheckGrid is the one validation of a processor grid: rank 1 to MaxRank,
// every size positive, at most MaxProcessors processors in all (checked
// without overflow).
func CheckGrid(grid []int) error {
	if len(grid) < 1 {
		return fmt.Errorf("empty grid: expected 1 to %d dimensions", MaxRank)
	}
	if len(grid) > MaxRank {
		return fmt.Errorf("grid %s has rank %d: at most %d dimensions", GridString(grid), len(grid), MaxRank)
	}
	n := 1
	for _, d := range grid {
		if d < 1 {
			return fmt.Errorf("grid %s: every size must be positive", GridString(grid))
		}
		if d > MaxProcessors/n {
			return fmt.Errorf("grid %s: more than %d processors", GridString(grid), MaxProcessors)
		}
		n *= d
	}
	return nil
}

// CheckOverrides is the one validation of the configuration's overrides:
// each is 0 (the machine file's value) or a finite number in its physical
// range (machine.PowerRange, TStartRange, TByteRange; the unit named in
// the error).
func (c Config) CheckOverrides() error {
	for _, o := range []struct {
		name string
		v    float64
		r    machine.Range
	}{{"tstart", c.TStart, machine.TStartRange}, {"tbyte", c.TByte, machine.TByteRange}, {"power", c.Power, machine.PowerRange}} {
		if math.IsNaN(o.v) || math.IsInf(o.v, 0) || o.v < 0 {
			return fmt.Errorf("%s %g: expected a positive finite number (or 0 for the machine file's value)", o.name, o.v)
		}
		if o.v != 0 && !o.r.Contains(o.v) {
			return fmt.Errorf("%s %g: %s (or 0 for the machine file's value)", o.name, o.v, o.r.Want(1, o.r.Unit))
		}
	}
	return nil
}

// GridString formats the grid as the reports do: "2x2".
func GridString(grid []int) string {
	parts := make([]string, len(grid))
	for i, d := range grid {
		parts[i] = strconv.Itoa(d)
	}
	return strings.Join(parts, "x")
}

// ParseGrid reads a grid such as "2x2", "4" or "2x2x2" and checks it
// (CheckGrid).
func ParseGrid(s string) ([]int, error) {
	fields := strings.Split(strings.ToLower(strings.TrimSpace(s)), "x")
	if len(fields) > MaxRank {
		return nil, fmt.Errorf("grid %q: at most %d dimensions", s, MaxRank)
	}
	grid := make([]int, len(fields))
	for i, f := range fields {
		d, err := strconv.Atoi(f)
		if err != nil || d < 1 {
			return nil, fmt.Errorf("grid %q: dimension %q is not a positive integer (expected e.g. 2x2)", s, f)
		}
		grid[i] = d
	}
	if err := CheckGrid(grid); err != nil {
		return nil, err
	}
	return grid, nil
}

// Micros is a time of the model (seconds) in the unit of the flags, the
// machine files, the store and the exports: microseconds, to 12
// significant digits, so that 10 µs given is 10 (not 10.000000000000002);
// microseconds / 1e6 gives the model the seconds the flags gave it.
func Micros(seconds float64) float64 {
	v, _ := strconv.ParseFloat(strconv.FormatFloat(seconds*1e6, 'g', 12, 64), 64)
	return v
}
