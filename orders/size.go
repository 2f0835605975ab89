package orders

import (
	"encoding/binary"
	"reflect"
)

// Sizer is implemented by values that know how many bytes they move when
// an order's arguments or results cross the network.
type Sizer interface {
	Bytes() int64
}

// SizeOf is the number of bytes v moves between computers: v.Bytes() for
// a Sizer; otherwise binary.Size for fixed-size values and slices of them
// (8 bytes per float64 or int64, ...); otherwise the sum over the
// elements of slices and arrays, the fields of structs and what pointers
// point to, strings counting their length, ints and uints 8 bytes. Maps,
// channels and functions count 0: pass a Sizer when they matter.
func SizeOf(v any) int64 {
	if s, ok := v.(Sizer); ok {
		return s.Bytes()
	}
	return sizeOfValue(reflect.ValueOf(v), 0)
}

// sizeOf is SizeOf(v), without boxing v when its type is a predeclared
// number, bool or string: the runtime sizes every order's arguments and
// result, and boxing them into SizeOf's any costs an allocation each.
// A predeclared type has no methods (no Sizer), so the answer is
// SizeOf's; every other type goes to SizeOf.
func sizeOf[T any](v T) int64 {
	switch x := any(v).(type) {
	case int, uint, uintptr, int64, uint64, float64, complex64:
		return 8
	case int32, uint32, float32:
		return 4
	case int16, uint16:
		return 2
	case int8, uint8, bool:
		return 1
	case complex128:
		return 16
	case string:
		return int64(len(x))
	}
	return SizeOf(v)
}

var sizerType = reflect.TypeFor[Sizer]()

// maxDepth stops the walk of cyclic or very deep values.
const maxDepth = 32

func sizeOfValue(v reflect.Value, depth int) int64 {
	if !v.IsValid() || depth > maxDepth {
		return 0
	}
	if v.CanInterface() {
		if s, ok := v.Interface().(Sizer); ok {
			return s.Bytes()
		}
	}
	switch v.Kind() {
	case reflect.Int, reflect.Uint, reflect.Uintptr:
		return 8
	case reflect.String:
		return int64(v.Len())
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return 0
		}
		return sizeOfValue(v.Elem(), depth+1)
	case reflect.Slice, reflect.Array:
		if v.CanInterface() && !v.Type().Elem().Implements(sizerType) {
			if n := binary.Size(v.Interface()); n >= 0 {
				return int64(n) // fast for slices of numbers
			}
		}
		var sum int64
		for i := range v.Len() {
			sum += sizeOfValue(v.Index(i), depth+1)
		}
		return sum
	case reflect.Struct:
		var sum int64
		for i := range v.NumField() {
			sum += sizeOfValue(v.Field(i), depth+1)
		}
		return sum
	case reflect.Map, reflect.Chan, reflect.Func, reflect.UnsafePointer:
		return 0
	}
	return int64(v.Type().Size())
}
