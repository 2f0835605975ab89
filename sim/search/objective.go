package search

// Objective orders the configurations of Presage's own search.
type Objective string

const (
	Time       Objective = "time"       // execution time, smallest first
	Efficiency Objective = "efficiency" // parallel efficiency, largest first
	Cost       Objective = "cost"       // time x processors, smallest first
)
