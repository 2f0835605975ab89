package orders

import (
	"encoding/binary"
	"hash"
	"hash/fnv"
	"maps"
	"math"
	"reflect"
	"slices"
	"unsafe"
)

// Checking mode (Config.Check) makes sure that arguments and results go
// by value, as they would between computers: an order's arguments are
// fingerprinted when it is made and again when it ends, its result when
// it ends and again at every Get. A change means that some order wrote
// memory another order shares (a slice passed on and then written, a
// result modified by one of its requesters): the program would compute
// something else on a cluster, where each order has its own copy. The
// order is then failed with a *MisuseError saying which values changed.

// fingerprint hashes everything reachable from vs: numbers, strings, the
// elements of slices and arrays, the fields of structs (unexported ones
// too), the values pointers and interfaces lead to, map entries. Handles
// are references to other orders' results and are left out; so are
// channels and functions.
func fingerprint(vs ...any) uint64 {
	w := hasher{h: fnv.New64a(), seen: map[uintptr]bool{}}
	for _, v := range vs {
		w.value(reflect.ValueOf(v))
	}
	return w.h.Sum64()
}

// handleMarker is implemented by handles, which fingerprints skip.
type handleMarker interface{ isHandle() }

var handleType = reflect.TypeFor[handleMarker]()

type hasher struct {
	h    hash.Hash64
	seen map[uintptr]bool // pointers already followed
	buf  [8]byte
}

func (w *hasher) u64(x uint64) {
	binary.LittleEndian.PutUint64(w.buf[:], x)
	w.h.Write(w.buf[:])
}

func (w *hasher) value(v reflect.Value) {
	if !v.IsValid() {
		w.u64(0)
		return
	}
	if v.Type().Implements(handleType) {
		return
	}
	switch v.Kind() {
	case reflect.Bool:
		if v.Bool() {
			w.u64(1)
		} else {
			w.u64(0)
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		w.u64(uint64(v.Int()))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		w.u64(v.Uint())
	case reflect.Float32, reflect.Float64:
		w.u64(math.Float64bits(v.Float()))
	case reflect.Complex64, reflect.Complex128:
		c := v.Complex()
		w.u64(math.Float64bits(real(c)))
		w.u64(math.Float64bits(imag(c)))
	case reflect.String:
		w.u64(uint64(v.Len()))
		w.h.Write([]byte(v.String()))
	case reflect.Slice:
		w.u64(uint64(v.Len()))
		if v.Len() > 0 && plain(v.Type().Elem()) {
			// Numbers: the backing memory at once.
			size := v.Len() * int(v.Type().Elem().Size())
			w.h.Write(unsafe.Slice((*byte)(v.UnsafePointer()), size))
			return
		}
		for i := range v.Len() {
			w.value(v.Index(i))
		}
	case reflect.Array:
		for i := range v.Len() {
			w.value(v.Index(i))
		}
	case reflect.Struct:
		for i := range v.NumField() {
			w.value(v.Field(i))
		}
	case reflect.Pointer:
		if v.IsNil() {
			w.u64(0)
			return
		}
		if p := v.Pointer(); !w.seen[p] {
			w.seen[p] = true
			w.value(v.Elem())
		}
	case reflect.Interface:
		w.value(v.Elem())
	case reflect.Map:
		// Entries in any order: the sum of their own hashes.
		var sum uint64
		iter := v.MapRange()
		for iter.Next() {
			// Each entry from the pointers followed so far: the same
			// whatever the order of the entries.
			entry := hasher{h: fnv.New64a(), seen: maps.Clone(w.seen)}
			entry.value(iter.Key())
			entry.value(iter.Value())
			sum += entry.h.Sum64()
		}
		w.u64(uint64(v.Len()))
		w.u64(sum)
	}
}

// plain reports whether values of t are numbers whose memory is their
// value.
func plain(t reflect.Type) bool {
	return slices.Contains([]reflect.Kind{reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64}, t.Kind())
}
