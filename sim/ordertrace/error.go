package ordertrace

import (
	"errors"
	"fmt"
)

// Error is a defect of an order trace: the file's name, the 1-based line
// where the defect was found (0 when it concerns the file as a whole), the
// order concerned (0 when unknown) and what was expected.
type Error struct {
	File  string
	Line  int64
	Order int64
	Msg   string
	Err   error // the underlying read error, if any
}

func (e *Error) Error() string {
	where := e.File
	if where == "" {
		where = "order trace"
	}
	if e.Line > 0 {
		where = fmt.Sprintf("%s:%d", where, e.Line)
	}
	if e.Order > 0 {
		return fmt.Sprintf("%s: order %d: %s", where, e.Order, e.Msg)
	}
	return fmt.Sprintf("%s: %s", where, e.Msg)
}

// Unwrap returns the read error behind e, if any.
func (e *Error) Unwrap() error { return e.Err }

// defect is a problem found in one order, before the file and line are known.
type defect struct {
	order int64
	msg   string
}

func (d *defect) Error() string { return fmt.Sprintf("order %d: %s", d.order, d.msg) }

func defectf(order int64, format string, args ...any) *defect {
	return &defect{order: order, msg: fmt.Sprintf(format, args...)}
}

// placeDefect turns a checker's defect, found while at line of file, into
// an *Error; a *lineDefect carries the earlier line it concerns.
func placeDefect(file string, line int64, err error) error {
	var ld *lineDefect
	if errors.As(err, &ld) {
		line, err = ld.line, ld.defect
	}
	var d *defect
	if !errors.As(err, &d) {
		return &Error{File: file, Line: line, Msg: err.Error()}
	}
	if d.order == 0 {
		line = 0 // about the file as a whole
	}
	return &Error{File: file, Line: line, Order: d.order, Msg: d.msg}
}
