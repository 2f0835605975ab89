package machinefile

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
)

// maxFileSize bounds what Parse reads; real machine files are a few hundred
// bytes.
const maxFileSize = 1 << 22

type position struct{ line, col int32 }

// source is the original's statement buffer: the kept lines, lower-cased,
// blank runs collapsed to one space, one space after every line. Unlike the
// original it remembers where every byte came from.
type source struct {
	file string
	b    []byte
	at   []position
}

func readSource(r io.Reader, file string) (*source, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	if len(data) > maxFileSize {
		return nil, &Error{File: file, Line: 1, Col: 1, Msg: fmt.Sprintf("file larger than %d bytes is not a machine file", maxFileSize)}
	}
	s := &source{file: file}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")) // a UTF-8 byte order mark
	lines := bytes.Split(data, []byte("\n"))
	for n, line := range lines {
		// End-of-line comments are accepted (the original rejects them);
		// whole-line comments and blank lines are skipped as before.
		if c := bytes.Index(line, []byte("//")); c >= 0 {
			line = line[:c]
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		for c, ch := range line {
			if isBlank(ch) {
				if len(s.b) > 0 && s.b[len(s.b)-1] == ' ' {
					continue
				}
				ch = ' '
			} else if 'A' <= ch && ch <= 'Z' {
				ch += 'a' - 'A'
			}
			s.b = append(s.b, ch)
			s.at = append(s.at, position{int32(n + 1), int32(c + 1)})
		}
		if s.b[len(s.b)-1] != ' ' {
			s.b = append(s.b, ' ')
			s.at = append(s.at, position{int32(n + 1), int32(len(line) + 1)})
		}
	}
	return s, nil
}

func isBlank(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// scanner is a cursor over a source with the reading primitives of the
// original (GetNumber, name reading) and located errors.
type scanner struct {
	src      *source
	i        int
	warnings []string
	maxProcs int // processors a machine may have
}

func (s *scanner) eof() bool { return s.i >= len(s.src.b) }

func (s *scanner) peek() byte {
	if s.eof() {
		return 0
	}
	return s.src.b[s.i]
}

func (s *scanner) skipBlank() {
	for !s.eof() && s.src.b[s.i] == ' ' {
		s.i++
	}
}

func (s *scanner) pos(i int) position {
	if i < len(s.src.at) {
		return s.src.at[i]
	}
	if n := len(s.src.at); n > 0 {
		// End of file: just after the last statement text (every kept
		// line ends with a blank positioned after its last character).
		return s.src.at[n-1]
	}
	return position{1, 1}
}

func (s *scanner) errAt(i int, format string, args ...any) *Error {
	p := s.pos(i)
	return &Error{File: s.src.file, Line: int(p.line), Col: int(p.col), Msg: fmt.Sprintf(format, shortened(args)...)}
}

func (s *scanner) warnAt(i int, format string, args ...any) {
	p := s.pos(i)
	s.warnings = append(s.warnings, fmt.Sprintf("%s:%d:%d: %s", s.src.file, p.line, p.col, fmt.Sprintf(format, shortened(args)...)))
}

// maxQuoted is how many bytes of a name or number from the file a message
// quotes: a line of megabytes without a delimiter is one "name", and an
// error echoing it whole would be megabytes long.
const maxQuoted = 64

// shortened returns args with every text longer than maxQuoted cut to its
// first maxQuoted bytes and "…".
func shortened(args []any) []any {
	out := make([]any, len(args))
	for i, a := range args {
		out[i] = a
		switch v := a.(type) {
		case string:
			if len(v) > maxQuoted {
				out[i] = v[:maxQuoted] + "…"
			}
		case []byte:
			if len(v) > maxQuoted {
				out[i] = string(v[:maxQuoted]) + "…"
			}
		}
	}
	return out
}

// found describes what is at the cursor, for "expected X, found Y".
func (s *scanner) found() string {
	if s.eof() {
		return "end of file"
	}
	j := s.i + 1
	if !isPunct(s.src.b[s.i]) {
		for j < len(s.src.b) && j-s.i < 16 && s.src.b[j] != ' ' && !isPunct(s.src.b[j]) {
			j++
		}
	}
	return strconv.Quote(string(s.src.b[s.i:j]))
}

func isPunct(c byte) bool {
	switch c {
	case '.', ';', ',', '{', '}', '=', '(', ')', ':':
		return true
	}
	return false
}

// expect skips blanks and consumes c, or fails with "expected <what>".
func (s *scanner) expect(c byte, what string) error {
	s.skipBlank()
	if s.peek() != c {
		return s.errAt(s.i, "expected %s, found %s", what, s.found())
	}
	s.i++
	return nil
}

// isNameDelim reports the characters that end a name: the original's
// space . ; , { } plus '=' (so that "a=1;" reads as it looks).
func isNameDelim(c byte) bool {
	switch c {
	case ' ', '.', ';', ',', '{', '}', '=':
		return true
	}
	return false
}

// name reads a maximal run of non-delimiters after blanks; it may be empty.
func (s *scanner) name() (string, int) {
	s.skipBlank()
	start := s.i
	for !s.eof() && !isNameDelim(s.src.b[s.i]) {
		s.i++
	}
	return string(s.src.b[start:s.i]), start
}

// clusterName reads a name that must be present and not start with a digit.
func (s *scanner) clusterName(what string) (string, int, error) {
	name, at := s.name()
	if name == "" {
		return "", at, s.errAt(at, "expected %s, found %s", what, s.found())
	}
	if isDigit(name[0]) {
		return "", at, s.errAt(at, "expected %s, found %q (names must not start with a digit)", what, name)
	}
	return name, at, nil
}

// integer reads an unsigned decimal integer (no sign, like the original's
// atoi-then-skip-digits, which leaves a sign unconsumed).
func (s *scanner) integer(what string) (int, int, error) {
	s.skipBlank()
	start := s.i
	for !s.eof() && isDigit(s.src.b[s.i]) {
		s.i++
	}
	if start == s.i {
		return 0, start, s.errAt(start, "expected %s (an integer), found %s", what, s.found())
	}
	v, err := strconv.Atoi(string(s.src.b[start:s.i]))
	if err != nil || v > 1<<30 {
		return 0, start, s.errAt(start, "%s %s is too large", what, s.src.b[start:s.i])
	}
	return v, start, nil
}

// real reads digits [ '.' digits ]: no sign, exponent or leading '.', as
// the original's atof-then-skip-digits-and-one-dot.
func (s *scanner) real(what string) (float64, int, error) {
	s.skipBlank()
	start := s.i
	for !s.eof() && isDigit(s.src.b[s.i]) {
		s.i++
	}
	if start == s.i {
		return 0, start, s.errAt(start, "expected %s (a number such as 1.5), found %s", what, s.found())
	}
	if s.peek() == '.' {
		s.i++
		for !s.eof() && isDigit(s.src.b[s.i]) {
			s.i++
		}
	}
	text := string(s.src.b[start:s.i])
	v, err := strconv.ParseFloat(text, 64)
	if err != nil {
		return 0, start, s.errAt(start, "bad number %q for %s", text, what)
	}
	return v, start, nil
}

// end consumes the ';' that closes a statement.
func (s *scanner) end(after string) error {
	return s.expect(';', "';' after "+after)
}
