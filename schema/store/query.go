package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"unicode"
)

// Query runs one read-only statement with named parameters (:name in the
// text, params by name): header gets the column names, then row each
// row's values (int64, float64, string, []byte or nil; the slice is
// reused between calls). Read-only is enforced twice: the statement must
// pass CheckReadOnly, and it runs on a connection set to query_only, so
// that even a statement the check lets through cannot change the store
// (the connection is then given back as it was). Ad hoc statements
// (presage query) and the named queries of package queries run through
// here.
func (s *Store) Query(ctx context.Context, query string, params map[string]any,
	header func(cols []string) error, row func(vals []any) error) error {
	if err := CheckReadOnly(query); err != nil {
		return err
	}
	return s.queryOnly(ctx, query, params, header, row)
}

// queryOnly runs query on a connection set to query_only.
func (s *Store) queryOnly(ctx context.Context, query string, params map[string]any,
	header func(cols []string) error, row func(vals []any) error) (err error) {
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	restore, err := setQueryOnly(ctx, conn)
	if err != nil {
		return err
	}
	defer func() {
		if rerr := restore(); rerr != nil && err == nil {
			err = rerr
		}
	}()
	args := make([]any, 0, len(params))
	for name, v := range params {
		args = append(args, sql.Named(name, v))
	}
	rows, err := conn.QueryContext(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	return eachValues(rows, header, row)
}

// setQueryOnly sets conn to refuse writes and returns what sets it back.
func setQueryOnly(ctx context.Context, conn *sql.Conn) (restore func() error, err error) {
	var was int
	if err := conn.QueryRowContext(ctx, `PRAGMA query_only`).Scan(&was); err != nil {
		return nil, err
	}
	if _, err := conn.ExecContext(ctx, `PRAGMA query_only = 1`); err != nil {
		return nil, err
	}
	if was != 0 {
		return func() error { return nil }, nil
	}
	return func() error {
		// Not ctx: the connection goes back to a writable pool even when
		// the query was cancelled.
		_, err := conn.ExecContext(context.Background(), `PRAGMA query_only = 0`)
		return err
	}, nil
}

// eachValues hands the column names of rows to header, then each row's
// values to row.
func eachValues(rows *sql.Rows, header func([]string) error, row func([]any) error) error {
	cols, err := rows.Columns()
	if err != nil {
		return err
	}
	if err := header(cols); err != nil {
		return err
	}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return err
		}
		if err := row(vals); err != nil {
			return err
		}
	}
	return rows.Err()
}

// ErrNotReadOnly is returned for a statement that is not a single query.
var ErrNotReadOnly = errors.New("only a single SELECT or WITH ... SELECT statement is allowed (the store is read-only)")

// writing are keywords that only statements changing a database (or the
// connection) contain.
var writing = map[string]bool{
	"INSERT": true, "UPDATE": true, "DELETE": true,
	"CREATE": true, "DROP": true, "ALTER": true, "ATTACH": true, "DETACH": true,
	"PRAGMA": true, "VACUUM": true, "REINDEX": true, "ANALYZE": true,
	"BEGIN": true, "COMMIT": true, "ROLLBACK": true, "SAVEPOINT": true, "RELEASE": true,
}

// CheckReadOnly accepts one SELECT or WITH statement (a trailing semicolon
// allowed) in which no writing keyword occurs outside string literals,
// quoted identifiers and comments. WITH is checked for keywords too
// because SQLite allows WITH ... DELETE.
func CheckReadOnly(sqlText string) error {
	words, err := keywords(sqlText)
	if err != nil {
		return err
	}
	if len(words) == 0 {
		return fmt.Errorf("empty statement: %w", ErrNotReadOnly)
	}
	if first := words[0]; first != "SELECT" && first != "WITH" && first != "VALUES" {
		return fmt.Errorf("statement starts with %s: %w", first, ErrNotReadOnly)
	}
	for i, w := range words {
		// replace() is also a string function: only REPLACE INTO writes.
		if w == "REPLACE" && i+1 < len(words) && words[i+1] == "INTO" {
			return fmt.Errorf("REPLACE INTO in the statement: %w", ErrNotReadOnly)
		}
		if w == ";" {
			return fmt.Errorf("more than one statement: %w", ErrNotReadOnly)
		}
		if writing[w] {
			return fmt.Errorf("%s in the statement: %w", w, ErrNotReadOnly)
		}
	}
	return nil
}

// keywords returns the bare words of s in upper case, skipping literals,
// quoted identifiers and comments; a semicolon followed by anything but
// blanks and comments is returned as ";".
func keywords(s string) ([]string, error) {
	var words []string
	semicolon := false
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '-' && i+1 < len(s) && s[i+1] == '-':
			j := strings.IndexByte(s[i:], '\n')
			if j < 0 {
				return words, nil
			}
			i += j + 1
		case c == '/' && i+1 < len(s) && s[i+1] == '*':
			j := strings.Index(s[i+2:], "*/")
			if j < 0 {
				return nil, fmt.Errorf("unterminated /* comment at offset %d", i)
			}
			i += j + 4
		case c == '\'' || c == '"' || c == '`' || c == '[':
			end := c
			if c == '[' {
				end = ']'
			}
			j := i + 1
			for ; j < len(s); j++ {
				if s[j] == end {
					if end != ']' && j+1 < len(s) && s[j+1] == end { // doubled quote
						j++
						continue
					}
					break
				}
			}
			if j >= len(s) {
				return nil, fmt.Errorf("unterminated %c at offset %d", c, i)
			}
			if semicolon {
				words = append(words, ";")
				semicolon = false
			}
			i = j + 1
		case c == ';':
			semicolon = true
			i++
		case isWord(rune(c)):
			j := i
			for j < len(s) && isWord(rune(s[j])) {
				j++
			}
			if semicolon {
				words = append(words, ";")
				semicolon = false
			}
			words = append(words, strings.ToUpper(s[i:j]))
			i = j
		case unicode.IsSpace(rune(c)):
			i++
		default:
			if semicolon {
				words = append(words, ";")
				semicolon = false
			}
			i++
		}
	}
	return words, nil
}

func isWord(r rune) bool {
	return r == '_' || r == '$' || unicode.IsLetter(r) || unicode.IsDigit(r) || r >= 0x80
}
