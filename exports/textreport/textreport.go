// Package textreport owns the analyzer's report of a measured run (docs/model.md
// §10.8) and its JSON form (§10.9), rendered from model values: the run's
// characteristics and its sts file's processor names, test times, warnings
// and time-matrix sums (stored.StsDetails).
package textreport

import (
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/presage-dvm/presage/schema/stored"
	"github.com/presage-dvm/presage/sim/result"
)

// Options select what the report shows, as the analyzer's options do.
type Options struct {
	// LimitLevel shows only intervals of level <= MaxLevel (-l N); the
	// zero Options show every level, as the analyzer does by default.
	LimitLevel bool
	MaxLevel   int
	// Procs is the -n list: "" shows every processor, "0" none, otherwise
	// a comma list of 1-based numbers and ranges such as "1-2,4".
	Procs string
	// Verbosity is the -v value: "" or "cpu,gpu" (default), "cpu", "gpu"
	// or "none". Without cpu the comparative and per-processor sections
	// are left out.
	Verbosity string
	// Format is "" or "text" for the text report, "json" for the -j form.
	Format string
	// Matrix is the -m value: "i" prints every processor's time matrix
	// summed by rows, "j" by columns, "" nothing.
	Matrix string
	// Gzip compresses the output with gzip (-c L, L >= 0) at GzipLevel
	// (1..9; 0 = the default level); the analyzer writes it to OUT.gz.
	Gzip      bool
	GzipLevel int
}

// Proc is what the report prints about one processor.
type Proc = stored.StsProc

// Input is everything a report is made of.
type Input struct {
	Run      *result.Run
	Grid     string // processor grid joined by '*'
	Version  string // DVM-system version that accumulated the statistics
	Platform string
	Procs    []Proc
	Warnings []string
	// Per interval ID: the run-time system's type code and last line.
	TypeCode map[int]int
	LineEnd  map[int]int64
	// Time-matrix sums per (interval ID, 0-based processor): [0] the row
	// sums, [1] the column sums, per group (calls, product, lost).
	Sums map[[2]int]*[2][groups][3]float64
}

// groups is the number of operation groups of the time matrix.
const groups = 28

// Render writes rep in the format opt asks for.
func Render(w io.Writer, rep *Input, opt Options) error {
	if opt.Gzip {
		level := opt.GzipLevel
		if level == 0 {
			level = gzip.DefaultCompression
		}
		zw, err := gzip.NewWriterLevel(w, level)
		if err != nil {
			return fmt.Errorf("compression level %d: expected 0..9", opt.GzipLevel)
		}
		opt.Gzip = false
		if err := Render(zw, rep, opt); err != nil {
			return err
		}
		return zw.Close()
	}
	switch opt.Format {
	case "", "text":
		return writeText(w, rep, opt)
	case "json":
		return writeJSON(w, rep)
	}
	return fmt.Errorf("report format %q: expected text or json", opt.Format)
}

// Source is what Load reads: *store.Store is one.
type Source interface {
	Run(id int64) (*result.Run, error)
	StsDetails(ctx context.Context, runID, stsID int64) (*stored.StsDetails, error)
}

// Load reads a measured run and its sts file's details from src.
func Load(ctx context.Context, src Source, runID int64) (*Input, error) {
	run, err := src.Run(runID)
	if err != nil {
		return nil, err
	}
	if run.Kind != result.Measured || run.StsID == 0 {
		return nil, fmt.Errorf("run %d is a %s run, not the measurement of an sts file", runID, run.Kind)
	}
	d, err := src.StsDetails(ctx, runID, run.StsID)
	if err != nil {
		return nil, err
	}
	return newReport(run, d), nil
}

// newReport assembles the report of run from its sts file's details.
func newReport(run *result.Run, d *stored.StsDetails) *Input {
	rep := &Input{Run: run, Version: d.Version, Platform: d.Platform, Grid: d.Grid,
		Procs: d.Procs, Warnings: d.Warnings,
		TypeCode: map[int]int{}, LineEnd: map[int]int64{}, Sums: map[[2]int]*[2][groups][3]float64{}}
	for _, x := range d.Intervals {
		rep.TypeCode[x.ID], rep.LineEnd[x.ID] = x.TypeCode, x.LineEnd
	}
	for _, m := range d.Sums {
		if m.Group < 0 || m.Group >= groups {
			continue
		}
		k := [2]int{m.Interval, m.Proc}
		sums := rep.Sums[k]
		if sums == nil {
			sums = new([2][groups][3]float64)
			rep.Sums[k] = sums
		}
		a := 0
		if m.Axis == "j" {
			a = 1
		}
		sums[a][m.Group] = [3]float64{m.Calls, m.Product, m.Lost}
	}
	return rep
}

// ParseProcs reads a -n list into a set of 1-based processor numbers;
// nil means all processors, an empty non-nil set none ("0").
func ParseProcs(list string, procs int) (map[int]bool, error) {
	list = strings.TrimSpace(list)
	if list == "" {
		return nil, nil
	}
	set := map[int]bool{}
	if list == "0" {
		return set, nil
	}
	for _, part := range strings.Split(list, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		a, err1 := strconv.Atoi(strings.TrimSpace(lo))
		b := a
		var err2 error
		if isRange {
			b, err2 = strconv.Atoi(strings.TrimSpace(hi))
		}
		if err1 != nil || err2 != nil || a < 1 || b < a {
			return nil, fmt.Errorf("processor list %q: %q is not a number or a range a-b of 1-based processors", list, part)
		}
		for p := a; p <= b && p <= procs; p++ {
			set[p] = true
		}
	}
	return set, nil
}
