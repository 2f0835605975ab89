package programs

import (
	"io"
	"testing"

	"github.com/presage-dvm/presage/orders"
)

// Command builds a program's calibration tests, whose inputs can weigh
// tens of MB, only for calibrate mode.
func TestCommandBuildsTestsOnlyToCalibrate(t *testing.T) {
	for _, c := range []struct {
		args []string
		want bool
	}{
		{[]string{"-n", "3"}, false},
		{[]string{"-n", "3", "-orders.mode", "calibrate", "-orders.out", t.TempDir() + "/cal.csv"}, true},
	} {
		built := false
		p := Program{Name: "p",
			Tests: func(int) []orders.TestCase {
				built = true
				return []orders.TestCase{orders.Test("t", func(*orders.Ctx) error { return nil })}
			},
			Run: func(orders.Config, int) (*orders.Summary, error) { return &orders.Summary{}, nil }}
		if code := Command(p, c.args, io.Discard, io.Discard); code != 0 || built != c.want {
			t.Errorf("%v: exit %d, tests built %v; want 0, %v", c.args, code, built, c.want)
		}
	}
}
