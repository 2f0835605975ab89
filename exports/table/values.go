package table

import (
	"context"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/presage-dvm/presage/schema/stored"
	"github.com/presage-dvm/presage/sim/result"
)

// The fields of each row type, by column name: how a column is appended
// from the typed rows the store streams. A NULL appended to a column that
// is not nullable is refused when its batch is cut (batcher.checkNulls).

// runFields are the columns of v_runs.
var runFields = map[string]appender[stored.RunRow]{
	"run_id":         func(b array.Builder, r *stored.RunRow) { appendInt(b, r.ID) },
	"kind":           func(b array.Builder, r *stored.RunRow) { appendString(b, r.Kind) },
	"program":        func(b array.Builder, r *stored.RunRow) { appendString(b, r.Program) },
	"trace_id":       func(b array.Builder, r *stored.RunRow) { appendNullInt(b, r.TraceID) },
	"sts_id":         func(b array.Builder, r *stored.RunRow) { appendNullInt(b, r.StsID) },
	"machine":        func(b array.Builder, r *stored.RunRow) { appendNullString(b, r.Machine) },
	"grid":           func(b array.Builder, r *stored.RunRow) { appendString(b, r.Grid) },
	"grid_rank":      func(b array.Builder, r *stored.RunRow) { appendInt(b, r.GridRank) },
	"grid_d1":        func(b array.Builder, r *stored.RunRow) { appendInt(b, r.GridD1) },
	"grid_d2":        func(b array.Builder, r *stored.RunRow) { appendNullInt(b, r.GridD2) },
	"grid_d3":        func(b array.Builder, r *stored.RunRow) { appendNullInt(b, r.GridD3) },
	"grid_d4":        func(b array.Builder, r *stored.RunRow) { appendNullInt(b, r.GridD4) },
	"procs":          func(b array.Builder, r *stored.RunRow) { appendInt(b, r.Procs) },
	"network":        func(b array.Builder, r *stored.RunRow) { appendNullString(b, r.Network) },
	"tstart_us":      func(b array.Builder, r *stored.RunRow) { appendNullFloat(b, r.TStartUS) },
	"tbyte_us":       func(b array.Builder, r *stored.RunRow) { appendNullFloat(b, r.TByteUS) },
	"power":          func(b array.Builder, r *stored.RunRow) { appendNullFloat(b, r.Power) },
	"tstart_used_us": func(b array.Builder, r *stored.RunRow) { appendNullFloat(b, r.TStartUsedUS) },
	"tbyte_used_us":  func(b array.Builder, r *stored.RunRow) { appendNullFloat(b, r.TByteUsedUS) },
	"power_used":     func(b array.Builder, r *stored.RunRow) { appendNullFloat(b, r.PowerUsed) },
	"options":        func(b array.Builder, r *stored.RunRow) { appendString(b, r.Options) },
	"report_root":    func(b array.Builder, r *stored.RunRow) { appendInt(b, r.ReportRoot) },
	"execution_time": func(b array.Builder, r *stored.RunRow) { appendFloat(b, r.ExecutionTime) },
	"cost":           func(b array.Builder, r *stored.RunRow) { appendFloat(b, r.Cost) },
	"doubtful":       func(b array.Builder, r *stored.RunRow) { appendInt(b, r.Doubtful) },
	"created_at":     func(b array.Builder, r *stored.RunRow) { appendTime(b, r.CreatedAt) },
}

// intervalFields are the columns of v_intervals.
var intervalFields = map[string]appender[stored.IntervalRow]{
	"run_id":      func(b array.Builder, iv *stored.IntervalRow) { appendInt(b, iv.RunID) },
	"interval_id": func(b array.Builder, iv *stored.IntervalRow) { appendInt(b, iv.ID) },
	"parent":      func(b array.Builder, iv *stored.IntervalRow) { appendNullInt(b, iv.Parent) },
	"ord":         func(b array.Builder, iv *stored.IntervalRow) { appendInt(b, iv.Ord) },
	"level":       func(b array.Builder, iv *stored.IntervalRow) { appendInt(b, iv.Level) },
	"type":        func(b array.Builder, iv *stored.IntervalRow) { appendString(b, iv.Type) },
	"file":        func(b array.Builder, iv *stored.IntervalRow) { appendString(b, iv.File) },
	"line":        func(b array.Builder, iv *stored.IntervalRow) { appendInt(b, iv.Line) },
	"expr":        func(b array.Builder, iv *stored.IntervalRow) { appendNullInt(b, iv.Expr) },
	"count":       func(b array.Builder, iv *stored.IntervalRow) { appendInt(b, iv.Count) },
	"path":        func(b array.Builder, iv *stored.IntervalRow) { appendString(b, iv.Path) },
}

// valueFields are the columns of v_values_long: a value's own, then its
// run's and its interval's.
var valueFields = merge(
	map[string]appender[stored.ValueRow]{
		"proc":           func(b array.Builder, r *stored.ValueRow) { appendNullInt(b, r.Proc) },
		"characteristic": func(b array.Builder, r *stored.ValueRow) { appendString(b, r.Char.Name) },
		"unit":           func(b array.Builder, r *stored.ValueRow) { appendString(b, r.Char.Unit) },
		"family":         func(b array.Builder, r *stored.ValueRow) { appendString(b, r.Char.Family) },
		"value":          func(b array.Builder, r *stored.ValueRow) { appendFloat(b, r.Value) },
	},
	lift(runFields, func(r *stored.ValueRow) *stored.RunRow { return r.Run }),
	lift(intervalFields, func(r *stored.ValueRow) *stored.IntervalRow { return r.Interval }),
)

func appendInt(b array.Builder, v int64)     { b.(*array.Int64Builder).Append(v) }
func appendFloat(b array.Builder, v float64) { b.(*array.Float64Builder).Append(v) }
func appendString(b array.Builder, v string) { b.(*array.StringBuilder).Append(v) }

// appendTime appends an RFC 3339 time of the store as a timestamp; a
// time that does not parse is a NULL, which the batcher refuses.
func appendTime(b array.Builder, v string) {
	t, err := time.Parse(time.RFC3339, v)
	if err != nil {
		b.AppendNull()
		return
	}
	b.(*array.TimestampBuilder).Append(arrow.Timestamp(t.Unix()))
}

func appendNullInt(b array.Builder, v stored.Null[int64]) {
	if !v.Valid {
		b.AppendNull()
		return
	}
	appendInt(b, v.V)
}

func appendNullFloat(b array.Builder, v stored.Null[float64]) {
	if !v.Valid {
		b.AppendNull()
		return
	}
	appendFloat(b, v.V)
}

func appendNullString(b array.Builder, v stored.Null[string]) {
	if !v.Valid {
		b.AppendNull()
		return
	}
	appendString(b, v.V)
}

// streamCharacteristics appends the characteristics of sim/result.
func streamCharacteristics(_ context.Context, _ Source, t Table, _ int64, bt *batcher) error {
	for _, c := range result.Chars {
		for i, v := range []string{c.Name, c.Unit, string(c.Family), c.OpClass, c.Description} {
			if v == "" && t.Columns[i].Nullable {
				bt.b.Field(i).AppendNull()
				continue
			}
			appendString(bt.b.Field(i), v)
		}
		if err := bt.added(); err != nil {
			return err
		}
	}
	return nil
}
