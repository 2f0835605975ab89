package table

import (
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/presage-dvm/presage/schema/stored"
)

// ArrowSchema is the Arrow schema of the table's files for one sweep,
// carrying the store schema version, the table name and the sweep (but
// for a static table) in its metadata, and every column's unit and
// description in its field's.
func (t Table) ArrowSchema(sweepID int64) *arrow.Schema {
	fields := make([]arrow.Field, len(t.Columns))
	for i, c := range t.Columns {
		md := arrow.NewMetadata([]string{"description"}, []string{c.Doc})
		if c.Unit != "" {
			md = arrow.NewMetadata([]string{"unit", "description"}, []string{c.Unit, c.Doc})
		}
		fields[i] = arrow.Field{Name: c.Name, Type: c.Kind.arrowType(), Nullable: c.Nullable, Metadata: md}
	}
	keys := []string{MetaSchemaVersion, MetaTable}
	vals := []string{strconv.Itoa(stored.SchemaVersion), t.Name}
	if !t.Static {
		keys, vals = append(keys, MetaSweepID), append(vals, strconv.FormatInt(sweepID, 10))
	}
	md := arrow.NewMetadata(keys, vals)
	return arrow.NewSchema(fields, &md)
}

func (k Kind) arrowType() arrow.DataType {
	switch k {
	case Int64:
		return arrow.PrimitiveTypes.Int64
	case Float64:
		return arrow.PrimitiveTypes.Float64
	case Timestamp:
		return &arrow.TimestampType{Unit: arrow.Second, TimeZone: "UTC"}
	default:
		return arrow.BinaryTypes.String
	}
}
