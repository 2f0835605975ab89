package programs

import (
	"math"
	"math/rand/v2"
	"sync/atomic"

	"github.com/presage-dvm/presage/orders"
)

// matmulBlock is the side of the blocks of the product.
const matmulBlock = 128

// Matmul multiplies two n×n matrices by blocks (the seed's figs. 5-6):
// main makes an order per block of the product, which gets a row of
// blocks of A and a column of blocks of B and adds up their products,
// each a marked block of cost b³ (b the block side). n is rounded up to a
// multiple of the block side.
var Matmul = Program{Name: "matmul", Size: 640, Small: 128, Medium: 320, Tests: matmulTests, Run: runMatmul}

// strips is a row of blocks of A and a column of blocks of B.
type strips struct{ Row, Col Matrix }

func (s strips) Bytes() int64 { return s.Row.Bytes() + s.Col.Bytes() }

var blockProduct = orders.Proc("block", func(c *orders.Ctx, s strips) (Matrix, error) {
	b := s.Row.Rows
	out := newMatrix(b, s.Col.Cols)
	for k0 := 0; k0 < s.Row.Cols; k0 += b {
		c.Block("mul", orders.Cost{Alpha: []float64{float64(b)}, F: math.Pow(float64(b), 3)},
			func() { mulAdd(out, s.Row, s.Col, k0, b) },
			func() {})
	}
	return out, nil
})

// matmulArgs is main's argument.
type matmulArgs struct{ A, B Matrix }

var matmulMain = orders.Proc("matmul", func(c *orders.Ctx, m matmulArgs) (Matrix, error) {
	a, b := m.A, m.B
	n, bs := a.Rows, min(matmulBlock, a.Rows)
	q := n / bs
	hs := make([]*orders.Handle[Matrix], q*q)
	for i := range q {
		for j := range q {
			hs[i*q+j] = orders.Make(c, blockProduct, strips{Row: a.sub(i*bs, 0, bs, n), Col: b.sub(0, j*bs, n, bs)})
		}
	}
	out := newMatrix(n, n)
	for i := range q {
		for j := range q {
			blk, err := hs[i*q+j].Get(c)
			if err != nil {
				return Matrix{}, err
			}
			for r := range bs {
				copy(out.Data[(i*bs+r)*n+j*bs:], blk.Data[r*bs:(r+1)*bs])
			}
		}
	}
	return out, nil
})

func matmulSize(n int) int {
	bs := min(matmulBlock, n)
	return (n + bs - 1) / bs * bs
}

func runMatmul(cfg orders.Config, n int) (*orders.Summary, error) {
	n = matmulSize(n)
	rng := rand.New(rand.NewPCG(1, uint64(n)))
	a, b := randomMatrix(rng, n, n), randomMatrix(rng, n, n)
	got, rep, err := orders.Main(cfg, matmulMain, matmulArgs{a, b})
	if err != nil || rep.Mode != orders.ModeRun {
		return rep, err
	}
	// Freivalds: (A·B)·x = A·(B·x) for a random x, in O(n²).
	x := make([]float64, n)
	for i := range x {
		x[i] = rng.Float64()
	}
	want, have := a.mulVec(b.mulVec(x)), got.mulVec(x)
	worst := 0.0
	for i := range want {
		worst = max(worst, math.Abs(want[i]-have[i]))
	}
	return rep, check(cfg, worst < 1e-6*float64(n), "the product is off by %g", worst)
}

// matmulTests time the block product at several sizes around the
// program's, as fig. 6 of the seed does, on strips as the program gives
// them to its orders: as long as the program's, and cold. Main copies
// every strip before any order starts, so an order reads its strips from
// memory, not from the caches; a test that multiplied the same strips at
// every repetition would find them in the caches and, on a machine whose
// memory is shared with other work, price the blocks a third too cheap.
// So each test cycles through copies of its strips that together exceed
// the per-core caches many times over.
func matmulTests(n int) []orders.TestCase {
	const copies = 8
	n = matmulSize(n)
	var tests []orders.TestCase
	for _, b := range []int{64, 96, matmulBlock, 160} {
		rng := rand.New(rand.NewPCG(2, uint64(b)))
		long := max(b, n/b*b)
		var cold [copies]strips
		for i := range cold {
			cold[i] = strips{Row: randomMatrix(rng, b, long), Col: randomMatrix(rng, long, b)}
		}
		var next atomic.Int64 // calibrate mode may run copies of the test at once
		tests = append(tests, orders.Test("mul", func(c *orders.Ctx) error {
			s := cold[(next.Add(1)-1)%copies]
			_, err := orders.Make(c, blockProduct, s).Get(c)
			return err
		}))
	}
	return tests
}
