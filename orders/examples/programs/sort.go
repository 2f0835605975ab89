package programs

import (
	"math"
	"math/rand/v2"
	"slices"

	"github.com/presage-dvm/presage/orders"
)

// sortLeaves is how many pieces the merge sort cuts its input into.
const sortLeaves = 16

// Sort is a merge sort of n numbers by orders: an order cuts its slice in
// halves, makes an order for each down to a cut-off of n/16 numbers,
// and merges their results. The leaf's sort (cost n·log₂n) and the merge
// (cost n) are marked blocks.
var Sort = Program{Name: "sort", Size: 2_000_000, Small: 20_000, Medium: 250_000, Tests: sortTests, Run: runSort}

// piece is a slice to sort and the cut-off.
type piece struct {
	Xs     []float64
	Cutoff int
}

func (p piece) Bytes() int64 { return int64(8 * len(p.Xs)) }

var mergeSort = orders.Recursive("msort", func(mergeSort *orders.Procedure1[piece, numbers], c *orders.Ctx, p piece) (numbers, error) {
	n := len(p.Xs)
	if n <= p.Cutoff {
		return numbers(sortLeaf(c, p.Xs)), nil
	}
	left := orders.Make(c, mergeSort, piece{p.Xs[:n/2], p.Cutoff})
	right := orders.Make(c, mergeSort, piece{p.Xs[n/2:], p.Cutoff})
	a, err := left.Get(c)
	if err != nil {
		return nil, err
	}
	b, err := right.Get(c)
	if err != nil {
		return nil, err
	}
	return numbers(mergeHalves(c, a, b)), nil
})

func sortLeaf(c *orders.Ctx, xs []float64) []float64 {
	var out []float64
	n := float64(len(xs))
	c.Block("sort", orders.Cost{Alpha: []float64{n}, F: n * math.Log2(max(n, 2))},
		func() { out = slices.Clone(xs); slices.Sort(out) },
		func() { out = make([]float64, len(xs)) })
	return out
}

func mergeHalves(c *orders.Ctx, a, b []float64) []float64 {
	return orders.Compute(c, "merge", orders.Cost{Alpha: []float64{float64(len(a) + len(b))}, F: float64(len(a) + len(b))},
		func() []float64 { return merge(a, b) },
		func() []float64 { return make([]float64, len(a)+len(b)) })
}

func merge(a, b []float64) []float64 {
	out := make([]float64, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		if b[j] < a[i] {
			out = append(out, b[j])
			j++
		} else {
			out = append(out, a[i])
			i++
		}
	}
	return append(append(out, a[i:]...), b[j:]...)
}

func randomNumbers(seed uint64, n int) []float64 {
	rng := rand.New(rand.NewPCG(3, seed))
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = rng.Float64()
	}
	return xs
}

func runSort(cfg orders.Config, n int) (*orders.Summary, error) {
	xs := randomNumbers(uint64(n), n)
	got, rep, err := orders.Main(cfg, mergeSort, piece{xs, max(1, n/sortLeaves)})
	if err != nil || rep.Mode != orders.ModeRun {
		return rep, err
	}
	var want, have float64
	for i := range xs {
		want += xs[i]
		have += got[i]
	}
	ok := len(got) == n && slices.IsSorted(got) && math.Abs(want-have) < 1e-6*float64(n)
	return rep, check(cfg, ok, "%d numbers, sorted %v, sum %v instead of %v", len(got), slices.IsSorted(got), have, want)
}

// sortTests time both blocks around the program's sizes: each sorts two
// leaves of m numbers and merges them, for m from half the program's
// leaves to twice them; and the program's two top merges, of n/2 and n
// numbers. Every level of the merge sort merges n numbers in all, and the
// top ones merge halves that no longer fit the caches: timed only at the
// leaves' sizes, a merge was priced a quarter too cheap on a machine whose
// memory is busy with other work.
func sortTests(n int) []orders.TestCase {
	var tests []orders.TestCase
	leaf := max(1, n/sortLeaves)
	for _, m := range []int{max(1, leaf/2), leaf, 2 * leaf} {
		xs := randomNumbers(uint64(m), 2*m)
		tests = append(tests, orders.Test("msort", func(c *orders.Ctx) error {
			_, err := orders.Make(c, mergeSort, piece{xs, m}).Get(c)
			return err
		}))
	}
	for _, size := range []int{n / 2, n} {
		if size <= 4*leaf {
			continue // timed by the tests above
		}
		a, b := randomNumbers(uint64(size), size/2), randomNumbers(uint64(size)+1, size-size/2)
		slices.Sort(a)
		slices.Sort(b)
		tests = append(tests, orders.Test("merge", func(c *orders.Ctx) error {
			mergeHalves(c, a, b)
			return nil
		}))
	}
	return tests
}
