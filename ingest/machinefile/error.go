package machinefile

import "fmt"

// Error is a problem in a machine file, located by line and column (both
// 1-based; the column counts bytes).
type Error struct {
	File      string
	Line, Col int
	Msg       string
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg)
}
