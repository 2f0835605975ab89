package engine

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/presage-dvm/presage/ingest/ptr"
)

// Error is a defect of the trace found while simulating it: the trace file,
// the line of the call, the function and what was expected.
type Error struct {
	File string
	Line int
	Func string
	Msg  string
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s:%d: %s: %s", e.File, e.Line, e.Func, e.Msg)
}

func (e *Engine) errorf(format string, args ...any) error {
	c := e.call
	return &Error{File: e.name, Line: c.TraceLine, Func: c.Func, Msg: fmt.Sprintf(format, args...)}
}

func (e *Engine) missing(name string) error {
	return e.errorf("required parameter '%s' missing", name)
}

// side selects the call's input (call lines) or output (ret lines).
type side bool

const (
	in  side = false
	out side = true
)

func (e *Engine) params(s side) ptr.Params {
	if s == out {
		return e.call.Out
	}
	return e.call.In
}

// handle reads a required hexadecimal handle.
func (e *Engine) handle(s side, name string) (uint64, error) {
	v, ok := e.params(s).Get(name)
	if !ok {
		return 0, e.missing(name)
	}
	return e.parseHex(name, v)
}

// optHandle reads a hexadecimal handle that may be absent.
func (e *Engine) optHandle(s side, name string) (uint64, bool, error) {
	v, ok := e.params(s).Get(name)
	if !ok {
		return 0, false, nil
	}
	h, err := e.parseHex(name, v)
	return h, true, err
}

func (e *Engine) parseHex(name, v string) (uint64, error) {
	if v == "NULL" || v == "" {
		return 0, nil
	}
	v = strings.TrimPrefix(strings.TrimPrefix(v, "0x"), "0X")
	if len(v) > 16 {
		v = v[len(v)-16:]
	}
	h, err := strconv.ParseUint(v, 16, 64)
	if err != nil {
		return 0, e.errorf("parameter '%s'=%q is not a hexadecimal handle", name, v)
	}
	return h, nil
}

// dec reads a required decimal integer.
func (e *Engine) dec(s side, name string) (int64, error) {
	v, ok := e.params(s).Get(name)
	if !ok {
		return 0, e.missing(name)
	}
	return e.parseDec(name, v)
}

// optDec reads a decimal integer that may be absent.
func (e *Engine) optDec(s side, name string) (int64, bool, error) {
	v, ok := e.params(s).Get(name)
	if !ok {
		return 0, false, nil
	}
	n, err := e.parseDec(name, v)
	return n, true, err
}

// parseDec reads a leading decimal integer the way atoi does, but rejects
// values without any digit.
func (e *Engine) parseDec(name, v string) (int64, error) {
	i := 0
	if i < len(v) && (v[i] == '-' || v[i] == '+') {
		i++
	}
	j := i
	for j < len(v) && v[j] >= '0' && v[j] <= '9' {
		j++
	}
	if j == i {
		return 0, e.errorf("parameter '%s'=%q is not a number", name, v)
	}
	n, err := strconv.ParseInt(v[:j], 10, 64)
	if err != nil {
		return 0, e.errorf("parameter '%s'=%q is out of range", name, v)
	}
	return n, nil
}

// decArray reads a required array name[0], name[1], ... of decimals.
func (e *Engine) decArray(s side, name string) ([]int64, error) {
	vs := e.params(s).Array(name)
	if len(vs) == 0 {
		return nil, e.missing(name)
	}
	out := make([]int64, len(vs))
	for i, v := range vs {
		n, err := e.parseDec(name, v)
		if err != nil {
			return nil, e.errorf("parameter '%s[%d]'=%q is not a number", name, i, v)
		}
		out[i] = n
	}
	return out, nil
}

// optDecArray reads an array that may be absent (nil).
func (e *Engine) optDecArray(s side, name string) ([]int64, error) {
	if _, ok := e.params(s).Elem(name, 0); !ok {
		return nil, nil
	}
	return e.decArray(s, name)
}

// realArray reads a required array of reals.
func (e *Engine) realArray(s side, name string) ([]float64, error) {
	vs := e.params(s).Array(name)
	if len(vs) == 0 {
		return nil, e.missing(name)
	}
	out := make([]float64, len(vs))
	for i, v := range vs {
		x, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return nil, e.errorf("parameter '%s[%d]'=%q is not a number", name, i, v)
		}
		out[i] = x
	}
	return out, nil
}

func ints(v []int64) []int {
	out := make([]int, len(v))
	for i, x := range v {
		out[i] = int(x)
	}
	return out
}
