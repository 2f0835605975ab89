package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/presage-dvm/presage/sim/events"
	"github.com/presage-dvm/presage/sim/result"
)

// SaveOptions control how much of a run is written.
type SaveOptions struct {
	// PerProcMax: per-processor rows are written only for runs with at most
	// this many processors; 0 means always.
	PerProcMax int
	// Timeline, when not nil, is the run's per-processor picture, stored
	// with it (RunTimeline).
	Timeline *events.Sample
}

// SaveRun stores run in its own transaction and sets run.ID.
func (s *Store) SaveRun(ctx context.Context, run *result.Run, opt SaveOptions) error {
	return s.update(ctx, func(tx *sqlx.Tx) error { return saveRun(tx, run, opt) })
}

// saveRun writes run within tx and sets run.ID.
func saveRun(tx *sqlx.Tx, run *result.Run, opt SaveOptions) error {
	if len(run.Intervals) == 0 {
		return errors.New("save run: no intervals")
	}
	c := run.Config
	grid := make([]any, 4)
	for i := range grid {
		if i < len(c.Grid) {
			grid[i] = c.Grid[i]
		}
	}
	warn := make([]string, len(run.Warnings))
	for i, w := range run.Warnings {
		warn[i] = fmt.Sprintf("%s (%d)", w.Message, w.Count)
	}
	res, err := tx.Exec(`INSERT INTO runs(kind, trace_id, sts_id, sweep_id, program, machine_id, machine,
		grid, grid_rank, grid_d1, grid_d2, grid_d3, grid_d4, procs, network, tstart_us, tbyte_us, power,
		tstart_used_us, tbyte_used_us, power_used, options, report_root, execution_time, warnings, doubtful, created_at)
		VALUES (?,?,?,?,?,?,?, ?,?,?,?,?,?,?,?,?,?,?, ?,?,?, ?,?,?,?,?,?)`,
		string(run.Kind), nullID(run.TraceID), nullID(run.StsID), nullID(run.SweepID), run.Program,
		nullID(c.MachineID), nullString(c.Machine),
		result.GridString(c.Grid), len(c.Grid), grid[0], grid[1], grid[2], grid[3], c.Procs(),
		nullString(c.Network), nullZero(result.Micros(c.TStart)), nullZero(result.Micros(c.TByte)), nullZero(c.Power),
		nullUsed(run, result.Micros(c.Used.TStart)), nullUsed(run, result.Micros(c.Used.TByte)), nullUsed(run, c.Used.Power),
		strings.Join(c.Options, ","), run.ReportRoot, run.Intervals[0].Values[result.ExecutionTime],
		strings.Join(warn, "; "), run.Doubtful(), time.Now().UTC().Format(time.RFC3339))
	if err != nil {
		return fmt.Errorf("save run: %w", err)
	}
	if run.ID, err = res.LastInsertId(); err != nil {
		return err
	}
	ins := newInserter(tx)
	defer ins.close()
	perProc := opt.PerProcMax == 0 || c.Procs() <= opt.PerProcMax
	// The intervals go first: the value rows refer to them. Each keeps
	// its path from the root; the tree is in pre-order, parents first.
	paths := make(map[int]string, len(run.Intervals))
	for ord, iv := range run.Intervals {
		path := string(iv.Type)
		if iv.Parent != 0 {
			path = paths[iv.Parent] + "->" + string(iv.Type) + "@" + iv.File + ":" + strconv.Itoa(iv.Line)
		}
		paths[iv.ID] = path
		if err := ins.interval(run.ID, ord, iv, path); err != nil {
			return fmt.Errorf("save run: interval %d: %w", iv.ID, err)
		}
	}
	if err := ins.iv.flush(); err != nil {
		return fmt.Errorf("save run: %w", err)
	}
	for _, iv := range run.Intervals {
		if err := ins.values(run.ID, iv, perProc); err != nil {
			return fmt.Errorf("save run: values of interval %d: %w", iv.ID, err)
		}
	}
	if err := ins.flush(); err != nil {
		return fmt.Errorf("save run: %w", err)
	}
	for _, w := range run.Warnings {
		if _, err := tx.Exec(`INSERT INTO run_warnings(run_id, message, count, doubtful) VALUES (?,?,?,?)`,
			run.ID, w.Message, w.Count, w.Doubtful); err != nil {
			return fmt.Errorf("save run: %w", err)
		}
	}
	if opt.Timeline != nil {
		if err := saveTimeline(tx, run.ID, opt.Timeline); err != nil {
			return fmt.Errorf("save run: %w", err)
		}
	}
	return nil
}

// nullUsed is a value a prediction used, NULL for a measured run (or an
// orders run, whose cluster has no machine file).
func nullUsed(run *result.Run, v float64) any {
	if run.Kind != result.Predicted || run.Config.Used == (result.MachineValues{}) {
		return nil
	}
	return v
}

// inserter writes the rows of one Save, many rows per INSERT statement:
// for runs with many intervals and processors the per-statement overhead
// dominates.
type inserter struct {
	iv, val, proc, stat *batch
	classes             *batch // per-processor classes (procSeries)
	json                []byte // the series being encoded (procSeries)
}

func newInserter(tx *sqlx.Tx) *inserter {
	return &inserter{
		iv:      newBatch(tx, `intervals(run_id, id, parent, ord, level, type, file, line, expr, count, path)`, 11),
		val:     newBatch(tx, `interval_values(run_id, interval_id, char_id, value)`, 4),
		proc:    newBatch(tx, `interval_proc_series(run_id, interval_id, char_id, vals)`, 4),
		classes: newBatch(tx, `interval_proc_classes(run_id, interval_id, classes)`, 3),
		stat:    newBatch(tx, `interval_stats(run_id, interval_id, char_id, min, min_proc, max, max_proc, mean)`, 8),
	}
}

// flush writes the value rows still buffered.
func (ins *inserter) flush() error {
	for _, b := range []*batch{ins.val, ins.stat, ins.proc, ins.classes} {
		if err := b.flush(); err != nil {
			return err
		}
	}
	return nil
}

func (ins *inserter) close() {
	for _, b := range []*batch{ins.iv, ins.val, ins.proc, ins.stat, ins.classes} {
		b.close()
	}
}

func (ins *inserter) interval(runID int64, ord int, iv *result.Interval, path string) error {
	var expr any
	if iv.Expr != nil {
		expr = *iv.Expr
	}
	return ins.iv.add(runID, iv.ID, nullID(int64(iv.Parent)), ord, iv.Level, string(iv.Type),
		iv.File, iv.Line, expr, iv.Count, path)
}

// values adds the interval's values, comparative characteristics and, when
// perProc, its per-processor values.
func (ins *inserter) values(runID int64, iv *result.Interval, perProc bool) error {
	for c, v := range iv.Values {
		if err := ins.val.add(runID, iv.ID, c, v); err != nil {
			return err
		}
	}
	if len(iv.Procs) == 0 {
		return nil
	}
	stats, _ := iv.Comparatives()
	for c, s := range stats {
		if s.Min == 0 && s.Max == 0 {
			continue
		}
		if err := ins.stat.add(runID, iv.ID, c, s.Min, s.MinProc, s.Max, s.MaxProc, s.Mean); err != nil {
			return err
		}
	}
	if !perProc {
		return nil
	}
	return ins.procSeries(runID, iv)
}

// batchRows is the number of rows of one multi-row INSERT.
const batchRows = 128

// batch buffers the rows of one table and inserts them batchRows at a time.
type batch struct {
	tx    *sqlx.Tx
	table string // "name(col, ...)"
	cols  int
	args  []any
	full  *sqlx.Stmt // the prepared statement of a full batch, made on first use
}

func newBatch(tx *sqlx.Tx, table string, cols int) *batch {
	return &batch{tx: tx, table: table, cols: cols, args: make([]any, 0, cols*batchRows)}
}

func (b *batch) add(row ...any) error {
	b.args = append(b.args, row...)
	if len(b.args) < b.cols*batchRows {
		return nil
	}
	if b.full == nil {
		var err error
		if b.full, err = b.tx.Preparex(b.statement(batchRows)); err != nil {
			return err
		}
	}
	_, err := b.full.Exec(b.args...)
	b.args = b.args[:0]
	return err
}

func (b *batch) flush() error {
	if len(b.args) == 0 {
		return nil
	}
	_, err := b.tx.Exec(b.statement(len(b.args)/b.cols), b.args...)
	b.args = b.args[:0]
	return err
}

func (b *batch) statement(rows int) string {
	row := "(" + strings.Repeat("?,", b.cols-1) + "?)"
	return "INSERT INTO " + b.table + " VALUES " + strings.Repeat(row+",", rows-1) + row
}

func (b *batch) close() {
	if b.full != nil {
		b.full.Close()
	}
}

// ErrNoRun is returned by Run and ResolveRun for a run that is not stored.
var ErrNoRun = errors.New("no such run")

// ResolveRun turns a run reference ("latest" or a number) into a run ID.
func (s *Store) ResolveRun(ref string) (int64, error) {
	db := s.db
	if ref == "" || ref == "latest" {
		var id sql.NullInt64
		if err := db.Get(&id, `SELECT max(id) FROM runs`); err != nil {
			return 0, err
		}
		if !id.Valid {
			return 0, fmt.Errorf("run latest: %w (the store has no runs yet)", ErrNoRun)
		}
		return id.Int64, nil
	}
	id, err := strconv.ParseInt(ref, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("run %q: expected a run number or 'latest'", ref)
	}
	var n int
	if err := db.Get(&n, `SELECT count(*) FROM runs WHERE id = ?`, id); err != nil {
		return 0, err
	}
	if n == 0 {
		return 0, fmt.Errorf("run %d: %w", id, ErrNoRun)
	}
	return id, nil
}

// Run reads a run back from the store, with per-processor values if stored.
func (s *Store) Run(id int64) (*result.Run, error) {
	db := s.db
	var row struct {
		Kind       string          `db:"kind"`
		TraceID    sql.NullInt64   `db:"trace_id"`
		StsID      sql.NullInt64   `db:"sts_id"`
		SweepID    sql.NullInt64   `db:"sweep_id"`
		Program    string          `db:"program"`
		MachineID  sql.NullInt64   `db:"machine_id"`
		Machine    sql.NullString  `db:"machine"`
		Grid       string          `db:"grid"`
		Network    sql.NullString  `db:"network"`
		TStart     sql.NullFloat64 `db:"tstart_us"`
		TByte      sql.NullFloat64 `db:"tbyte_us"`
		Power      sql.NullFloat64 `db:"power"`
		TStartUsed sql.NullFloat64 `db:"tstart_used_us"`
		TByteUsed  sql.NullFloat64 `db:"tbyte_used_us"`
		PowerUsed  sql.NullFloat64 `db:"power_used"`
		Options    string          `db:"options"`
		ReportRoot int             `db:"report_root"`
	}
	err := db.Get(&row, `SELECT kind, trace_id, sts_id, sweep_id, program, machine_id, machine, grid,
		network, tstart_us, tbyte_us, power, tstart_used_us, tbyte_used_us, power_used, options, report_root FROM runs WHERE id = ?`, id)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("run %d: %w", id, ErrNoRun)
	}
	if err != nil {
		return nil, err
	}
	grid, err := result.ParseGrid(row.Grid)
	if err != nil {
		return nil, fmt.Errorf("run %d: %w", id, err)
	}
	run := &result.Run{
		ID: id, Kind: result.Kind(row.Kind), TraceID: row.TraceID.Int64, StsID: row.StsID.Int64,
		SweepID: row.SweepID.Int64, Program: row.Program, ReportRoot: row.ReportRoot,
		Config: result.Config{
			Machine: row.Machine.String, MachineID: row.MachineID.Int64, Grid: grid,
			Network: row.Network.String, TStart: row.TStart.Float64 / 1e6, TByte: row.TByte.Float64 / 1e6,
			Power: row.Power.Float64,
			Used:  result.MachineValues{TStart: row.TStartUsed.Float64 / 1e6, TByte: row.TByteUsed.Float64 / 1e6, Power: row.PowerUsed.Float64},
		},
	}
	if row.Options != "" {
		run.Config.Options = strings.Split(row.Options, ",")
	}
	if err := loadIntervals(db, run); err != nil {
		return nil, fmt.Errorf("run %d: %w", id, err)
	}
	if err := db.Select(&run.Warnings, `SELECT message, count, doubtful FROM run_warnings WHERE run_id = ? ORDER BY message`, id); err != nil {
		return nil, err
	}
	return run, nil
}

func loadIntervals(db *sqlx.DB, run *result.Run) error {
	rows, err := db.Queryx(`SELECT id, coalesce(parent, 0), level, type, file, line, expr, count
		FROM intervals WHERE run_id = ? ORDER BY ord`, run.ID)
	if err != nil {
		return err
	}
	byID := map[int]*result.Interval{}
	for rows.Next() {
		iv := &result.Interval{}
		var expr sql.NullInt64
		var typ string
		if err := rows.Scan(&iv.ID, &iv.Parent, &iv.Level, &typ, &iv.File, &iv.Line, &expr, &iv.Count); err != nil {
			rows.Close()
			return err
		}
		iv.Type = result.IntervalType(typ)
		if expr.Valid {
			e := expr.Int64
			iv.Expr = &e
		}
		if p := byID[iv.Parent]; p != nil {
			p.Children = append(p.Children, iv.ID)
		}
		byID[iv.ID] = iv
		run.Intervals = append(run.Intervals, iv)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	if len(run.Intervals) == 0 {
		return errors.New("no intervals stored")
	}
	if err := scanValues(db, `SELECT interval_id, char_id, value FROM interval_values WHERE run_id = ?`, run.ID,
		func(ivID, char int, v float64) {
			if iv := byID[ivID]; iv != nil && char >= 0 && char < int(result.NumChars) {
				iv.Values[char] = v
			}
		}); err != nil {
		return err
	}
	// The values come interval by interval, processor by processor.
	return eachProcValue(context.Background(), db, run.ID, func(v procValue) error {
		iv := byID[int(v.interval)]
		if iv == nil || v.char < 0 || v.char >= int64(result.NumChars) {
			return nil
		}
		if n := len(iv.Procs); n == 0 || iv.Procs[n-1].Proc != int(v.proc) {
			iv.Procs = append(iv.Procs, result.NewProcValues(int(v.proc)))
		}
		iv.Procs[len(iv.Procs)-1].Values[v.char] = v.value
		return nil
	})
}

func scanValues(db *sqlx.DB, q string, runID int64, f func(iv, char int, v float64)) error {
	rows, err := db.Query(q, runID)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var iv, char int
		var v float64
		if err := rows.Scan(&iv, &char, &v); err != nil {
			return err
		}
		f(iv, char, v)
	}
	return rows.Err()
}
