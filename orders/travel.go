package orders

import (
	"bytes"
	"encoding"
	"encoding/gob"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"sync"
)

// Orders that run in other processes (Config.Procs) travel as their
// procedure's name and their arguments encoded by encoding/gob; their
// results come back the same way. Every procedure is entered, by name,
// in a registry that each process of the program fills alike at its
// start (Proc runs as the program's package variables are set), so that
// a worker finds the procedure an order names and decodes its
// arguments into their types. Whether those types can travel is decided
// at Proc: a distributed run refuses to start, naming the procedure and
// the type, rather than let a worker lose a field on the way.

// procedure is a registered procedure: how to run an order of it from
// its encoded arguments, and why it cannot travel, if it cannot.
type procedure struct {
	name string
	// bind decodes the arguments and returns the procedure bound to
	// them, to run in an order.
	bind   func(args []byte) (bound, error)
	cannot error
}

// bound is a procedure bound to its decoded arguments (procedure.bind):
// it runs in the order c runs and returns its encoded result with its
// size (SizeOf).
type bound func(c *Ctx) (result []byte, size int64, err error)

// registry holds the procedures by name. It is filled as package
// variables are initialized, possibly before its own initializer would
// run (Go does not order initialization through generic functions), so
// it has none: register makes its map.
var registry struct {
	sync.Mutex
	byName map[string]*procedure
	twice  []string // names declared more than once
}

// register enters a procedure whose arguments and result have the
// given types.
func register(name string, bind func([]byte) (bound, error), types ...reflect.Type) {
	p := &procedure{name: name, bind: bind}
	for _, t := range types {
		if err := canTravel(t); err != nil {
			p.cannot = err
			break
		}
	}
	registry.Lock()
	defer registry.Unlock()
	if registry.byName == nil {
		registry.byName = map[string]*procedure{}
	}
	if _, ok := registry.byName[name]; ok {
		registry.twice = append(registry.twice, name)
	}
	registry.byName[name] = p
}

// lookup returns the procedure named name.
func lookup(name string) (*procedure, error) {
	registry.Lock()
	defer registry.Unlock()
	p := registry.byName[name]
	if p == nil {
		return nil, fmt.Errorf("orders: no procedure %q in this program (every process must run the same binary)", name)
	}
	return p, nil
}

// travelProblems returns why the program's procedures cannot run in other
// processes: names declared twice, types that cannot travel; nil when
// they all can.
func travelProblems() error {
	registry.Lock()
	defer registry.Unlock()
	var problems []string
	for _, name := range slices.Compact(slices.Sorted(slices.Values(registry.twice))) {
		problems = append(problems, fmt.Sprintf("procedure %q is declared more than once (a worker finds procedures by name)", name))
	}
	for _, name := range slices.Sorted(maps.Keys(registry.byName)) {
		if p := registry.byName[name]; p.cannot != nil {
			problems = append(problems, fmt.Sprintf("procedure %q: %v", name, p.cannot))
		}
	}
	if len(problems) == 0 {
		return nil
	}
	return fmt.Errorf("orders: these procedures cannot run in other processes: %s", strings.Join(problems, "; "))
}

// travelling is implemented by handles: they travel as a reference to an
// order (or with their value, when Ready), and their result type must
// travel too.
type travelling interface{ resultType() reflect.Type }

// canTravel reports why values of type t would not arrive whole in
// another process through encoding/gob, nil if they would.
func canTravel(t reflect.Type) error {
	return travelCheck{seen: map[reflect.Type]bool{}}.check(t, t.String())
}

type travelCheck struct{ seen map[reflect.Type]bool }

func (c travelCheck) check(t reflect.Type, path string) error {
	if c.seen[t] {
		return nil
	}
	c.seen[t] = true
	// Types looked up here, not in package variables: see registry.
	travellingType := reflect.TypeFor[travelling]()
	gobEncoderType := reflect.TypeFor[gob.GobEncoder]()
	binaryType := reflect.TypeFor[encoding.BinaryMarshaler]()
	if t.Implements(travellingType) || reflect.PointerTo(t).Implements(travellingType) {
		h := reflect.New(t) // a *Handle, whether t is the handle or a pointer to it
		if t.Kind() == reflect.Pointer {
			h = reflect.New(t.Elem())
		}
		return c.check(h.Interface().(travelling).resultType(), path+" (a handle's result)")
	}
	if t.Implements(gobEncoderType) || reflect.PointerTo(t).Implements(gobEncoderType) ||
		t.Implements(binaryType) || reflect.PointerTo(t).Implements(binaryType) {
		return nil // it encodes itself
	}
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128, reflect.String:
		return nil
	case reflect.Slice, reflect.Array, reflect.Pointer:
		return c.check(t.Elem(), path)
	case reflect.Map:
		if err := c.check(t.Key(), path+" (a map's key)"); err != nil {
			return err
		}
		return c.check(t.Elem(), path)
	case reflect.Struct:
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() {
				return fmt.Errorf("%s has the unexported field %s, which encoding/gob leaves behind (export it, or give the type a GobEncode and GobDecode)", path, f.Name)
			}
			if err := c.check(f.Type, path+"."+f.Name); err != nil {
				return err
			}
		}
		return nil
	case reflect.Interface:
		return fmt.Errorf("%s is an interface (%s): its concrete types are not known to the receiving process (use a concrete type)", path, t)
	}
	return fmt.Errorf("%s is a %s, which cannot leave its process", path, t.Kind())
}

// encoder encodes values into one gob stream, keeping its first error.
// Each value is boxed in a struct of its own type, since gob refuses a
// nil pointer at the top of a stream (an argument may be a nil handle)
// and an interface box would need every type registered.
type encoder struct {
	buf bytes.Buffer
	enc *gob.Encoder
	err error
}

func newEncoder() *encoder {
	e := &encoder{}
	e.enc = gob.NewEncoder(&e.buf)
	return e
}

type box[T any] struct{ V T }

// put encodes v.
func put[T any](e *encoder, v T) {
	if e.err == nil {
		if err := e.enc.Encode(box[T]{V: v}); err != nil {
			e.err = fmt.Errorf("orders: encoding a %s: %w", reflect.TypeFor[T](), err)
		}
	}
}

func (e *encoder) bytes() ([]byte, error) { return e.buf.Bytes(), e.err }

// decoder decodes the values an encoder encoded, in the same order,
// with a decoder kept from a stream of the same type definitions when
// there is one (decoders.go); done keeps it in turn.
type decoder struct {
	*gobStream
	kept *sync.Pool // where it goes once done; nil for a stream that is not gob's
	err  error
}

// newDecoder returns the decoder of the values of b.
func newDecoder(b []byte) *decoder {
	defs, values, ok := splitStream(b)
	if !ok { // decoded as it is, which says what is wrong with it
		in := bytes.NewReader(b)
		return &decoder{gobStream: &gobStream{gob.NewDecoder(in), in}}
	}
	kept := keptFor(defs)
	if s, _ := kept.Get().(*gobStream); s != nil {
		s.in.Reset(values)
		return &decoder{gobStream: s, kept: kept}
	}
	in := bytes.NewReader(b)
	return &decoder{gobStream: &gobStream{gob.NewDecoder(in), in}, kept: kept}
}

// done ends d's use: a decoder that read its whole stream without an
// error is kept for the next stream of the same type definitions.
func (d *decoder) done() {
	if d.kept != nil && d.err == nil && d.in.Len() == 0 {
		d.in.Reset(nil) // the stream's bytes are not kept with it
		d.kept.Put(d.gobStream)
	}
	d.gobStream = nil
}

// take decodes the next value, a T.
func take[T any](d *decoder) T {
	var b box[T]
	if d.err == nil {
		if err := d.dec.Decode(&b); err != nil {
			d.err = fmt.Errorf("orders: decoding a %s: %w", reflect.TypeFor[T](), err)
		}
	}
	return b.V
}

// encode1 encodes one value.
func encode1[T any](v T) ([]byte, error) {
	e := newEncoder()
	put(e, v)
	return e.bytes()
}

// encode2 encodes two values, the arguments of a Procedure2.
func encode2[A, B any](a A, b B) ([]byte, error) {
	e := newEncoder()
	put(e, a)
	put(e, b)
	return e.bytes()
}

// encode3 encodes three values, the arguments of a Procedure3.
func encode3[A, B, C any](a A, b B, c C) ([]byte, error) {
	e := newEncoder()
	put(e, a)
	put(e, b)
	put(e, c)
	return e.bytes()
}

// decode1 decodes one value.
func decode1[T any](b []byte) (T, error) {
	d := newDecoder(b)
	v := take[T](d)
	d.done()
	return v, d.err
}
