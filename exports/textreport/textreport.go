// Package textreport owns the analyzer's report of a measured run (MODEL.md
// §10.8) and its JSON form (§10.9), produced from the store: the run's
// characteristics (result.Load) and the sts file's processor names, test
// times and warnings (schema/0002_sts.sql).
package textreport

import (
	"compress/gzip"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/jmoiron/sqlx"

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
type Proc struct {
	Name     string  `db:"name"`
	TestTime float64 `db:"test_time"`
	Threads  int64   `db:"threads"`
}

// Report is everything a report is made of.
type Report struct {
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

// Write renders the report of the measured run runID from db.
func Write(w io.Writer, db *sqlx.DB, runID int64, opt Options) error {
	rep, err := Load(db, runID)
	if err != nil {
		return err
	}
	return Render(w, rep, opt)
}

// Render writes rep in the format opt asks for.
func Render(w io.Writer, rep *Report, opt Options) error {
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

// Load reads a measured run and its sts file's extras from db.
func Load(db *sqlx.DB, runID int64) (*Report, error) {
	run, err := result.Load(db, runID)
	if err != nil {
		return nil, err
	}
	if run.Kind != result.Measured || run.StsID == 0 {
		return nil, fmt.Errorf("run %d is a %s run, not the measurement of an sts file", runID, run.Kind)
	}
	rep := &Report{Run: run}
	var f struct {
		Version  string `db:"version"`
		Platform string `db:"platform"`
		Sizes    string `db:"grid_sizes"`
	}
	err = db.Get(&f, `SELECT version, platform, grid_sizes FROM sts_files WHERE id = ?`, run.StsID)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("run %d: its sts file %d is not stored", runID, run.StsID)
	}
	if err != nil {
		return nil, err
	}
	rep.Version, rep.Platform, rep.Grid = f.Version, f.Platform, f.Sizes
	if err := db.Select(&rep.Procs, `SELECT name, test_time, threads FROM sts_procs WHERE sts_id = ? ORDER BY proc`, run.StsID); err != nil {
		return nil, err
	}
	var ivs []struct {
		ID       int   `db:"interval_id"`
		TypeCode int   `db:"type_code"`
		LineEnd  int64 `db:"line_end"`
	}
	if err := db.Select(&ivs, `SELECT interval_id, type_code, line_end FROM sts_intervals WHERE run_id = ?`, runID); err != nil {
		return nil, err
	}
	rep.TypeCode, rep.LineEnd = map[int]int{}, map[int]int64{}
	for _, x := range ivs {
		rep.TypeCode[x.ID], rep.LineEnd[x.ID] = x.TypeCode, x.LineEnd
	}
	if err := loadSums(db, runID, rep); err != nil {
		return nil, err
	}
	if err := db.Select(&rep.Warnings, `SELECT message FROM sts_warnings WHERE sts_id = ? ORDER BY seq`, run.StsID); err != nil {
		return nil, err
	}
	return rep, nil
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

// loadSums reads the time-matrix sums of a run.
func loadSums(db *sqlx.DB, runID int64, rep *Report) error {
	rows, err := db.Queryx(`SELECT interval_id, proc, axis, grp, calls, product, lost
		FROM sts_matrix_sums WHERE run_id = ?`, runID)
	if err != nil {
		return err
	}
	defer rows.Close()
	rep.Sums = map[[2]int]*[2][groups][3]float64{}
	for rows.Next() {
		var iv, proc, grp int
		var axis string
		var c [3]float64
		if err := rows.Scan(&iv, &proc, &axis, &grp, &c[0], &c[1], &c[2]); err != nil {
			return err
		}
		if grp < 0 || grp >= groups {
			continue
		}
		k := [2]int{iv, proc}
		m := rep.Sums[k]
		if m == nil {
			m = new([2][groups][3]float64)
			rep.Sums[k] = m
		}
		a := 0
		if axis == "j" {
			a = 1
		}
		m[a][grp] = c
	}
	return rows.Err()
}
