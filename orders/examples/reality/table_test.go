package reality

import (
	"slices"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/orders/ordersched"
)

func TestParseCounts(t *testing.T) {
	for _, tc := range []struct {
		list string
		want []int
		ok   bool
	}{
		{"1,2,4", []int{1, 2, 4}, true},
		{" 8 ", []int{8}, true},
		{"1,,2", nil, false},
		{"0", nil, false},
		{"two", nil, false},
	} {
		got, err := ParseCounts(tc.list)
		if (err == nil) != tc.ok || !slices.Equal(got, tc.want) {
			t.Errorf("ParseCounts(%q) = %v, %v; want %v, ok %v", tc.list, got, err, tc.want, tc.ok)
		}
	}
}

// TestWriteTable: a row per program, size and placement, a column per
// number of workers, a dash where a figure is missing.
func TestWriteTable(t *testing.T) {
	pinned := Placement{Scheduler: ordersched.FIFO}
	figs := []Figure{
		{Program: "sort", Size: 10, Workers: 1, Placement: pinned, Measured: 0.010, Predicted: 0.011},
		{Program: "sort", Size: 10, Workers: 2, Placement: pinned, Measured: 0.005, Predicted: 0.0045},
		{Program: "sort", Size: 10, Workers: 1, Placement: Placement{ordersched.FIFO, true}, Measured: 0.010, Predicted: 0.010},
	}
	var b strings.Builder
	if err := WriteTable(&b, figs); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d lines, want a header and 2 rows:\n%s", len(lines), b.String())
	}
	for i, want := range [][]string{
		{"program", "1 workers", "2 workers"},
		{"sort", "fifo, pinned", "+10.0% (10.0 ms)", "-10.0% (5.0 ms)"},
		{"sort", "fifo, migrating", "+0.0% (10.0 ms)", "–"},
	} {
		for _, w := range want {
			if !strings.Contains(lines[i], w) {
				t.Errorf("line %d %q lacks %q", i, lines[i], w)
			}
		}
	}
}
