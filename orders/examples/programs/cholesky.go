package programs

import (
	"math"
	"math/rand/v2"
	"sync/atomic"

	"github.com/presage-dvm/presage/orders"
)

// Cholesky factors a symmetric positive definite n×n matrix A = L·Lᵀ by
// tiles of side b (nt = n/b per side), right-looking, as a dependency DAG:
// main makes every order up front, for k = 0…nt−1
//
//	potrf: L_kk = chol(A_kk)
//	trsm:  L_ik = A_ik·L_kk⁻ᵀ        for i > k
//	syrk:  A_ii −= L_ik·L_ikᵀ        for i > k
//	gemm:  A_ij −= L_ik·L_jkᵀ        for i > j > k
//
// each order taking the handles of the latest versions of the tiles it
// reads: nt(nt+1)(nt+2)/6 orders besides main (816 for n = 1024). Each runs
// a marked block of cost f·b³: 1/3 for potrf, 1 for trsm and syrk (the
// lower triangle), 2 for gemm. n is rounded up to a multiple of the tile
// side.
var Cholesky = choleskyOfTile("cholesky", 64, 1024, 512, 256)

// CholeskyFine is Cholesky by tiles of side 32: a fine-grained program of
// thousands of orders of 5–15 µs each (5,984 for n = 1024), where the
// runtime's own cost per order is a good part of the run.
var CholeskyFine = choleskyOfTile("cholesky-fine", 32, 1024, 512, 512)

// choleskyOfTile returns the factorization by tiles of side tile.
func choleskyOfTile(name string, tile, size, medium, small int) Program {
	return Program{Name: name, Size: size, Medium: medium, Small: small,
		Tests: func(n int) []orders.TestCase { return choleskyTests(n, tile) },
		Run:   func(cfg orders.Config, n int) (*orders.Summary, error) { return runCholesky(cfg, n, tile) }}
}

// choleskyInput is the matrix to factor and the side of its tiles.
type choleskyInput struct {
	A    Matrix
	Tile int
}

// update gets the tile a and the tiles ls it is updated with, and returns
// a copy of a that kernel updated in the block name, of cost flops·b³.
// The copy is needed because a's version is the result of another order,
// which other orders may read too: results go by value.
func update(c *orders.Ctx, name string, flops float64, kernel func(a Matrix, ls []Matrix), a *orders.Handle[Matrix], ls ...*orders.Handle[Matrix]) (Matrix, error) {
	in := make([]Matrix, len(ls))
	for i, h := range ls {
		var err error
		if in[i], err = h.Get(c); err != nil {
			return Matrix{}, err
		}
	}
	t, err := a.Get(c)
	if err != nil {
		return Matrix{}, err
	}
	out := t.sub(0, 0, t.Rows, t.Cols)
	b := float64(out.Rows)
	c.Block(name, orders.Cost{Alpha: []float64{b}, F: flops * b * b * b},
		func() { kernel(out, in) },
		func() {})
	return out, nil
}

var (
	potrf = orders.Proc("potrf", func(c *orders.Ctx, a *orders.Handle[Matrix]) (Matrix, error) {
		return update(c, "potrf", 1.0/3, func(a Matrix, _ []Matrix) { potrfTile(a) }, a)
	})
	trsm = orders.Proc2("trsm", func(c *orders.Ctx, a, l *orders.Handle[Matrix]) (Matrix, error) {
		return update(c, "trsm", 1, func(a Matrix, ls []Matrix) { trsmTile(a, ls[0]) }, a, l)
	})
	syrk = orders.Proc2("syrk", func(c *orders.Ctx, a, l *orders.Handle[Matrix]) (Matrix, error) {
		return update(c, "syrk", 1, func(a Matrix, ls []Matrix) { syrkTile(a, ls[0]) }, a, l)
	})
	gemm = orders.Proc3("gemm", func(c *orders.Ctx, a, li, lj *orders.Handle[Matrix]) (Matrix, error) {
		return update(c, "gemm", 2, func(a Matrix, ls []Matrix) { gemmTile(a, ls[0], ls[1]) }, a, li, lj)
	})
)

// choleskyMain makes the orders of the factorization of a, then gathers
// the tiles of L.
var choleskyMain = orders.Proc("cholesky", func(c *orders.Ctx, in choleskyInput) (Matrix, error) {
	a := in.A
	n := a.Rows
	b := min(in.Tile, n)
	nt := n / b
	// tile[i*nt+j] is the latest version of tile (i, j), i ≥ j: the
	// handle the next order that reads it takes.
	tile := make([]*orders.Handle[Matrix], nt*nt)
	for i := range nt {
		for j := range i + 1 {
			tile[i*nt+j] = orders.Ready(a.sub(i*b, j*b, b, b))
		}
	}
	for k := range nt {
		tile[k*nt+k] = orders.Make(c, potrf, tile[k*nt+k])
		for i := k + 1; i < nt; i++ {
			tile[i*nt+k] = orders.Make2(c, trsm, tile[i*nt+k], tile[k*nt+k])
		}
		for i := k + 1; i < nt; i++ {
			tile[i*nt+i] = orders.Make2(c, syrk, tile[i*nt+i], tile[i*nt+k])
		}
		for i := k + 1; i < nt; i++ {
			for j := k + 1; j < i; j++ {
				tile[i*nt+j] = orders.Make3(c, gemm, tile[i*nt+j], tile[i*nt+k], tile[j*nt+k])
			}
		}
	}
	l := newMatrix(n, n)
	for i := range nt {
		for j := range i + 1 {
			t, err := tile[i*nt+j].Get(c)
			if err != nil {
				return Matrix{}, err
			}
			for r := range b {
				copy(l.Data[(i*b+r)*n+j*b:], t.Data[r*b:(r+1)*b])
			}
		}
	}
	return l, nil
})

// dot returns the dot product of x and y[:len(x)]. Four sums break the
// chain of dependent additions, which would otherwise bound the loop by
// the adder's latency: gemm's kernel runs a third faster.
func dot(x, y []float64) float64 {
	y = y[:len(x)]
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= len(x); i += 4 {
		s0 += x[i] * y[i]
		s1 += x[i+1] * y[i+1]
		s2 += x[i+2] * y[i+2]
		s3 += x[i+3] * y[i+3]
	}
	for ; i < len(x); i++ {
		s0 += x[i] * y[i]
	}
	return s0 + s1 + s2 + s3
}

// potrfTile replaces the lower triangle of a by its Cholesky factor L,
// column by column, and zeroes the upper one, which syrk leaves stale.
func potrfTile(a Matrix) {
	for j := range a.Rows {
		rj := a.row(j)
		d := math.Sqrt(rj[j] - dot(rj[:j], rj))
		rj[j] = d
		for i := j + 1; i < a.Rows; i++ {
			ri := a.row(i)
			ri[j] = (ri[j] - dot(ri[:j], rj)) / d
		}
		clear(rj[j+1:])
	}
}

// trsmTile replaces a by a·L⁻ᵀ (l lower triangular), solving x·Lᵀ = a
// row by row by forward substitution.
func trsmTile(a, l Matrix) {
	for r := range a.Rows {
		x := a.row(r)
		for j := range x {
			lj := l.row(j)
			x[j] = (x[j] - dot(x[:j], lj)) / lj[j]
		}
	}
}

// syrkTile subtracts l·lᵀ from the lower triangle of a.
func syrkTile(a, l Matrix) {
	for i := range a.Rows {
		ai, li := a.row(i), l.row(i)
		for j := range i + 1 {
			ai[j] -= dot(li, l.row(j))
		}
	}
}

// gemmTile subtracts li·ljᵀ from a.
func gemmTile(a, li, lj Matrix) {
	for i := range a.Rows {
		ai, lii := a.row(i), li.row(i)
		for j := range ai {
			ai[j] -= dot(lii, lj.row(j))
		}
	}
}

// randomSPD returns a random symmetric n×n matrix with n on its diagonal
// and off-diagonal entries in [−½, ½): diagonally dominant, hence positive
// definite, and made in O(n²) where M·Mᵀ would take O(n³).
func randomSPD(rng *rand.Rand, n int) Matrix {
	m := newMatrix(n, n)
	for i := range n {
		for j := range i {
			v := rng.Float64() - 0.5
			m.Data[i*n+j], m.Data[j*n+i] = v, v
		}
		m.Data[i*n+i] = float64(n)
	}
	return m
}

func choleskySize(n, tile int) int {
	b := min(tile, n)
	return (n + b - 1) / b * b
}

func runCholesky(cfg orders.Config, n, tile int) (*orders.Summary, error) {
	n = choleskySize(n, tile)
	rng := rand.New(rand.NewPCG(5, uint64(n)))
	a := randomSPD(rng, n)
	l, rep, err := orders.Main(cfg, choleskyMain, choleskyInput{a, tile})
	if err != nil || rep.Mode != orders.ModeRun {
		return rep, err
	}
	// L·(Lᵀ·x) = A·x for a random x, in O(n²), as matmul's Freivalds
	// check.
	x := make([]float64, n)
	for i := range x {
		x[i] = rng.Float64()
	}
	want, have := a.mulVec(x), l.mulVec(l.mulTVec(x))
	worst := 0.0
	for i := range want {
		worst = max(worst, math.Abs(want[i]-have[i]))
	}
	return rep, check(cfg, worst < 1e-9*float64(n), "L·Lᵀ is off A by %g", worst)
}

// choleskyTiles are the arguments of one order of each kind, all distinct
// tiles of side b: potrf(S), trsm(A, L), syrk(S2, P), gemm(A2, P2, Q).
type choleskyTiles struct{ S, A, L, S2, P, A2, P2, Q Matrix }

func newCholeskyTiles(rng *rand.Rand, b int) choleskyTiles {
	l := randomSPD(rng, b)
	potrfTile(l)
	return choleskyTiles{S: randomSPD(rng, b), A: randomMatrix(rng, b, b), L: l,
		S2: randomSPD(rng, b), P: randomMatrix(rng, b, b),
		A2: randomMatrix(rng, b, b), P2: randomMatrix(rng, b, b), Q: randomMatrix(rng, b, b)}
}

// choleskyTests time the four kernels at tile sides around the program's,
// each test running one order of each kind per round. The program's
// orders read tiles other orders wrote a while before, mostly no longer
// in the caches, so, as matmul's tests do, every argument is a distinct
// tile and the tests cycle through copies of them that together exceed
// the per-core caches many times over.
func choleskyTests(n, tile int) []orders.TestCase {
	const copies, rounds = 16, 4
	b := min(tile, choleskySize(n, tile))
	var tests []orders.TestCase
	for _, side := range []int{b / 2, 3 * b / 4, b, 5 * b / 4} {
		side = max(side, 1)
		rng := rand.New(rand.NewPCG(6, uint64(side)))
		var cold [copies]choleskyTiles
		for i := range cold {
			cold[i] = newCholeskyTiles(rng, side)
		}
		var next atomic.Int64 // calibrate mode may run copies of the test at once
		tests = append(tests, orders.Test("tiles", func(c *orders.Ctx) error {
			for range rounds {
				t := cold[(next.Add(1)-1)%copies]
				hs := []*orders.Handle[Matrix]{
					orders.Make(c, potrf, orders.Ready(t.S)),
					orders.Make2(c, trsm, orders.Ready(t.A), orders.Ready(t.L)),
					orders.Make2(c, syrk, orders.Ready(t.S2), orders.Ready(t.P)),
					orders.Make3(c, gemm, orders.Ready(t.A2), orders.Ready(t.P2), orders.Ready(t.Q)),
				}
				for _, h := range hs {
					if _, err := h.Get(c); err != nil {
						return err
					}
				}
			}
			return nil
		}))
	}
	return tests
}
