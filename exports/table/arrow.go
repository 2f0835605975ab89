package table

import (
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/presage-dvm/presage/schema"
)

// ArrowSchema is the Arrow schema of the table's files for one sweep,
// carrying the store schema version, the table name and the sweep in its
// metadata.
func (t Table) ArrowSchema(sweepID int64) *arrow.Schema {
	fields := make([]arrow.Field, len(t.Columns))
	for i, c := range t.Columns {
		fields[i] = arrow.Field{Name: c.Name, Type: c.Kind.arrowType(), Nullable: c.Nullable}
	}
	md := arrow.NewMetadata(
		[]string{MetaSchemaVersion, MetaTable, MetaSweepID},
		[]string{strconv.Itoa(schema.Version), t.Name, strconv.FormatInt(sweepID, 10)},
	)
	return arrow.NewSchema(fields, &md)
}

func (k Kind) arrowType() arrow.DataType {
	switch k {
	case Int64:
		return arrow.PrimitiveTypes.Int64
	case Float64:
		return arrow.PrimitiveTypes.Float64
	default:
		return arrow.BinaryTypes.String
	}
}
