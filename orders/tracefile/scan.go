package tracefile

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
)

// scanner walks one JSON line. It implements exactly the subset of JSON an
// order line needs (objects, arrays, strings, numbers, null) and reports
// the column of the first defect: a hand-written scanner is several times
// faster than encoding/json and says precisely what it expected.
type scanner struct {
	b      []byte
	i      int
	recent *recentFloats // nil: every number not exact is converted anew
	dec    decimal       // the last number's digits (numberToken)
}

// syntaxError is a defect at a column of the line.
type syntaxError struct {
	col int
	msg string
}

func (e *syntaxError) Error() string { return fmt.Sprintf("column %d: %s", e.col, e.msg) }

func (s *scanner) failf(format string, args ...any) error {
	return &syntaxError{col: s.i + 1, msg: fmt.Sprintf(format, args...)}
}

func (s *scanner) space() {
	b, i := s.b, s.i
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	s.i = i
}

// peek returns the next non-space byte, 0 at the end of the line.
func (s *scanner) peek() byte {
	s.space()
	if s.i < len(s.b) {
		return s.b[s.i]
	}
	return 0
}

// found names what is at the scanner's position, for error messages.
func (s *scanner) found() string {
	switch c := s.peek(); {
	case c == 0:
		return "the end of the line"
	case c == '"':
		return "a string"
	case c == '{':
		return "an object"
	case c == '[':
		return "an array"
	case c == 't' || c == 'f':
		return "a boolean"
	case c == 'n':
		return "null"
	case c == '-' || c >= '0' && c <= '9':
		return "a number"
	default:
		return fmt.Sprintf("%q", rune(c))
	}
}

func (s *scanner) expect(c byte, what string) error {
	if s.peek() != c {
		return s.failf("expected %s, found %s", what, s.found())
	}
	s.i++
	return nil
}

// null consumes a JSON null if one is next.
func (s *scanner) null() bool {
	if s.peek() == 'n' && len(s.b)-s.i >= 4 && string(s.b[s.i:s.i+4]) == "null" {
		s.i += 4
		return true
	}
	return false
}

// more reports whether another element of an object or array follows,
// consuming the separating comma; close is '}' or ']'.
func (s *scanner) more(close byte, first bool) (bool, error) {
	c := s.peek()
	if c == close {
		s.i++
		return false, nil
	}
	if first {
		return true, nil
	}
	if c != ',' {
		return false, s.failf("expected ',' or '%c', found %s", close, s.found())
	}
	s.i++
	return true, nil
}

// key reads an object key and its colon. The bytes are valid until the
// line changes; keys with escapes are returned unescaped in a new slice.
func (s *scanner) key() ([]byte, error) {
	k, err := s.stringBytes()
	if err != nil {
		return nil, err
	}
	return k, s.expect(':', "':' after a field name")
}

// stringBytes reads a JSON string. Plain ASCII without escapes (names of
// procedures and blocks) is returned in place; anything else is decoded
// by encoding/json, which knows every escape and invalid UTF-8.
func (s *scanner) stringBytes() ([]byte, error) {
	if s.peek() != '"' {
		return nil, s.failf("expected a string, found %s", s.found())
	}
	start := s.i
	s.i++
	// Names and keys are short plain ASCII: a tight loop reads them.
	b, i := s.b, s.i
	for i < len(b) && plainByte[b[i]] {
		i++
	}
	if i < len(b) && b[i] == '"' {
		s.i = i + 1
		return b[start+1 : i], nil
	}
	s.i = i
	plain := true
	for s.i < len(s.b) {
		c := s.b[s.i]
		switch {
		case c == '"':
			s.i++
			if plain {
				return s.b[start+1 : s.i-1], nil
			}
			var str string
			if err := json.Unmarshal(s.b[start:s.i], &str); err != nil {
				s.i = start
				return nil, s.failf("invalid string: %v", err)
			}
			return []byte(str), nil
		case c == '\\':
			plain = false
			s.i += 2
		case c < 0x20:
			return nil, s.failf("control character %#x in a string", c)
		default:
			if c >= 0x80 {
				plain = false
			}
			s.i++
		}
	}
	return nil, s.failf("unterminated string")
}

// plainByte tells the bytes a plain string holds: printable ASCII but the
// quote and the backslash.
var plainByte = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// numberToken reads a JSON number and reports whether it is an integer
// (no fraction, no exponent). As it goes, it reads the number's digits
// into s.dec, which converts most numbers without a second pass over
// their text (decimal.exact, decimal.integer).
func (s *scanner) numberToken() (tok []byte, integer bool, err error) {
	c := s.peek()
	if c != '-' && (c < '0' || c > '9') {
		return nil, false, s.failf("expected a number, found %s", s.found())
	}
	start := s.i
	s.dec = decimal{neg: c == '-'}
	if c == '-' {
		s.i++
	}
	first := s.i
	if !s.mantissaDigits(false) {
		return nil, false, s.failf("expected a digit")
	}
	if s.b[first] == '0' && s.i-first > 1 {
		s.i = start
		return nil, false, s.failf("number with a leading zero")
	}
	integer = true
	if s.i < len(s.b) && s.b[s.i] == '.' {
		integer = false
		s.i++
		if !s.mantissaDigits(true) {
			return nil, false, s.failf("expected a digit after '.'")
		}
	}
	if s.i < len(s.b) && (s.b[s.i] == 'e' || s.b[s.i] == 'E') {
		integer = false
		s.i++
		sign := 1
		if s.i < len(s.b) && (s.b[s.i] == '+' || s.b[s.i] == '-') {
			if s.b[s.i] == '-' {
				sign = -1
			}
			s.i++
		}
		at := s.i
		if !s.digits() {
			return nil, false, s.failf("expected a digit in the exponent")
		}
		exp := 0
		for _, c := range s.b[at:s.i] {
			if exp = exp*10 + int(c-'0'); exp > 1000 {
				s.dec.m = math.MaxUint64 // far out of the fast path's range
				break
			}
		}
		s.dec.p += sign * exp
	}
	return s.b[start:s.i], integer, nil
}

func (s *scanner) digits() bool {
	b, i := s.b, s.i
	for i < len(b) && b[i]-'0' < 10 {
		i++
	}
	found := i > s.i
	s.i = i
	return found
}

// mantissaDigits reads digits like digits, adding them to s.dec.m for as
// long as it stays within the fast path's range (the digits after it
// no longer matter) and counting those after the point in s.dec.p.
func (s *scanner) mantissaDigits(fraction bool) bool {
	b, i, m, read := s.b, s.i, s.dec.m, 0
	for i < len(b) {
		d := b[i] - '0'
		if d >= 10 {
			break
		}
		if m <= exactLimit {
			m = m*10 + uint64(d)
			read++
		}
		i++
	}
	if fraction {
		s.dec.p -= read
	}
	found := i > s.i
	s.i, s.dec.m = i, m
	return found
}

// int64 reads an integer that must fit an int64.
func (s *scanner) int64() (int64, error) {
	start := s.i
	tok, integer, err := s.numberToken()
	if err != nil {
		return 0, err
	}
	if !integer {
		s.i = start
		return 0, s.failf("expected an integer, found %s", tok)
	}
	if n, ok := s.dec.integer(); ok {
		return n, nil
	}
	neg := tok[0] == '-'
	if neg {
		tok = tok[1:]
	}
	var n uint64
	for _, c := range tok {
		n = n*10 + uint64(c-'0')
		if n > math.MaxInt64 {
			s.i = start
			return 0, s.failf("integer out of range")
		}
	}
	if neg {
		return -int64(n), nil
	}
	return int64(n), nil
}

// float64 reads a finite number: 1e400 is valid JSON but +Inf here.
func (s *scanner) float64() (float64, error) {
	start := s.i
	tok, _, err := s.numberToken()
	if err != nil {
		return 0, err
	}
	if f, ok := s.dec.exact(); ok {
		return f, nil
	}
	if f, ok := s.recent.get(tok); ok {
		return f, nil
	}
	f, err := strconv.ParseFloat(string(tok), 64)
	if err != nil || math.IsInf(f, 0) {
		s.i = start
		return 0, s.failf("number %s out of range (expected a finite number)", tok)
	}
	s.recent.put(tok, f)
	return f, nil
}

// decimal is a number read as ±m·10^p, m being its digits read as an
// integer (those past exactLimit left out) and p its exponent less the
// digits after its point.
type decimal struct {
	m   uint64
	p   int
	neg bool
}

// exactLimit is the largest m a float64 holds exactly, 2^53: the
// mantissas beyond it leave the fast path.
const exactLimit = 1 << 53

// integer returns d, an integer of at most 2^53, as an int64.
func (d decimal) integer() (int64, bool) {
	if d.m > exactLimit || d.p != 0 {
		return 0, false
	}
	if d.neg {
		return -int64(d.m), true
	}
	return int64(d.m), true
}

// pow10 holds the powers of ten a float64 represents exactly.
var pow10 = [...]float64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// exact converts the numbers whose digits, read as an integer m, make
// at most 2^53 and whose power of ten p is within ±22, without strconv:
// both m and 10^|p| are then exact in a float64, so one multiplication
// or division rounds correctly (Clinger's fast path). That is about two
// fifths of the times a Go program writes (16 digits or fewer, as
// "9.6e-05" or "0.0001157"). numberToken reads m and p as it scans the
// number, so that the fast path costs no second pass over its text.
func (d decimal) exact() (float64, bool) {
	if d.m > exactLimit || d.p < -22 || d.p > 22 {
		return 0, false
	}
	f := float64(d.m)
	if d.p < 0 {
		f /= pow10[-d.p]
	} else {
		f *= pow10[d.p]
	}
	if d.neg {
		f = -f
	}
	return f, true
}
