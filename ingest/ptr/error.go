package ptr

import "fmt"

// Error is a defect of a trace file: its name, the 1-based line where the
// defect was found (0 when it concerns the file as a whole) and what was
// expected.
type Error struct {
	File string
	Line int
	Msg  string
	Err  error // the underlying read error, if any
}

func (e *Error) Error() string {
	if e.Line <= 0 {
		return fmt.Sprintf("%s: %s", e.File, e.Msg)
	}
	return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
}

// Unwrap returns the read error behind e, if any.
func (e *Error) Unwrap() error { return e.Err }
