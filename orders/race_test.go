//go:build race

package orders

// raceEnabled: the race detector keeps shadow memory beside the heap, in
// pages of its own, so page faults counted under it are not the heap's.
const raceEnabled = true
