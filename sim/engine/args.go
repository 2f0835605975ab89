package engine

import (
	"strconv"
	"strings"

	"github.com/presage-dvm/presage/sim/trace"
)

// key identifies a trace parameter the handlers read (keys.go).
type key uint16

type keyKind uint8

const (
	intKey  keyKind = iota // read as a decimal or a hexadecimal handle
	realKey                // an array of reals
)

var (
	keyNames  []string
	keyKinds  []keyKind
	keyByName = map[string]key{}
)

// newKey registers a parameter name; keys.go declares them all at package
// initialisation, so the registry is read-only afterwards.
func newKey(name string, kind keyKind) key {
	k := key(len(keyNames))
	keyNames = append(keyNames, name)
	keyKinds = append(keyKinds, kind)
	keyByName[name] = k
	return k
}

func (k key) String() string { return keyNames[k] }

// Parse outcomes of a scalar read as a number.
const (
	decOK uint8 = iota
	decNaN
	decRange
)

// scalarArg is a scalar parameter parsed both ways it may be read.
type scalarArg struct {
	k      key
	hexBad bool
	dec    uint8 // decOK, decNaN or decRange
	hex    uint64
	n      int64
	val    string // the value as written, for messages
}

// arrayArg is the array name[0], name[1], ... up to the first missing
// index, parsed.
type arrayArg struct {
	k      key
	ints   []int64 // decimal values before the first bad one
	bad    int     // index of the first element that is not a decimal, -1 if none
	badVal string
	reals  []float64 // real values (realKey arrays only) before the first bad one
	rbad   int
	rbadV  string
}

// args are the parameters of one side of a call that the handlers read,
// parsed once. A nil *args has no parameter.
type args struct {
	scalars []scalarArg
	arrays  []arrayArg
}

func (a *args) scalar(k key) *scalarArg {
	if a == nil {
		return nil
	}
	for i := range a.scalars {
		if a.scalars[i].k == k {
			return &a.scalars[i]
		}
	}
	return nil
}

func (a *args) array(k key) *arrayArg {
	if a == nil {
		return nil
	}
	for i := range a.arrays {
		if a.arrays[i].k == k {
			return &a.arrays[i]
		}
	}
	return nil
}

// compileArgs keeps the registered parameters of ps: the first scalar of
// each name and the arrays, each element taken from its first occurrence
// (as Params.Get and Params.Elem find them).
func compileArgs(ps trace.Params) *args {
	a := &args{}
	var elems map[key]map[int]string
	for _, p := range ps {
		k, ok := keyByName[p.Name]
		if !ok {
			continue
		}
		if p.Index < 0 {
			if a.scalar(k) == nil {
				a.scalars = append(a.scalars, parseScalar(k, p.Value))
			}
			continue
		}
		if elems == nil {
			elems = map[key]map[int]string{}
		}
		m := elems[k]
		if m == nil {
			m = map[int]string{}
			elems[k] = m
		}
		if _, dup := m[p.Index]; !dup {
			m[p.Index] = p.Value
		}
	}
	for k, m := range elems {
		a.arrays = append(a.arrays, parseArray(k, m))
	}
	if len(a.scalars) == 0 && len(a.arrays) == 0 {
		return nil
	}
	return a
}

func parseScalar(k key, v string) scalarArg {
	s := scalarArg{k: k, val: v}
	var err error
	s.hex, err = parseHex(v)
	s.hexBad = err != nil
	s.n, s.dec = parseDec(v)
	return s
}

func parseArray(k key, m map[int]string) arrayArg {
	a := arrayArg{k: k, bad: -1, rbad: -1}
	for i := 0; ; i++ {
		v, ok := m[i]
		if !ok {
			break
		}
		if a.bad < 0 {
			if n, st := parseDec(v); st == decOK {
				a.ints = append(a.ints, n)
			} else {
				a.bad, a.badVal = i, v
			}
		}
		if keyKinds[k] == realKey && a.rbad < 0 {
			if x, err := strconv.ParseFloat(v, 64); err == nil {
				a.reals = append(a.reals, x)
			} else {
				a.rbad, a.rbadV = i, v
			}
		}
	}
	// Full slices: a handler appending to one copies instead of writing
	// into the shared program.
	a.ints = a.ints[:len(a.ints):len(a.ints)]
	a.reals = a.reals[:len(a.reals):len(a.reals)]
	return a
}

// hexDigits is the value of a handle as strtoul reads it: "NULL" and ""
// are 0, a 0x prefix is skipped, only the last 16 digits count.
func hexDigits(v string) string {
	v = strings.TrimPrefix(strings.TrimPrefix(v, "0x"), "0X")
	if len(v) > 16 {
		v = v[len(v)-16:]
	}
	return v
}

func parseHex(v string) (uint64, error) {
	if v == "NULL" || v == "" {
		return 0, nil
	}
	return strconv.ParseUint(hexDigits(v), 16, 64)
}

// parseDec reads a leading decimal integer the way atoi does, but rejects
// values without any digit.
func parseDec(v string) (int64, uint8) {
	i := 0
	if i < len(v) && (v[i] == '-' || v[i] == '+') {
		i++
	}
	j := i
	for j < len(v) && v[j] >= '0' && v[j] <= '9' {
		j++
	}
	if j == i {
		return 0, decNaN
	}
	n, err := strconv.ParseInt(v[:j], 10, 64)
	if err != nil {
		return 0, decRange
	}
	return n, decOK
}
