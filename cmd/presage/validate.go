package main

import (
	"fmt"
	"math"
	"strings"

	"github.com/presage-dvm/presage/sim/machine"
)

// The commands' Validate methods check their numeric flags before any
// work (kong calls them while parsing, so that a bad value is a
// command-line error: one line, exit 2): a negative --top or deadline, a
// rank out of range are refused, never clamped or acted on.

// flagRule is what a flag's value must be.
type flagRule struct {
	flag  string
	value any
	ok    bool
	want  string
}

// checkFlags returns the first rule broken.
func checkFlags(rules ...flagRule) error {
	for _, r := range rules {
		if !r.ok {
			return fmt.Errorf("%s %v: expected %s", r.flag, r.value, r.want)
		}
	}
	return nil
}

func atLeast(flag string, v, lo int) flagRule {
	return flagRule{flag, v, v >= lo, fmt.Sprintf("an integer ≥ %d", lo)}
}

func between(flag string, v, lo, hi int) flagRule {
	return flagRule{flag, v, v >= lo && v <= hi, fmt.Sprintf("an integer from %d to %d", lo, hi)}
}

// seconds: a duration, 0 meaning none.
func seconds(flag string, v float64) flagRule {
	return flagRule{flag, v, v >= 0 && !math.IsInf(v, 0), "a finite number of seconds ≥ 0"}
}

// nodeSeconds: a cost budget, 0 meaning none.
func nodeSeconds(flag string, v float64) flagRule {
	return flagRule{flag, v, v >= 0 && !math.IsInf(v, 0), "a finite number of node-seconds ≥ 0"}
}

// positive: a finite value > 0.
func positive(flag string, v float64) flagRule {
	return flagRule{flag, v, v > 0 && !math.IsInf(v, 0), "a finite number > 0"}
}

// fraction: a share from 0 to 1, 0 meaning none.
func fraction(flag string, v float64) flagRule {
	return flagRule{flag, v, v >= 0 && v <= 1, "a number from 0 to 1"}
}

// inRange: a physical quantity in r (sim/machine's ranges), given in a
// unit per times r's.
func inRange(flag string, v float64, r machine.Range, per float64, unit string) flagRule {
	return flagRule{flag, v, r.Contains(v / per), strings.TrimPrefix(r.Want(per, unit), "expected ")}
}
