package calibration

import (
	"fmt"
	"math"
	"strings"
	"unicode"
)

// Row is one timed run of a block: the block's name, its parameters α,
// the cost estimate f(α), the measured seconds, the machine and the
// repetition number.
type Row struct {
	Block   string
	Alpha   []float64
	F       float64
	Seconds float64 // the CPU time of the thread that ran it
	Machine string
	Rep     int
	// Copies is how many copies of the block's test ran at once, on as
	// many cores, in this run: 1 (or 0) alone; more time the contention
	// of blocks sharing a machine's memory (Stat.Slowdown).
	Copies int
	// Wall is the run's wall-clock time, 0 when unknown: well above
	// Seconds, the thread waited for a core, and the machine was loaded
	// (Stat.Loaded).
	Wall float64
	// CPU is the CPU the run's thread was pinned to, -1 when it was not
	// pinned (or the file does not say): the cores of a virtual machine
	// need not run a block equally fast, so a block's constant is the
	// mean over the CPUs of each CPU's median (Point.Median).
	CPU int
	// Faults is how many minor page faults the run's thread took (0 when
	// unknown): a run that faulted touched memory fresh from the system,
	// which a program that has run a while seldom does, and may have
	// taken several times its usual time (Point.Median leaves it out).
	Faults int
}

// alone reports whether r ran alone, no other copy at once.
func (r Row) alone() bool { return r.Copies <= 1 }

// C returns the row's constant T/f.
func (r Row) C() float64 { return r.Seconds / r.F }

// check returns what is wrong with r alone, "" when nothing is.
func (r Row) check() string {
	switch {
	case r.Block == "":
		return "block is empty (expected the marked block's name)"
	case r.Machine == "":
		return "machine is empty (expected the machine's name)"
	case hasControl(r.Block):
		return fmt.Sprintf("block %q has a control character (expected a printable name)", r.Block)
	case hasControl(r.Machine):
		return fmt.Sprintf("machine %q has a control character (expected a printable name)", r.Machine)
	case !positive(r.F):
		return fmt.Sprintf("f %v (expected a finite number > 0)", r.F)
	case !positive(r.Seconds):
		return fmt.Sprintf("seconds %v (expected a finite number > 0)", r.Seconds)
	case r.Rep < 0:
		return fmt.Sprintf("rep %d negative", r.Rep)
	case r.Copies < 0:
		return fmt.Sprintf("copies %d negative", r.Copies)
	case r.Wall < 0 || math.IsInf(r.Wall, 1) || math.IsNaN(r.Wall):
		return fmt.Sprintf("wall %v (expected a finite number ≥ 0)", r.Wall)
	case r.CPU < -1:
		return fmt.Sprintf("cpu %d negative (expected a CPU number, or empty when not pinned)", r.CPU)
	case r.Faults < 0:
		return fmt.Sprintf("faults %d negative", r.Faults)
	}
	for i, a := range r.Alpha {
		if math.IsNaN(a) || math.IsInf(a, 0) {
			return fmt.Sprintf("alpha %d is %v (expected a finite number)", i, a)
		}
	}
	return ""
}

// hasControl reports whether s has a control character, which CSV does
// not carry faithfully (a quoted \r\n reads back as \n).
func hasControl(s string) bool {
	return strings.ContainsFunc(s, unicode.IsControl)
}

func positive(x float64) bool { return x > 0 && !math.IsInf(x, 1) }

// key identifies a row's α for a block on a machine.
type key struct {
	block, machine, alpha string
}

// checker rejects rows that contradict earlier ones: the same run twice,
// or two estimates f for the same α.
type checker struct {
	runs map[runKey]int64 // → line
	fs   map[key]fLine
}

type runKey struct {
	key
	rep, copies int
}

type fLine struct {
	f    float64
	line int64
}

func newChecker() *checker {
	return &checker{runs: make(map[runKey]int64), fs: make(map[key]fLine)}
}

// add checks r, found on line, and returns the defect, "" if none.
func (c *checker) add(r Row, line int64) string {
	if msg := r.check(); msg != "" {
		return msg
	}
	k := key{r.Block, r.Machine, formatAlpha(r.Alpha)}
	rk := runKey{k, r.Rep, max(r.Copies, 1)}
	if prev, ok := c.runs[rk]; ok {
		return fmt.Sprintf("repeats the run on line %d (expected one row per block, machine, alpha, rep and copies)", prev)
	}
	c.runs[rk] = line
	if prev, ok := c.fs[k]; ok && prev.f != r.F {
		return fmt.Sprintf("f %v differs from %v on line %d for the same block and alpha (expected f to be a function of alpha)", r.F, prev.f, prev.line)
	}
	c.fs[k] = fLine{r.F, line}
	return ""
}
