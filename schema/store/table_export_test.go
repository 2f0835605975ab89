package store

import (
	"fmt"

	"github.com/presage-dvm/presage/schema/stored"
)

// ViewRows returns every row of query as text, one cell per column
// (NULL as "NULL"), for tests that compare what a method streams with
// what a view holds.
func (s *Store) ViewRows(query string, args ...any) ([][]string, error) {
	rows, err := s.db.Query(query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	var out [][]string
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		row := make([]string, len(cols))
		for i, v := range vals {
			row[i] = Cell(v)
		}
		out = append(out, row)
	}
	return out, rows.Err()
}

// Cell renders a value read from the store, or a Null, as ViewRows does.
func Cell(v any) string {
	switch v := v.(type) {
	case nil:
		return "NULL"
	case []byte:
		return string(v)
	case stored.Null[int64]:
		return nullCell(v.Valid, v.V)
	case stored.Null[float64]:
		return nullCell(v.Valid, v.V)
	case stored.Null[string]:
		return nullCell(v.Valid, v.V)
	}
	return fmt.Sprint(v)
}

func nullCell(valid bool, v any) string {
	if !valid {
		return "NULL"
	}
	return Cell(v)
}
