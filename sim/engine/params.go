package engine

import "fmt"

// Error is a defect of the trace found while simulating it: the trace file,
// the line of the call, the function and what was expected.
type Error struct {
	File string
	Line int
	Func string
	Msg  string
	// Limit marks a configuration that needs more than a limit of the
	// simulator (DefaultMaxState): the trace is sound, the configuration
	// too big; other configurations may still be simulated.
	Limit bool
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s:%d: %s: %s", e.File, e.Line, e.Func, e.Msg)
}

func (e *Engine) errorf(format string, args ...any) error {
	return &Error{File: e.name, Line: int(e.op.traceLine), Func: e.op.p.site.fn, Msg: fmt.Sprintf(format, args...)}
}

func (e *Engine) missing(k key) error {
	return e.errorf("required parameter '%s' missing", k)
}

// side selects the call's input (call lines) or output (ret lines).
type side bool

const (
	in  side = false
	out side = true
)

func (e *Engine) args(s side) *args {
	if s == out {
		return e.op.p.out
	}
	return e.op.p.in
}

// has reports whether the scalar parameter k is present.
func (e *Engine) has(s side, k key) bool { return e.args(s).scalar(k) != nil }

// handle reads a required hexadecimal handle. The handlers read a few
// parameters at every call, so a read returns from one call and its error
// is made apart (paramErr).
func (e *Engine) handle(s side, k key) (uint64, error) {
	if a := e.args(s).scalar(k); a != nil && !a.hexBad {
		return a.hex, nil
	}
	return 0, e.paramErr(s, k, true)
}

// dec reads a required decimal integer.
func (e *Engine) dec(s side, k key) (int64, error) {
	if a := e.args(s).scalar(k); a != nil && a.dec == decOK {
		return a.n, nil
	}
	return 0, e.paramErr(s, k, false)
}

// optDec reads a decimal integer that may be absent.
func (e *Engine) optDec(s side, k key) (int64, bool, error) {
	a := e.args(s).scalar(k)
	switch {
	case a == nil:
		return 0, false, nil
	case a.dec == decOK:
		return a.n, true, nil
	}
	return 0, true, e.paramErr(s, k, false)
}

// paramErr is why scalar k cannot be read: missing, or not a hexadecimal
// handle (hex) or not a decimal integer in range.
func (e *Engine) paramErr(s side, k key, hex bool) error {
	a := e.args(s).scalar(k)
	switch {
	case a == nil:
		return e.missing(k)
	case hex:
		return e.errorf("parameter '%s'=%q is not a hexadecimal handle", a.k, hexDigits(a.val))
	case a.dec == decRange:
		return e.errorf("parameter '%s'=%q is out of range", a.k, a.val)
	}
	return e.errorf("parameter '%s'=%q is not a number", a.k, a.val)
}

// decArray reads a required array k[0], k[1], ... of decimals. The result
// belongs to the compiled program: read it, never change it.
func (e *Engine) decArray(s side, k key) ([]int64, error) {
	a := e.args(s).array(k)
	if a == nil {
		return nil, e.missing(k)
	}
	if a.bad >= 0 {
		return nil, e.errorf("parameter '%s[%d]'=%q is not a number", k, a.bad, a.badVal)
	}
	if len(a.ints) == 0 {
		return nil, e.missing(k)
	}
	return a.ints, nil
}

// optDecArray reads an array that may be absent (nil).
func (e *Engine) optDecArray(s side, k key) ([]int64, error) {
	if a := e.args(s).array(k); a == nil || (len(a.ints) == 0 && a.bad != 0) {
		return nil, nil
	}
	return e.decArray(s, k)
}

// realArray reads a required array of reals (read-only, as decArray).
func (e *Engine) realArray(s side, k key) ([]float64, error) {
	a := e.args(s).array(k)
	if a == nil || (len(a.reals) == 0 && a.rbad != 0) {
		return nil, e.missing(k)
	}
	if a.rbad >= 0 {
		return nil, e.errorf("parameter '%s[%d]'=%q is not a number", k, a.rbad, a.rbadV)
	}
	return a.reals, nil
}

func ints(v []int64) []int {
	out := make([]int, len(v))
	for i, x := range v {
		out[i] = int(x)
	}
	return out
}
