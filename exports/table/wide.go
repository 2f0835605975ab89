package table

import (
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/presage-dvm/presage/schema/stored"
	"github.com/presage-dvm/presage/sim/result"
)

// charColumns are the characteristic columns of the wide table, those of
// v_intervals_wide (stored.WideCharColumns, one generator for the view and
// the export); NULL where a value is not stored.
func charColumns() []Column {
	wide := stored.WideCharColumns()
	cols := make([]Column, len(wide))
	for i, c := range wide {
		info := result.Chars[c.Char]
		cols[i] = nullable(c.Name, Float64, info.Unit, info.Description+"; NULL where the run stores no value")
	}
	return cols
}

// wideFields are the columns of v_intervals_wide: the run's, the
// interval's and one per characteristic.
var wideFields = merge(
	charFields(),
	lift(runFields, func(w *stored.WideRow) *stored.RunRow { return w.Run }),
	lift(intervalFields, func(w *stored.WideRow) *stored.IntervalRow { return w.Interval }),
)

func charFields() map[string]appender[stored.WideRow] {
	out := map[string]appender[stored.WideRow]{}
	for _, c := range stored.WideCharColumns() {
		ch := c.Char
		out[c.Name] = func(b array.Builder, w *stored.WideRow) {
			if !w.Has[ch] {
				b.AppendNull()
				return
			}
			appendFloat(b, w.Values[ch])
		}
	}
	return out
}
