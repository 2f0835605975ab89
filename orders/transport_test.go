package orders

import (
	"strings"
	"testing"
)

// transportProg records whether it ran, for
// TestClusterSettingsNeedTheTransport.
var (
	ran           bool
	transportProg = Proc("transport-test", func(*Ctx, int) (int, error) { ran = true; return 1, nil })
)

// A run that asks for worker processes in a program that did not import
// orders/cluster fails at once, in one line that names the setting and
// says what to import, rather than running locally.
func TestClusterSettingsNeedTheTransport(t *testing.T) {
	transport.mu.Lock()
	saved := transport.t
	transport.t = nil
	transport.mu.Unlock()
	t.Cleanup(func() { RegisterTransport(saved) })
	ran = false
	for _, c := range []struct {
		cfg  Config
		flag string
	}{
		{Config{Procs: 2}, "-orders.procs"},
		{Config{Slurm: true}, "-orders.slurm"},
		{Config{Join: "host:4222"}, "-orders.join"},
		{Config{Listen: ":4222"}, "-orders.listen"},
		{Config{Cluster: "cluster.json"}, "-orders.cluster"},
		{Config{Mode: ModeNetwork, Procs: 3}, "-orders.procs"},
	} {
		_, _, err := Main(c.cfg, transportProg, 0)
		want := "orders: " + c.flag + ` runs orders in worker processes, which this program cannot: it must import _ "github.com/presage-dvm/presage/orders/cluster"`
		if err == nil || err.Error() != want {
			t.Errorf("%+v: %v\nwant %s", c.cfg, err, want)
		}
		if err != nil && strings.Contains(err.Error(), "\n") {
			t.Errorf("%+v: the error is more than one line: %q", c.cfg, err)
		}
	}
	if ran {
		t.Error("the program ran, locally, though it asked for worker processes")
	}
	if r, _, err := Main(Config{Workers: 1}, transportProg, 0); err != nil || r != 1 || !ran {
		t.Errorf("a local run: %d, %v (ran %v); want 1, nil", r, err, ran)
	}
}
