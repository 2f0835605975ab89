package tracegen

import "fmt"

// Program names the model program whose trace is generated.
type Program string

// The model programs.
const (
	// Jacobi is a 2-D Jacobi relaxation on N×N arrays A and B (shadow width
	// 1, template BLOCK,BLOCK with blkdiv_). Each iteration runs a parallel
	// loop with a MAX reduction, renews the shadow edges of A, runs a second
	// parallel loop on B and prints a line.
	Jacobi Program = "jacobi"
	// Gauss is a Gauss elimination of an N×(N+1) system distributed by rows:
	// for every pivot row a parallel loop over the remaining rows reads the
	// pivot row by remote access, then the back substitution reads one
	// element of the solution per step. Iterations repeats the whole solve.
	Gauss Program = "gauss"
)

// Options say what to generate.
type Options struct {
	Program Program
	// N is the array size (Jacobi: N×N, Gauss: N equations); 0 means 64.
	N int
	// Iterations is the number of Jacobi iterations or of Gauss solves;
	// 0 means 20 for Jacobi and 1 for Gauss.
	Iterations int
	// Intervals emits the bsloop_/bploop_/enloop_ interval calls that
	// programs compiled with -e4 and run with statistics write.
	Intervals bool
	// Seed makes the times reproducible.
	Seed int64
	// Calls, when positive, overrides Iterations: the iteration count is
	// chosen so that the trace holds about this many calls (within one
	// iteration's worth).
	Calls int
}

// Defaults and limits of Options.
const (
	DefaultN = 64
	// MaxN bounds N so that element counts and times stay far from int64
	// overflow.
	MaxN = 1 << 22
	// MaxCalls bounds a trace: 100 million calls are about 27 GB of
	// text (1.8 GB gzip-compressed), more than any traced run of the
	// model programs, and minutes to write.
	MaxCalls = 100_000_000
)

// normalize returns opt with defaults applied, or an error naming the
// first unusable field.
func (opt Options) normalize() (Options, error) {
	switch opt.Program {
	case Jacobi, Gauss:
	default:
		return opt, fmt.Errorf("tracegen: unknown program %q: want %q or %q", opt.Program, Jacobi, Gauss)
	}
	if opt.N == 0 {
		opt.N = DefaultN
	}
	if lo := minN(opt.Program); opt.N < lo || opt.N > MaxN {
		return opt, fmt.Errorf("tracegen: N = %d: want %d..%d for %s", opt.N, lo, MaxN, opt.Program)
	}
	if opt.Iterations < 0 {
		return opt, fmt.Errorf("tracegen: Iterations = %d: want >= 0", opt.Iterations)
	}
	if opt.Calls < 0 {
		return opt, fmt.Errorf("tracegen: Calls = %d: want >= 0", opt.Calls)
	}
	fixed, per := plan(opt)
	switch {
	case opt.Calls > 0:
		opt.Iterations = max(1, (opt.Calls-fixed+per/2)/per)
	case opt.Iterations == 0 && opt.Program == Jacobi:
		opt.Iterations = 20
	case opt.Iterations == 0:
		opt.Iterations = 1
	}
	switch {
	case opt.Calls > MaxCalls:
		return opt, fmt.Errorf("tracegen: Calls = %d: want at most %d (MaxCalls)", opt.Calls, MaxCalls)
	case opt.Calls == 0 && int64(opt.Iterations) > (MaxCalls-int64(fixed))/int64(per):
		return opt, fmt.Errorf("tracegen: Iterations = %d of %d calls each: more than %d calls (MaxCalls)", opt.Iterations, per, MaxCalls)
	}
	return opt, nil
}

// Plan returns how many calls the trace opt describes holds, after its
// defaults: the count Write would return, or an error naming the first
// unusable field (a size past MaxCalls among them).
func Plan(opt Options) (calls int64, err error) {
	opt, err = opt.normalize()
	if err != nil {
		return 0, err
	}
	fixed, per := plan(opt)
	return int64(fixed) + int64(opt.Iterations)*int64(per), nil
}

// minN is the smallest array size whose loops are not empty.
func minN(p Program) int {
	if p == Jacobi {
		return 3 // the relaxation loops run over 2..N-1
	}
	return 2
}

// plan returns the number of calls outside the iterations and the number
// per iteration, so that a trace holds fixed + Iterations·per calls.
// It must match what jacobi and gauss emit; the tests check it does.
func plan(opt Options) (fixed, per int) {
	iv := 0
	if opt.Intervals {
		iv = 1
	}
	switch opt.Program {
	case Jacobi:
		// prologue 9 + init loop 5 + epilogue 6; intervals: program,
		// init loop (2), iteration loop (2).
		// iteration: reduction loop 11, shadow loop 10, print 1;
		// intervals: two parallel loops (4).
		return 20 + 5*iv, 22 + 4*iv
	default:
		// prologue 7 + epilogue 6; interval: program.
		// solve: init loop 5, 8 per elimination and 8 per back-substitution
		// step (N-1 each), print 1; intervals: init loop 2, the two
		// sequential loops 2 each, 2 per step.
		n := opt.N
		return 13 + iv, 16*n - 10 + iv*(4*n+2)
	}
}
