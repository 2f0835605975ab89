package orders

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/orders/calibration"
)

// apartEnv makes the test binary, run again by TestCalibrationsInProcesses,
// the program that calibrates: its value is the folder of the run's files.
const apartEnv = "PRESAGE_ORDERS_TEST_APART"

// TestCalibrationsInProcesses runs a program calibrating with
// Calibrations 2 (the test binary again, as a user's program): its rows
// come from two other processes, one after the other, each of which ran
// the tests; the repetitions are numbered across them, as one
// calibration's. A calibration process that fails fails the calibration,
// with its error.
func TestCalibrationsInProcesses(t *testing.T) {
	if dir := os.Getenv(apartEnv); dir != "" {
		calibrateForTheParent(t, dir)
		return
	}
	for _, fail := range []bool{false, true} {
		dir := t.TempDir()
		cmd := exec.Command(os.Args[0], "-test.run=^TestCalibrationsInProcesses$")
		cmd.Env = append(os.Environ(), apartEnv+"="+dir)
		if fail {
			cmd.Env = append(cmd.Env, "PRESAGE_ORDERS_TEST_FAIL=1")
		}
		msg, err := cmd.CombinedOutput()
		if fail {
			if err == nil || !strings.Contains(string(msg), "calibration process 1 of 2") || !strings.Contains(string(msg), "the test failed on purpose") {
				t.Errorf("a failing calibration process: %v\n%s", err, msg)
			}
			continue
		}
		if err != nil {
			t.Fatalf("calibrating in 2 processes: %v\n%s", err, msg)
		}
		pids := strings.Fields(readFile(t, filepath.Join(dir, "pids")))
		main := strings.TrimSpace(readFile(t, filepath.Join(dir, "main")))
		if distinct := slices.Compact(slices.Sorted(slices.Values(pids))); len(distinct) != 2 || slices.Contains(distinct, main) {
			t.Errorf("tests ran in processes %v (the calibrating program is %s), want two others", distinct, main)
		}
		f, err := os.Open(filepath.Join(dir, "calibration.csv"))
		if err != nil {
			t.Fatal(err)
		}
		rows, err := calibration.ReadAll(f, "calibration.csv")
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		var reps []int
		for _, r := range rows {
			if r.Block == "add" {
				reps = append(reps, r.Rep)
			}
		}
		// Two add blocks per test, the test twice on each CPU (Reps 2), in
		// each process.
		per := 2 * 2 * max(len(calibrationCPUs()), 1)
		slices.Sort(reps)
		if want := 2 * per; len(reps) != want || reps[0] != 0 || reps[want-1] != want-1 || len(slices.Compact(reps)) != want {
			t.Errorf("block add: repetitions %v, want 0..%d once each (two processes of %d)", reps, want-1, per)
		}
	}
}

// calibrateForTheParent is the program TestCalibrationsInProcesses runs:
// it calibrates with Calibrations 2 into dir/calibration.csv, and its
// tests write the process they run in to dir/pids.
func calibrateForTheParent(t *testing.T, dir string) {
	if os.Getenv(calibrationOutEnv) == "" {
		os.WriteFile(filepath.Join(dir, "main"), []byte(strconv.Itoa(os.Getpid())), 0o644)
	}
	test := func(c *Ctx) error {
		if os.Getenv("PRESAGE_ORDERS_TEST_FAIL") != "" {
			return errFailedOnPurpose
		}
		f, err := os.OpenFile(filepath.Join(dir, "pids"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			return err
		}
		f.WriteString(strconv.Itoa(os.Getpid()) + "\n")
		f.Close()
		_, err = Make(c, sum, numbers(8)).Get(c)
		return err
	}
	cfg := Config{Mode: ModeCalibrate, Reps: 2, MaxReps: 2, Machine: "m", Calibrations: 2,
		Out: filepath.Join(dir, "calibration.csv"), Tests: []TestCase{Test("eight", test)}}
	if _, _, err := Main(cfg, sum, nil); err != nil {
		t.Fatal(err)
	}
}

var errFailedOnPurpose = errors.New("the test failed on purpose")

func readFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
