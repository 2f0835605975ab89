package orders

import (
	"fmt"
	"sync"
)

// OrderPanic is the error Main returns when an order panicked: Get
// re-panics with it in the requesting order, so that it reaches main.
type OrderPanic struct {
	Value any // what the first order panicked with
}

func (p *OrderPanic) Error() string { return fmt.Sprintf("orders: an order panicked: %v", p.Value) }

// rethrow panics in the requester when the order it requested did.
func rethrow(o *order) {
	switch v := o.err.(type) {
	case nil:
	case *OrderPanic:
		panic(v)
	default:
		panic(&OrderPanic{Value: v})
	}
}

// asError turns what an order panicked with into Main's error.
func asError(v any) error {
	switch v := v.(type) {
	case nil:
		return nil
	case *OrderPanic:
		return v
	}
	return &OrderPanic{Value: v}
}

// failure remembers the first panic of any order, so that Main reports it
// even when nobody requested the order that panicked.
type failure struct {
	mu    sync.Mutex
	first any
}

func (f *failure) note(v any) {
	if v == nil {
		return
	}
	f.mu.Lock()
	if f.first == nil {
		f.first = v
	}
	f.mu.Unlock()
}

func (f *failure) err() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return asError(f.first)
}
