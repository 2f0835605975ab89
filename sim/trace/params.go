package trace

import "strings"

// ParseParams reads the parameter tokens of parameter lines (one or more,
// newline-separated): `Name=value;` and `Name[i]=value;` separated by
// blanks, also with blanks around '=' (`WeightNumber[0] = 10;`). A value
// ends at the next blank; one trailing ';' is dropped. Text that is not a
// token (`*** MPI_Comm Creating ***`) is ignored. pattern is "AMView" or
// "DisArray" when the text carries that suffix in parentheses (as
// `PatternRef=106a618 (AMView)` does), whichever comes first, else "".
//
// Names and values are substrings of text: parsing allocates only the
// slice.
func ParseParams(text string) (ps Params, pattern string) {
	if n := strings.Count(text, "="); n > 0 {
		ps = appendParams(make(Params, 0, n), text)
	}
	if len(ps) == 0 {
		ps = nil
	}
	return ps, PatternOf(text)
}

// ParamSlab hands out the Params of many calls from shared blocks, which
// saves an allocation per call when a whole trace is read.
type ParamSlab struct {
	buf Params
}

// Parse parses text as ParseParams does, into the slab. The result has no
// spare capacity: appending to it copies.
func (s *ParamSlab) Parse(text string) (ps Params, pattern string) {
	return s.Params(text), PatternOf(text)
}

// Params parses text as ParseParams does, into the slab, without looking
// for a pattern.
func (s *ParamSlab) Params(text string) Params {
	n := strings.Count(text, "=")
	if n == 0 {
		return nil
	}
	if cap(s.buf)-len(s.buf) < n {
		s.buf = make(Params, 0, max(4096, n))
	}
	start := len(s.buf)
	s.buf = appendParams(s.buf, text)
	if len(s.buf) == start {
		return nil
	}
	return s.buf[start:len(s.buf):len(s.buf)]
}

// appendParams appends the tokens of s to dst.
func appendParams(dst Params, s string) Params {
	i := 0
	for i < len(s) {
		k := strings.IndexByte(s[i:], '=')
		if k < 0 {
			break
		}
		eq := i + k
		// The name ends at the last non-blank before '=' and starts after
		// the preceding separator, but not before the previous token.
		e := eq
		for e > i && isBlank(s[e-1]) {
			e--
		}
		b := e
		for b > i && !isSep(s[b-1]) {
			b--
		}
		v := eq + 1
		for v < len(s) && isBlank(s[v]) {
			v++
		}
		ve := v
		for ve < len(s) && !isSep(s[ve]) {
			ve++
		}
		if b < e {
			dst = append(dst, makeParam(s[b:e], trimSemicolon(s[v:ve])))
		}
		i = ve
		if i == eq {
			i++
		}
	}
	return dst
}

// makeParam splits Name[i] into name and index; a name whose brackets do
// not hold a plain decimal index is kept whole as a scalar.
func makeParam(name, value string) Param {
	p := Param{Name: name, Index: -1, Value: value}
	n := len(name)
	if n < 4 || name[n-1] != ']' {
		return p
	}
	lb := strings.LastIndexByte(name, '[')
	if lb <= 0 || lb+1 >= n-1 {
		return p
	}
	idx := 0
	for _, c := range []byte(name[lb+1 : n-1]) {
		if c < '0' || c > '9' || idx > 1<<24 {
			return p
		}
		idx = idx*10 + int(c-'0')
	}
	p.Name, p.Index = name[:lb], idx
	return p
}

// PatternOf returns "AMView" or "DisArray" when text carries that suffix in
// parentheses, whichever comes first, else "".
func PatternOf(text string) string {
	a := strings.Index(text, "(AMView)")
	d := strings.Index(text, "(DisArray)")
	switch {
	case a >= 0 && (d < 0 || a < d):
		return "AMView"
	case d >= 0:
		return "DisArray"
	}
	return ""
}

func trimSemicolon(v string) string {
	if len(v) > 0 && v[len(v)-1] == ';' {
		return v[:len(v)-1]
	}
	return v
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' }

func isSep(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// Get returns the value of the first scalar parameter called name.
func (ps Params) Get(name string) (string, bool) {
	return ps.Elem(name, -1)
}

// Elem returns the value of the first parameter name[i].
func (ps Params) Elem(name string, i int) (string, bool) {
	for k := range ps {
		if ps[k].Index == i && ps[k].Name == name {
			return ps[k].Value, true
		}
	}
	return "", false
}

// Array returns the values of name[0], name[1], ... up to the first index
// that is missing (as the original reads arrays).
func (ps Params) Array(name string) []string {
	var vs []string
	for i := 0; ; i++ {
		v, ok := ps.Elem(name, i)
		if !ok {
			return vs
		}
		vs = append(vs, v)
	}
}
