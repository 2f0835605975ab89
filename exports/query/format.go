package query

import (
	"bufio"
	"encoding/base64"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"text/tabwriter"
	"time"
)

// writer writes a result in one format.
type writer interface {
	header(cols []string) error
	row(vals []any) error
	close() error
}

func newWriter(opt Options, w io.Writer) (writer, error) {
	switch opt.Format {
	case "table", "":
		return &tableWriter{tw: tabwriter.NewWriter(w, 0, 8, 2, ' ', tabwriter.AlignRight), digits: opt.Digits}, nil
	case "csv":
		return &csvWriter{w: csv.NewWriter(w)}, nil
	case "json":
		return &jsonWriter{w: bufio.NewWriter(w)}, nil
	}
	return nil, fmt.Errorf("format %q: expected table, csv or json", opt.Format)
}

// residue is the magnitude below which the table format prints a number
// as 0: the characteristics are times in seconds, and a difference of two
// of them leaves residues of 1e-19 where the model has none (a femtosecond
// is below any clock). CSV and JSON keep the exact value.
const residue = 1e-15

// text formats a value for the table and CSV outputs; NULL is "" (CSV)
// or NULL (table); floats get digits significant digits, all when 0.
func text(v any, null string, digits int) string {
	switch x := v.(type) {
	case nil:
		return null
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		if digits > 0 {
			if math.Abs(x) < residue {
				x = 0
			}
			return strconv.FormatFloat(x, 'g', digits, 64)
		}
		return strconv.FormatFloat(x, 'g', -1, 64)
	case string:
		return x
	case []byte:
		return string(x)
	case bool:
		return strconv.FormatBool(x)
	case time.Time:
		return x.Format(time.RFC3339Nano)
	}
	return fmt.Sprint(v)
}

type tableWriter struct {
	tw     *tabwriter.Writer
	buf    []byte
	digits int
}

func (t *tableWriter) line(fields []string) error {
	t.buf = t.buf[:0]
	for _, f := range fields {
		t.buf = append(t.buf, f...)
		t.buf = append(t.buf, '\t')
	}
	t.buf = append(t.buf, '\n')
	_, err := t.tw.Write(t.buf)
	return err
}

func (t *tableWriter) header(cols []string) error { return t.line(cols) }

func (t *tableWriter) row(vals []any) error {
	f := make([]string, len(vals))
	for i, v := range vals {
		f[i] = text(v, "NULL", t.digits)
	}
	return t.line(f)
}

func (t *tableWriter) close() error { return t.tw.Flush() }

type csvWriter struct {
	w   *csv.Writer
	rec []string
}

func (c *csvWriter) header(cols []string) error { return c.w.Write(cols) }

func (c *csvWriter) row(vals []any) error {
	if c.rec == nil {
		c.rec = make([]string, len(vals))
	}
	for i, v := range vals {
		c.rec[i] = text(v, "", 0)
	}
	return c.w.Write(c.rec)
}

func (c *csvWriter) close() error {
	c.w.Flush()
	return c.w.Error()
}

// jsonWriter writes an array of objects whose keys keep the column order.
type jsonWriter struct {
	w    *bufio.Writer
	keys [][]byte
	n    int
}

func (j *jsonWriter) header(cols []string) error {
	for _, c := range cols {
		k, _ := json.Marshal(c)
		j.keys = append(j.keys, k)
	}
	_, err := j.w.WriteString("[")
	return err
}

func (j *jsonWriter) row(vals []any) error {
	if j.n > 0 {
		j.w.WriteString(",")
	}
	j.n++
	j.w.WriteString("\n{")
	for i, v := range vals {
		if i > 0 {
			j.w.WriteString(",")
		}
		j.w.Write(j.keys[i])
		j.w.WriteString(":")
		b, err := jsonValue(v)
		if err != nil {
			return err
		}
		j.w.Write(b)
	}
	_, err := j.w.WriteString("}")
	return err
}

func jsonValue(v any) ([]byte, error) {
	switch x := v.(type) {
	case float64:
		if math.IsInf(x, 0) || math.IsNaN(x) { // not representable in JSON
			return json.Marshal(strconv.FormatFloat(x, 'g', -1, 64))
		}
	case []byte:
		return json.Marshal(base64.StdEncoding.EncodeToString(x))
	}
	return json.Marshal(v)
}

func (j *jsonWriter) close() error {
	if j.n > 0 {
		j.w.WriteString("\n")
	}
	j.w.WriteString("]\n")
	return j.w.Flush()
}
