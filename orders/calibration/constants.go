package calibration

// Constants are the c̄ of each block on one machine: the runtime's record
// mode prices a block of estimate f at c̄·f seconds.
type Constants map[string]float64

// ConstantsOf returns the constants measured on machine.
func ConstantsOf(stats []Stat, machine string) Constants {
	c := make(Constants)
	for _, s := range stats {
		if s.Machine == machine {
			c[s.Block] = s.Mean
		}
	}
	return c
}

// Price returns the seconds a block of estimate f takes; ok is false for
// a block that was not calibrated.
func (c Constants) Price(block string, f float64) (seconds float64, ok bool) {
	cbar, ok := c[block]
	return cbar * f, ok
}
