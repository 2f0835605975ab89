//go:build !race

package reality

const raceEnabled = false
