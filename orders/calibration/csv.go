package calibration

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// columns is the header row of a calibration file. Files written before
// copies and wall were timed have only the first six (columnsV1), and
// read as runs alone with their wall time unknown; files written before
// the runs were pinned to a CPU and their page faults counted have the
// first eight (columnsV2), and read as runs not pinned (CPU -1) without
// faults.
var (
	columns   = []string{"block", "alpha", "f", "seconds", "machine", "rep", "copies", "wall", "cpu", "faults"}
	columnsV1 = columns[:6]
	columnsV2 = columns[:8]
)

// Error is a defect of a calibration file: its name, the 1-based line
// (0 for the file as a whole) and what was expected.
type Error struct {
	File string
	Line int64
	Msg  string
}

func (e *Error) Error() string {
	if e.Line <= 0 {
		return fmt.Sprintf("%s: %s", e.File, e.Msg)
	}
	return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
}

// Reader reads calibration rows, validating each (docs/orders.md).
type Reader struct {
	name   string
	cr     *csv.Reader
	chk    *checker
	fields int // of the file's header
	err    error
}

// NewReader reads the header row of the calibration file in r; name is
// used in error messages.
func NewReader(r io.Reader, name string) (*Reader, error) {
	cr := csv.NewReader(bufio.NewReader(r))
	cr.FieldsPerRecord = -1 // checked here, with a clearer message
	cr.ReuseRecord = true
	rd := &Reader{name: name, cr: cr, chk: newChecker(), fields: len(columns)}
	head, err := cr.Read()
	if err == io.EOF {
		return nil, &Error{File: name, Msg: fmt.Sprintf("empty file (expected the header %s)", strings.Join(columns, ","))}
	}
	if err != nil {
		return nil, rd.csvError(err)
	}
	switch strings.Join(head, ",") {
	case strings.Join(columns, ","):
	case strings.Join(columnsV1, ","):
		rd.fields = len(columnsV1)
	case strings.Join(columnsV2, ","):
		rd.fields = len(columnsV2)
	default:
		return nil, &Error{File: name, Line: 1, Msg: fmt.Sprintf("header %q (expected %s)", short(strings.Join(head, ",")), strings.Join(columns, ","))}
	}
	return rd, nil
}

// Next returns the next row, io.EOF after the last one, or an *Error.
func (r *Reader) Next() (Row, error) {
	if r.err != nil {
		return Row{}, r.err
	}
	row, err := r.next()
	if err != nil {
		r.err = err
	}
	return row, err
}

func (r *Reader) next() (Row, error) {
	rec, err := r.cr.Read()
	if err == io.EOF {
		return Row{}, io.EOF
	}
	if err != nil {
		return Row{}, r.csvError(err)
	}
	line, _ := r.cr.FieldPos(0)
	fail := func(format string, args ...any) (Row, error) {
		return Row{}, &Error{File: r.name, Line: int64(line), Msg: fmt.Sprintf(format, args...)}
	}
	if len(rec) != r.fields {
		return fail("%d fields (expected %d: %s)", len(rec), r.fields, strings.Join(columns[:r.fields], ","))
	}
	row, msg := parseRow(rec)
	if msg == "" {
		msg = r.chk.add(row, int64(line))
	}
	if msg != "" {
		return fail("%s", msg)
	}
	return row, nil
}

// parseRow converts the fields of a record, "" or what is wrong.
func parseRow(rec []string) (Row, string) {
	row := Row{Block: rec[0], Machine: rec[4], CPU: -1}
	var err error
	if row.Alpha, err = parseAlpha(rec[1]); err != nil {
		return row, err.Error()
	}
	if row.F, err = parseNumber(rec[2]); err != nil {
		return row, fmt.Sprintf("f %q (expected a number)", short(rec[2]))
	}
	if row.Seconds, err = parseNumber(rec[3]); err != nil {
		return row, fmt.Sprintf("seconds %q (expected a number)", short(rec[3]))
	}
	if row.Rep, err = strconv.Atoi(rec[5]); err != nil {
		return row, fmt.Sprintf("rep %q (expected an integer)", short(rec[5]))
	}
	if len(rec) == len(columnsV1) {
		row.Copies = 1
		return row, ""
	}
	if row.Copies, err = strconv.Atoi(rec[6]); err != nil {
		return row, fmt.Sprintf("copies %q (expected an integer)", short(rec[6]))
	}
	if row.Copies == 0 {
		row.Copies = 1 // alone, as the analysis reads 0 and as the writer writes it
	}
	if row.Wall, err = parseNumber(rec[7]); err != nil {
		return row, fmt.Sprintf("wall %q (expected a number)", short(rec[7]))
	}
	if len(rec) == len(columnsV2) {
		return row, ""
	}
	if rec[8] != "" {
		if row.CPU, err = strconv.Atoi(rec[8]); err != nil || row.CPU < 0 {
			return row, fmt.Sprintf("cpu %q (expected a CPU number ≥ 0, or empty when not pinned)", short(rec[8]))
		}
	}
	if row.Faults, err = strconv.Atoi(rec[9]); err != nil {
		return row, fmt.Sprintf("faults %q (expected an integer)", short(rec[9]))
	}
	return row, ""
}

// parseAlpha reads α: numbers separated by ';', "" for none.
func parseAlpha(s string) ([]float64, error) {
	if s == "" {
		return nil, nil
	}
	parts := strings.Split(s, ";")
	alpha := make([]float64, len(parts))
	for i, p := range parts {
		a, err := parseNumber(strings.TrimSpace(p))
		if err != nil {
			return nil, fmt.Errorf("alpha %q: part %d %q (expected numbers separated by ';')", short(s), i, short(p))
		}
		alpha[i] = a
	}
	return alpha, nil
}

// parseNumber reads a number; one out of range reads as ±Inf or 0, which
// the row's checks then reject with the value shown.
func parseNumber(s string) (float64, error) {
	x, err := strconv.ParseFloat(s, 64)
	if errors.Is(err, strconv.ErrRange) {
		err = nil
	}
	return x, err
}

func formatAlpha(alpha []float64) string {
	var b []byte
	for i, a := range alpha {
		if i > 0 {
			b = append(b, ';')
		}
		b = strconv.AppendFloat(b, a, 'g', -1, 64)
	}
	return string(b)
}

func (r *Reader) csvError(err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return &Error{File: r.name, Line: int64(pe.Line), Msg: fmt.Sprintf("column %d: %v", pe.Column, pe.Err)}
	}
	return &Error{File: r.name, Msg: fmt.Sprintf("reading: %v", err)}
}

// ReadAll reads every row of the calibration file in r.
func ReadAll(r io.Reader, name string) ([]Row, error) {
	rd, err := NewReader(r, name)
	if err != nil {
		return nil, err
	}
	var rows []Row
	for {
		row, err := rd.Next()
		if err == io.EOF {
			return rows, nil
		}
		if err != nil {
			return nil, err
		}
		rows = append(rows, row)
	}
}

// Writer writes calibration rows, validating each as the Reader would.
type Writer struct {
	cw   *csv.Writer
	chk  *checker
	line int64
}

// NewWriter writes the header row to w.
func NewWriter(w io.Writer) *Writer {
	cw := csv.NewWriter(w)
	cw.Write(columns)
	return &Writer{cw: cw, chk: newChecker(), line: 1}
}

// Write validates r and writes its row.
func (w *Writer) Write(r Row) error {
	w.line++
	if msg := w.chk.add(r, w.line); msg != "" {
		return &Error{File: "calibration", Line: w.line, Msg: msg}
	}
	return w.cw.Write([]string{r.Block, formatAlpha(r.Alpha),
		strconv.FormatFloat(r.F, 'g', -1, 64), strconv.FormatFloat(r.Seconds, 'g', -1, 64),
		r.Machine, strconv.Itoa(r.Rep), strconv.Itoa(max(r.Copies, 1)), strconv.FormatFloat(r.Wall, 'g', -1, 64), formatCPU(r.CPU), strconv.Itoa(r.Faults)})
}

// formatCPU writes a row's CPU, empty when the run was not pinned.
func formatCPU(cpu int) string {
	if cpu < 0 {
		return ""
	}
	return strconv.Itoa(cpu)
}

// Close flushes the rows; it does not close the underlying writer.
func (w *Writer) Close() error {
	w.cw.Flush()
	return w.cw.Error()
}

// maxQuoted is how many bytes of a field an error quotes: a file of one
// line of megabytes is one field, and its error would echo it whole.
const maxQuoted = 64

// short is s cut to its first maxQuoted bytes and "…", for quoting in an
// error.
func short(s string) string {
	if len(s) <= maxQuoted {
		return s
	}
	return s[:maxQuoted] + "…"
}
