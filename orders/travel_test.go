package orders

import (
	"errors"
	"maps"
	"reflect"
	"strings"
	"testing"
)

type withHidden struct {
	Shown  int
	hidden int //lint:ignore U1000 never used: the test expects travel to refuse a type with an unexported field
}

type selfEncoding struct{ hidden int }

func (s selfEncoding) GobEncode() ([]byte, error) { return []byte{byte(s.hidden)}, nil }
func (s *selfEncoding) GobDecode(b []byte) error  { s.hidden = int(b[0]); return nil }

type list struct {
	Value float64
	Next  *list
}

func TestCanTravel(t *testing.T) {
	for _, c := range []struct {
		t    reflect.Type
		want string // in the error; "" for none
	}{
		{reflect.TypeFor[int](), ""},
		{reflect.TypeFor[map[string][]float64](), ""},
		{reflect.TypeFor[list](), ""}, // recursive
		{reflect.TypeFor[selfEncoding](), ""},
		{reflect.TypeFor[*Handle[[]int]](), ""},
		{reflect.TypeFor[[3]*Handle[int]](), ""},
		{reflect.TypeFor[withHidden](), "unexported field hidden"},
		{reflect.TypeFor[[]withHidden](), "unexported field hidden"},
		{reflect.TypeFor[func()](), "func"},
		{reflect.TypeFor[chan int](), "chan"},
		{reflect.TypeFor[any](), "interface"},
		{reflect.TypeFor[map[string]error](), "interface"},
		{reflect.TypeFor[*Handle[func()]](), "a handle's result"},
	} {
		err := canTravel(c.t)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%v: %v, want none", c.t, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%v: %v, want an error saying %q", c.t, err, c.want)
		}
	}
}

// withRegistry runs f with a registry holding only what f registers.
func withRegistry(t *testing.T, f func()) {
	registry.Lock()
	saved, twice := maps.Clone(registry.byName), registry.twice
	registry.byName, registry.twice = map[string]*procedure{}, nil
	registry.Unlock()
	defer func() {
		registry.Lock()
		registry.byName, registry.twice = saved, twice
		registry.Unlock()
	}()
	f()
}

func TestTravelProblemsNameProcedureAndType(t *testing.T) {
	withRegistry(t, func() {
		Proc("fine", func(*Ctx, []float64) (int, error) { return 0, nil })
		if err := travelProblems(); err != nil {
			t.Fatalf("travelling procedures: %v", err)
		}
		Proc2("callback", func(*Ctx, int, func() int) (int, error) { return 0, nil })
		Proc("hidden", func(*Ctx, int) (withHidden, error) { return withHidden{}, nil })
		Proc("fine", func(*Ctx, int) (int, error) { return 0, nil })
		err := travelProblems()
		for _, want := range []string{`procedure "callback": func() int is a func`, `procedure "hidden": orders.withHidden has the unexported field hidden`, `procedure "fine" is declared more than once`} {
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("got %v, want it to say %s", err, want)
			}
		}
	})
}

func TestValuesRoundTrip(t *testing.T) {
	e := newEncoder()
	put(e, 42)
	put(e, (*Handle[int])(nil))
	put(e, Ready([]float64{1.5, -2}))
	put(e, list{Value: 1, Next: &list{Value: 2}})
	b, err := e.bytes()
	if err != nil {
		t.Fatal(err)
	}
	d := newDecoder(b)
	n, nilHandle, ready, l := take[int](d), take[*Handle[int]](d), take[*Handle[[]float64]](d), take[list](d)
	if d.err != nil {
		t.Fatal(d.err)
	}
	if n != 42 || nilHandle != nil || !reflect.DeepEqual(ready.result, []float64{1.5, -2}) || ready.o != nil || l.Next.Value != 2 {
		t.Errorf("decoded %v %v %v %+v", n, nilHandle, ready, l)
	}
}

func TestHandleOfLocalOrderDoesNotTravel(t *testing.T) {
	h := &Handle[int]{o: &order{id: 7, proc: "p"}}
	if _, err := h.GobEncode(); err == nil || !strings.Contains(err.Error(), "order 7 (p)") {
		t.Errorf("a local order's handle encoded: %v", err)
	}
	remote := &Handle[int]{o: &order{remote: true, name: ref{Parent: 3, Child: 4}}}
	b, err := remote.GobEncode()
	if err != nil {
		t.Fatal(err)
	}
	var back Handle[int]
	if err := back.GobDecode(b); err != nil || back.o == nil || back.o.name != (ref{3, 4}) {
		t.Errorf("decoded %+v, %v", back.o, err)
	}
}

func TestFailureTravels(t *testing.T) {
	for _, err := range []error{
		&OrderError{Order: 3, Proc: "p", Err: errors.New("no")},
		&OrderError{Order: 4, Proc: "q", Err: &PanicError{Value: "boom", Stack: []byte("stack")}},
		&OrderError{Order: 5, Proc: "r", Err: &MisuseError{What: "a block in a block"}},
	} {
		data, _ := outcome(nil, toWire(err))
		f, derr := decode1[wireFailure](data)
		if derr != nil {
			t.Fatal(derr)
		}
		if got := f.orderError(); got.Error() != err.Error() {
			t.Errorf("%v came back as %v", err, got)
		}
	}
}
