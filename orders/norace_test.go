//go:build !race

package orders

const raceEnabled = false
