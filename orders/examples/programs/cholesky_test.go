package programs

import (
	"testing"

	"github.com/presage-dvm/presage/orders"
)

// TestCholeskyOrders runs the factorization in checking mode at sizes
// that are and are not multiples of the tile side: it must verify its
// answer with nt(nt+1)(nt+2)/6 tasks and main, nt tiles per side after
// rounding n up.
func TestCholeskyOrders(t *testing.T) {
	for _, tc := range []struct {
		n      int
		orders int64
	}{
		{n: 1, orders: 1 + 1},   // one tile of side 1
		{n: 40, orders: 1 + 1},  // one tile of side 40
		{n: 100, orders: 4 + 1}, // rounded up to 2×2 tiles
		{n: 256, orders: 20 + 1},
		{n: 512, orders: 120 + 1},
	} {
		rep, err := Cholesky.Run(orders.Config{Workers: 2, Check: true}, tc.n)
		if err != nil {
			t.Errorf("n=%d: %v", tc.n, err)
			continue
		}
		if rep.Orders != tc.orders {
			t.Errorf("n=%d: %d orders, want %d", tc.n, rep.Orders, tc.orders)
		}
	}
}

// TestCholeskyFine: by tiles of 32, n = 512 is 16 tiles a side, 816
// tasks, and the answer still checks.
func TestCholeskyFine(t *testing.T) {
	rep, err := CholeskyFine.Run(orders.Config{Workers: 2, Check: true}, 512)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Orders != 816+1 {
		t.Errorf("%d orders, want 817", rep.Orders)
	}
}
