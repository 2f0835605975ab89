package ptr

import (
	"bytes"
	"fmt"
	"strconv"
)

// kind is the class of a kept trace line (docs/model.md §9.3).
type kind uint8

const (
	paramLine kind = iota
	callLine
	retLine
	eventLine
)

func (k kind) String() string {
	return [...]string{"parameter", "call_", "ret_", "Event_"}[k]
}

// funcLine holds the fields of a function line. name and file point into
// the line buffer and are only valid until the next read.
type funcLine struct {
	kind kind
	name []byte
	time float64
	line int
	file []byte
}

var (
	keyTIME    = []byte("TIME")
	keyLINE    = []byte("LINE")
	keyFILE    = []byte("FILE")
	prefCall   = []byte("call_")
	prefRet    = []byte("ret_")
	prefEvent  = []byte("Event_")
	tenDashes  = []byte("----------")
	errNotFunc = ""
)

// classify tells the kind of the kept line b and, for a function line,
// fills fl. A line is a function line iff the keys TIME, LINE and FILE are
// all found; msg is non-empty when one of them is malformed.
func classify(b []byte, fl *funcLine) (k kind, msg string) {
	tv, ok := findKey(b, keyTIME)
	if !ok {
		return paramLine, errNotFunc
	}
	lv, ok := findKey(b, keyLINE)
	if !ok {
		return paramLine, errNotFunc
	}
	fv, ok := findKey(b, keyFILE)
	if !ok {
		return paramLine, errNotFunc
	}
	var pref []byte
	switch {
	case bytes.Contains(b, prefCall):
		k, pref = callLine, prefCall
	case bytes.Contains(b, prefRet):
		k, pref = retLine, prefRet
	case bytes.Contains(b, prefEvent):
		k, pref = eventLine, prefEvent
	default:
		return paramLine, errNotFunc
	}
	i := bytes.Index(b, pref) + len(pref)
	e := i
	for e < len(b) && !isBlank(b[e]) {
		e++
	}
	fl.kind, fl.name, fl.file = k, b[i:e], fv
	tv = trimSemicolonBytes(tv)
	t, ok := parseTime(tv)
	if !ok {
		return k, fmt.Sprintf("TIME: expected a decimal number of seconds from 0 to %g, got %q", maxTime, tv)
	}
	lv = trimSemicolonBytes(lv)
	n, err := strconv.Atoi(string(lv))
	if err != nil {
		return k, fmt.Sprintf("LINE: expected an integer, got %q", lv)
	}
	fl.time, fl.line = t, n
	return k, ""
}

// maxTime bounds a TIME: the seconds of user time before a call or
// within one, on the one processor that recorded the trace. A billion
// seconds is 31 years; a larger value is damage, and it would overflow the
// sums of the simulation.
const maxTime = 1e9

// parseTime reads a TIME as Lib-DVM prints it: a plain decimal number,
// with an optional fraction and exponent (strconv.ParseFloat alone would
// also take "0x1p3", "1_000", "Inf" and negative numbers).
func parseTime(b []byte) (float64, bool) {
	digits := func(i int) int {
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		return i
	}
	i := 0
	if i < len(b) && b[i] == '+' {
		i++
	}
	j := digits(i)
	mantissa := j - i
	if j < len(b) && b[j] == '.' {
		k := digits(j + 1)
		mantissa += k - j - 1
		j = k
	}
	if mantissa == 0 {
		return 0, false
	}
	if j < len(b) && (b[j] == 'e' || b[j] == 'E') {
		k := j + 1
		if k < len(b) && (b[k] == '+' || b[k] == '-') {
			k++
		}
		if e := digits(k); e > k {
			j = e
		} else {
			return 0, false
		}
	}
	if j != len(b) {
		return 0, false
	}
	t, err := strconv.ParseFloat(string(b), 64)
	return t, err == nil && t <= maxTime
}

// findKey finds key in b as the original does (docs/model.md §9.4): the first
// occurrence of the substring followed, after optional blanks, by '=' or
// '['; the value is the next blank-delimited word after it. Blanks after
// the '=' are skipped too.
func findKey(b, key []byte) ([]byte, bool) {
	from := 0
	for {
		i := bytes.Index(b[from:], key)
		if i < 0 {
			return nil, false
		}
		j := from + i + len(key)
		for j < len(b) && isBlank(b[j]) {
			j++
		}
		if j < len(b) && (b[j] == '=' || b[j] == '[') {
			j++
			for j < len(b) && isBlank(b[j]) {
				j++
			}
			e := j
			for e < len(b) && !isBlank(b[e]) {
				e++
			}
			return b[j:e], true
		}
		from += i + 1
	}
}

func trimSemicolonBytes(v []byte) []byte {
	if len(v) > 0 && v[len(v)-1] == ';' {
		return v[:len(v)-1]
	}
	return v
}

// keep reports whether a physical line is kept (docs/model.md §9.2) and returns
// it without its leading blanks.
func keep(raw []byte) ([]byte, bool) {
	i := 0
	for i < len(raw) && isBlank(raw[i]) {
		i++
	}
	b := raw[i:]
	if len(b) == 0 || bytes.HasPrefix(b, tenDashes) {
		return nil, false
	}
	return b, true
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' }

func trimSemicolon(v string) string {
	if len(v) > 0 && v[len(v)-1] == ';' {
		return v[:len(v)-1]
	}
	return v
}
