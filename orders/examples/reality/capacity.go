package reality

import (
	"math"
	"sync"
	"time"
)

// Capacity measures how many cores the machine gives this process now:
// the speedup of n goroutines spinning on a fixed amount of work each
// over one doing it alone, the best of three tries. On a machine shared
// with other work it is below n, and a check on n workers cannot expect
// a prediction for n free cores to hold. For one, the measure is one
// goroutine against itself: 1, which it returns without spinning (the
// tries took 0.15 s, twice for every figure on one worker).
func Capacity(n int) float64 {
	if n <= 1 {
		return 1
	}
	// About 8 ms of spinning a goroutine here: on an idle machine of 2
	// cores the best of three tries read 2.01 to 2.09 in ten rounds (2.00
	// to 2.03 with four times the work, 0.13 s more a call, which the
	// reality check makes 480 times).
	const work = 1_000_000
	best := 0.0
	for range 3 {
		one := spin(1, work)
		all := spin(n, work)
		best = max(best, float64(n)*one.Seconds()/all.Seconds())
	}
	return best
}

// spin runs n goroutines doing work steps each and returns the wall time.
func spin(n, work int) time.Duration {
	var wg sync.WaitGroup
	start := time.Now()
	for range n {
		wg.Go(func() {
			x := 1.0
			for i := range work {
				x = math.Sqrt(x + float64(i))
			}
			sink(x)
		})
	}
	wg.Wait()
	return time.Since(start)
}

var sinkMu sync.Mutex

//lint:ignore U1000 written only: the busy loops' results must go somewhere, or the compiler drops the loops
var sunk float64

func sink(x float64) {
	sinkMu.Lock()
	sunk += x
	sinkMu.Unlock()
}
