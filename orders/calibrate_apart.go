package orders

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/presage-dvm/presage/orders/calibration"
)

// calibrationOutEnv is set in the processes calibrateApart starts: the
// file each writes its rows to. A process that has it is one of a
// calibration's processes, not the program its user started.
const calibrationOutEnv = "PRESAGE_ORDERS_CALIBRATION_OUT"

// calibrateApart calibrates in n processes of their own, one after the
// other: copies of this program started with its arguments, each of
// which calibrates as one process does (calibrate) and ends. It returns
// the rows of them all, their repetitions numbered across the processes.
//
// Why processes: what is fixed for the life of a process (the physical
// pages it gets, the vCPU its thread stays on) can move a block's price
// by more than its repetitions spread within one, and over K processes
// it weighs a K-th. The host's drift over time, which moves every
// process alike, it does not remove (docs/orders-sim.md).
func calibrateApart(ctx context.Context, n int) ([]calibration.Row, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("orders: finding this program to calibrate in processes of their own: %w", err)
	}
	dir, err := os.MkdirTemp("", "orders-calibration-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	var rows []calibration.Row
	for i := range n {
		out := filepath.Join(dir, fmt.Sprintf("%d.csv", i))
		cmd := exec.CommandContext(ctx, self, os.Args[1:]...)
		cmd.Env = append(os.Environ(), calibrationOutEnv+"="+out)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr // its standard output is the program's own, discarded
		if err := cmd.Run(); err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, fmt.Errorf("orders: calibration process %d of %d: %v: %s", i+1, n, err, lastLine(stderr.String()))
		}
		got, err := readCalibration(out)
		if err != nil {
			return nil, fmt.Errorf("orders: calibration process %d of %d: %w", i+1, n, err)
		}
		rows = append(rows, got...)
	}
	numberReps(rows)
	return rows, nil
}

// calibrateAsChild is the whole of a process calibrateApart started,
// whose rows go to out: it calibrates, writes them and ends the process.
func calibrateAsChild(ctx context.Context, cfg Config, out string) {
	err := func() error {
		rows, err := calibrate(ctx, cfg)
		if err != nil {
			return err
		}
		return writeCalibration(out, rows)
	}()
	if err != nil {
		fmt.Fprintf(os.Stderr, "orders: calibration process %d: %v\n", os.Getpid(), err)
		os.Exit(1)
	}
	os.Exit(0)
}

func writeCalibration(name string, rows []calibration.Row) error {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	return errors.Join(writeRows(f, rows), f.Close())
}

// writeRows writes a calibration file of rows to w.
func writeRows(w io.Writer, rows []calibration.Row) error {
	cw := calibration.NewWriter(w)
	for _, r := range rows {
		if err := cw.Write(r); err != nil {
			return err
		}
	}
	return cw.Close()
}

func readCalibration(name string) ([]calibration.Row, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return calibration.ReadAll(f, name)
}

// lastLine is the last line of a process's error output, or a word
// saying there was none.
func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return "no error output"
	}
	return s[strings.LastIndexByte(s, '\n')+1:]
}
