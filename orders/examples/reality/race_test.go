//go:build race

package reality

// raceEnabled: the race detector slows the program, not the simulation's
// arithmetic, so timings mean nothing under it.
const raceEnabled = true
