package sts

import "fmt"

// Error is a defect of a statistics file: the file, the 0-based processor
// whose buffer holds it (-1 for the file preamble), the byte offset (within
// the file for the preamble, within the uncompressed processor buffer
// otherwise) and what was expected there.
type Error struct {
	File   string
	Proc   int
	Offset int64
	Msg    string
	Err    error // the underlying read or zlib error, if any
}

func (e *Error) Error() string {
	if e.Proc < 0 {
		return fmt.Sprintf("%s: offset %d: %s", e.File, e.Offset, e.Msg)
	}
	return fmt.Sprintf("%s: processor %d: buffer offset %d: %s", e.File, e.Proc, e.Offset, e.Msg)
}

// Unwrap returns the read error behind e, if any.
func (e *Error) Unwrap() error { return e.Err }
