package engine

import "github.com/presage-dvm/presage/sim/network"

// Batch sends that only need their span (network.SendSpan): the engine
// tells the network the latest clock of the senders, found once per class
// of processors rather than once per message, and hands it the clocks as
// it keeps them, per class.

// senderClasses are the distinct classes of a list of processors, valid
// while no processor changes class.
type senderClasses struct {
	moves   int // classes.moves + 1 when made; 0: not made
	classes []int32
}

// classesOf returns the distinct classes of procs, cached in sc.
func (e *Engine) classesOf(procs []int, sc *senderClasses) []int32 {
	if sc.moves == e.classes.moves+1 {
		return sc.classes
	}
	seen := make([]bool, e.classes.count())
	sc.classes = sc.classes[:0]
	for _, p := range procs {
		if c := e.classes.of[p]; !seen[c] {
			seen[c] = true
			sc.classes = append(sc.classes, c)
		}
	}
	sc.moves = e.classes.moves + 1
	return sc.classes
}

// clockRange returns the earliest and the latest clock of procs. A clock
// is clkU plus its class's offset, and adding clkU is monotone, so the
// extremes are those of the classes' offsets.
func (e *Engine) clockRange(procs []int, sc *senderClasses) (earliest, latest float64) {
	classes := e.classesOf(procs, sc)
	lo, hi := e.clk[classes[0]], e.clk[classes[0]]
	for _, c := range classes[1:] {
		lo, hi = min(lo, e.clk[c]), max(hi, e.clk[c])
	}
	return e.clkU + lo, e.clkU + hi
}

// sendSpan sends batch b, message i issued at the clock of procs[i]
// (between earliest and latest), channel by channel, and returns the
// latest end.
func (e *Engine) sendSpan(b *network.Batch, procs []int, earliest, latest float64) float64 {
	e.clocks = network.Clocks{Base: e.clkU, Offset: e.clk, Class: e.classes.of}
	return e.net.SendSpan(b, procs, &e.clocks, earliest, latest)
}
