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
	errNotFunc = ""
)

// classify tells the kind of the kept line b and, for a function line,
// fills fl. A line is a function line iff the keys TIME, LINE and FILE are
// all found; msg is non-empty when one of them is malformed. The function
// lines as Lib-DVM writes them take the fast path of classifyCanonical, and
// most parameter lines are told by having no 'E', which ends each key; the
// other lines go by the general rules of classifyGeneral, which give the
// same result on any line (FuzzClassify checks it).
func classify(b []byte, fl *funcLine) (k kind, msg string) {
	if k, ok := classifyCanonical(b, fl); ok {
		return k, ""
	}
	if bytes.IndexByte(b, 'E') < 0 {
		return paramLine, ""
	}
	return classifyGeneral(b, fl)
}

// classifyGeneral is classify by the rules of docs/model.md §9.3 and §9.4
// as they are written.
func classifyGeneral(b []byte, fl *funcLine) (k kind, msg string) {
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
	if len(b) == 0 || len(b) >= 10 && string(b[:10]) == "----------" {
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
