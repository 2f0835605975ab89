package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/presage-dvm/presage/sim/result"

	"github.com/presage-dvm/presage/sim/machine"
)

// maxListLen bounds the values a range may expand to, so that a typo such
// as 1..1e9 cannot exhaust memory.
const maxListLen = 1 << 20

// parseInts reads a list of positive integers: "1,2,4", a range "1..8", a
// range with a step "2..64:2", or a geometric range "1..1024:*2"; items may
// be mixed: "1,3..5". The result keeps the written order.
func parseInts(s string) ([]int, error) {
	var out []int
	for _, item := range splitList(s) {
		a, rest, isRange := strings.Cut(item, "..")
		if !isRange {
			v, err := strconv.Atoi(item)
			if err != nil || v < 1 {
				return nil, fmt.Errorf("list %q: %q is not a positive integer", s, item)
			}
			out = append(out, v)
			continue
		}
		hi, step, ok := strings.Cut(rest, ":")
		from, err1 := strconv.Atoi(a)
		to, err2 := strconv.Atoi(hi)
		if err1 != nil || err2 != nil || from < 1 || to < from {
			return nil, fmt.Errorf("list %q: range %q: expected a..b with 1 <= a <= b", s, item)
		}
		next, err := stepper(step, ok)
		if err != nil {
			return nil, fmt.Errorf("list %q: range %q: %v", s, item, err)
		}
		for v := from; v <= to; v = next(v) {
			if len(out) >= maxListLen {
				return nil, fmt.Errorf("list %q: more than %d values", s, maxListLen)
			}
			out = append(out, v)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("list %q: no values", s)
	}
	return out, nil
}

// stepper returns the successor function of an integer range: +1 by
// default, +k for ":k", ×k for ":*k".
func stepper(step string, given bool) (func(int) int, error) {
	if !given {
		return func(v int) int { return v + 1 }, nil
	}
	if f, ok := strings.CutPrefix(step, "*"); ok {
		k, err := strconv.Atoi(f)
		if err != nil || k < 2 {
			return nil, fmt.Errorf("step %q: expected *k with k >= 2", step)
		}
		return func(v int) int { return v * k }, nil
	}
	k, err := strconv.Atoi(step)
	if err != nil || k < 1 {
		return nil, fmt.Errorf("step %q: expected a positive integer or *k", step)
	}
	return func(v int) int { return v + k }, nil
}

// parseRange reads an inclusive range of positive integers "a..b" (or a
// single number).
func parseRange(s string) (lo, hi int, err error) {
	a, b, ok := strings.Cut(strings.TrimSpace(s), "..")
	if !ok {
		b = a
	}
	lo, err1 := strconv.Atoi(a)
	hi, err2 := strconv.Atoi(b)
	if err1 != nil || err2 != nil || lo < 1 || hi < lo {
		return 0, 0, fmt.Errorf("range %q: expected a..b with 1 <= a <= b", s)
	}
	return lo, hi, nil
}

// checkOverride checks the value of an override flag: positive and
// finite. Zero would silently mean "the machine file's value", the
// default of a flag not given.
func checkOverride(flag string, v float64) error {
	if !(v > 0) || math.IsInf(v, 0) {
		return fmt.Errorf("%s %v: expected a positive finite number (leave the flag out for the machine file's values)", flag, v)
	}
	return checkPhysical(flag, v)
}

// flagRange is the physical range of an override flag (sim/machine's
// ranges, in seconds) and the unit the flag is given in.
type flagRange struct {
	machine.Range
	per  float64 // the flag's value is per times the range's
	unit string
}

// overrideRanges are the ranges of the override flags of predict, search
// and sweep.
var overrideRanges = map[string]flagRange{
	"--tstart": {machine.TStartRange, 1e6, "microseconds"},
	"--tbyte":  {machine.TByteRange, 1e6, "microseconds per byte"},
	"--power":  {machine.PowerRange, 1, machine.PowerRange.Unit},
}

// checkPhysical checks v, a value of the override flag in the flag's
// unit, against the flag's physical range, naming the unit.
func checkPhysical(flag string, v float64) error {
	r, ok := overrideRanges[flag]
	if !ok || r.Contains(v/r.per) {
		return nil
	}
	return fmt.Errorf("%s %v: %s", flag, v, r.Want(r.per, r.unit))
}

// parseFloats reads a list of positive numbers: "1e-5,2e-5", or a
// linear range "0.5..2:0.5" (step required). The values are divided by
// per (1e6 turns microseconds into seconds, as predict does).
func parseFloats(s string, per float64) ([]float64, error) {
	var out []float64
	for _, item := range splitList(s) {
		a, rest, isRange := strings.Cut(item, "..")
		if !isRange {
			v, err := strconv.ParseFloat(item, 64)
			if err != nil || !(v > 0) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("list %q: %q is not a positive finite number", s, item)
			}
			out = append(out, v/per)
			continue
		}
		b, st, ok := strings.Cut(rest, ":")
		from, err1 := strconv.ParseFloat(a, 64)
		to, err2 := strconv.ParseFloat(b, 64)
		step, err3 := strconv.ParseFloat(st, 64)
		if !ok || err1 != nil || err2 != nil || err3 != nil || !(from > 0) || !(to >= from) || math.IsInf(to, 0) || !(step > 0) {
			return nil, fmt.Errorf("list %q: range %q: expected a..b:step with 0 < a <= b finite and step > 0", s, item)
		}
		if (to-from)/step >= maxListLen {
			return nil, fmt.Errorf("list %q: more than %d values", s, maxListLen)
		}
		// Multiplying instead of accumulating keeps 0.1-steps exact enough
		// that the end point is not lost to rounding.
		for i := 0; ; i++ {
			v := from + float64(i)*step
			if v > to*(1+1e-12) {
				break
			}
			out = append(out, v/per)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("list %q: no values", s)
	}
	return out, nil
}

// parseGrids reads a list of processor grids: "2x2,4x4,8".
func parseGrids(s string) ([][]int, error) {
	var out [][]int
	for _, item := range splitList(s) {
		g, err := result.ParseGrid(item)
		if err != nil {
			return nil, fmt.Errorf("grid list %q: %v", s, err)
		}
		out = append(out, g)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("grid list %q: no grids", s)
	}
	return out, nil
}

// parseNames reads a comma-separated list of names.
func parseNames(s string) []string {
	return splitList(s)
}

func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}
