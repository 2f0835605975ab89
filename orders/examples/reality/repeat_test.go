package reality

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"text/tabwriter"

	"github.com/presage-dvm/presage/orders"
	"github.com/presage-dvm/presage/orders/calibration"
	"github.com/presage-dvm/presage/orders/examples/programs"
)

// RepeatBound is how far the calibrations of one example in separate
// processes may disagree on a block's constant on a quiet machine.
const RepeatBound = 0.05

// TestCalibrationsRepeat calibrates every example PRESAGE_CALIBRATIONS
// times (5 is the target), each in its own process (this test binary run
// again as TestCalibrateChild), and logs, block by block and α by α, the
// constants they priced it at and their spread (calibration.Agree). With
// PRESAGE_QUIET=1, which says the machine runs nothing else, every
// block's spread must be within RepeatBound; the runtime's own costs
// (orders.order, orders.wait) are logged, not bounded: they are timed by
// orders/overhead.go in a few milliseconds, not by repetitions.
//
//	PRESAGE_CALIBRATIONS=5 PRESAGE_QUIET=1 go test -run TestCalibrationsRepeat -timeout 30m ./orders/examples/reality
//
// PRESAGE_CALIBRATE_PROGRAMS (comma-separated names) narrows the examples;
// PRESAGE_CALIBRATION_PROCESSES=K makes each calibration one of K
// processes (-orders.calibrations K).
func TestCalibrationsRepeat(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("PRESAGE_CALIBRATIONS"))
	if n < 2 {
		t.Skip("calibrates every example several times: run it alone with PRESAGE_CALIBRATIONS=5 (and PRESAGE_QUIET=1 to assert the 5% on a quiet machine)")
	}
	if raceEnabled {
		t.Skip("the race detector distorts the timings")
	}
	quiet := os.Getenv("PRESAGE_QUIET") == "1"
	names := os.Getenv("PRESAGE_CALIBRATE_PROGRAMS")
	for _, p := range programs.All() {
		if names != "" && !strings.Contains(","+names+",", ","+p.Name+",") {
			continue
		}
		cals := make([][]calibration.Row, n)
		for i := range cals {
			cals[i] = calibrateInOwnProcess(t, p, i)
		}
		agreed := calibration.Agree(cals)
		probe := probeOf(agreed)
		var table strings.Builder
		writeAgreement(&table, agreed, probe)
		worst, worstPerProbe := 0.0, 0.0
		for _, a := range agreed {
			if runtimeBlock(a.Block) {
				continue
			}
			worst = max(worst, a.Spread())
			worstPerProbe = max(worstPerProbe, spreadPerProbe(a, probe))
			if quiet && a.Spread() > RepeatBound {
				t.Errorf("%s: block %s at α %v: %d calibrations disagree by %.1f%%, more than %.0f%%", p.Name, a.Block, a.Alpha, n, 100*a.Spread(), 100*RepeatBound)
			}
		}
		load, _ := os.ReadFile("/proc/loadavg")
		t.Logf("%s n=%d: %d calibrations in separate processes (load %s):\n%sworst spread of a block: %.1f%%; divided by each calibration's probe: %.1f%%",
			p.Name, p.Size, n, strings.TrimSpace(string(load)), table.String(), 100*worst, 100*worstPerProbe)
	}
}

// runtimeBlock reports whether block times the runtime itself.
func runtimeBlock(block string) bool { return strings.HasPrefix(block, "orders.") }

// calibrateInOwnProcess calibrates p in a process of its own and returns
// its rows.
func calibrateInOwnProcess(t *testing.T, p programs.Program, i int) []calibration.Row {
	t.Helper()
	out := filepath.Join(t.TempDir(), fmt.Sprintf("%s.%d.csv", p.Name, i))
	cmd := exec.Command(os.Args[0], "-test.run=^TestCalibrateChild$")
	cmd.Env = append(os.Environ(), "PRESAGE_CALIBRATE_CHILD="+p.Name+","+out)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("calibrating %s in its own process: %v\n%s", p.Name, err, msg)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := calibration.ReadAll(f, out)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// TestCalibrateChild is TestCalibrationsRepeat's calibration in a
// process of its own: PRESAGE_CALIBRATE_CHILD=PROGRAM,FILE calibrates
// the example PROGRAM at its size as its command does
// (-orders.mode calibrate) into FILE.
func TestCalibrateChild(t *testing.T) {
	arg := os.Getenv("PRESAGE_CALIBRATE_CHILD")
	if arg == "" {
		t.Skip("a child of TestCalibrationsRepeat")
	}
	name, out, _ := strings.Cut(arg, ",")
	p, ok := programs.Named(name)
	if !ok {
		t.Fatalf("no example %q", name)
	}
	var stderr strings.Builder
	args := []string{"-orders.mode", "calibrate", "-orders.out", out}
	if k := os.Getenv("PRESAGE_CALIBRATION_PROCESSES"); k != "" {
		args = append(args, "-orders.calibrations", k)
	}
	if code := programs.Command(p, args, io.Discard, &stderr); code != 0 {
		t.Fatalf("%s: exit %d: %s", name, code, stderr.String())
	}
}

// writeAgreement writes a table: a row per block and α, the constant of
// each calibration and their spread.
func writeAgreement(w io.Writer, agreed []calibration.Agreement, probe []float64) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "block\tα\tconstants c (s per unit of f)\tspread\tspread of c ÷ the probe's c\t")
	for _, a := range agreed {
		cs := make([]string, len(a.Medians))
		for i, m := range a.Medians {
			cs[i] = fmt.Sprintf("%.4g", m)
		}
		fmt.Fprintf(tw, "%s\t%v\t%s\t%.1f%%\t%.1f%%\t\n", a.Block, a.Alpha, strings.Join(cs, " "), 100*a.Spread(), 100*spreadPerProbe(a, probe))
	}
	tw.Flush()
}

// probeOf returns the probe's c in each calibration (orders.ProbeBlock),
// nil when they did not time it.
func probeOf(agreed []calibration.Agreement) []float64 {
	for _, a := range agreed {
		if a.Block == orders.ProbeBlock {
			return a.Medians
		}
	}
	return nil
}

// spreadPerProbe is how far the calibrations disagree on a's c once each
// is divided by its own probe's c: what is left when the machine's state
// during each calibration is taken out; 0 without a probe.
func spreadPerProbe(a calibration.Agreement, probe []float64) float64 {
	if len(probe) != len(a.Medians) {
		return 0
	}
	per := make([]float64, len(probe))
	for i := range per {
		per[i] = a.Medians[i] / probe[i]
	}
	return calibration.Agreement{Medians: per}.Spread()
}
