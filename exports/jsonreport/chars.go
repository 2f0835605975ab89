package jsonreport

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"

	"github.com/presage-dvm/presage/sim/result"
)

// Value is one characteristic of an interval or a processor.
type Value struct {
	Char  result.Char
	Value float64
}

// Characteristics is an ordered set of characteristics. It encodes as a
// JSON object whose keys are the canonical names, in slice order (a Go map
// would sort them alphabetically and lose the report order).
type Characteristics []Value

// charsOf returns the values of the characteristics that apply to kind, in
// canonical order.
func charsOf(v *result.Values, kind result.Kind) Characteristics {
	cs := applicable(kind)
	out := make(Characteristics, len(cs))
	for i, c := range cs {
		out[i] = Value{c, v[c]}
	}
	return out
}

// applicable lists the characteristics of a run kind: a prediction has no
// analyzer extras (threads, GPUs, start-up times), a measurement has all.
func applicable(kind result.Kind) []result.Char {
	last := result.NumChars
	if kind == result.Predicted {
		last = result.CPUTimeSys + 1
	}
	cs := make([]result.Char, last)
	for i := range cs {
		cs[i] = result.Char(i)
	}
	return cs
}

// check reports the first value JSON cannot represent (NaN, ±Inf).
func (cs Characteristics) check() error {
	for _, v := range cs {
		if math.IsNaN(v.Value) || math.IsInf(v.Value, 0) {
			return fmt.Errorf("%s is %v, which JSON cannot represent", v.Char, v.Value)
		}
	}
	return nil
}

// MarshalJSON writes the object in slice order.
func (cs Characteristics) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, v := range cs {
		if i > 0 {
			b.WriteByte(',')
		}
		name, _ := json.Marshal(v.Char.String())
		num, err := json.Marshal(v.Value)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", v.Char, err)
		}
		b.Write(name)
		b.WriteByte(':')
		b.Write(num)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// UnmarshalJSON reads an object of canonical names, keeping its order.
func (cs *Characteristics) UnmarshalJSON(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return fmt.Errorf("characteristics: expected an object")
	}
	out := Characteristics{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return fmt.Errorf("characteristics: %w", err)
		}
		name, _ := tok.(string)
		c, ok := result.CharByName(name)
		if !ok {
			return fmt.Errorf("characteristics: unknown name %q", name)
		}
		var v float64
		if err := dec.Decode(&v); err != nil {
			return fmt.Errorf("characteristics: %s: expected a number: %w", name, err)
		}
		out = append(out, Value{c, v})
	}
	*cs = out
	return nil
}

// Get returns the value of c and whether it is present.
func (cs Characteristics) Get(c result.Char) (float64, bool) {
	for _, v := range cs {
		if v.Char == c {
			return v.Value, true
		}
	}
	return 0, false
}
