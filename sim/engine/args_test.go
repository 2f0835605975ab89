package engine

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/sim/trace"
)

// compiledEngine returns an engine positioned on one compiled call.
func compiledEngine(t *testing.T, fn, in, out string) *Engine {
	t.Helper()
	e := newTestEngine(t, []int{2})
	c := &trace.Call{Func: fn, TraceLine: 42, InText: in, OutText: out}
	c.In, c.Pattern = trace.ParseParams(in)
	c.Out, _ = trace.ParseParams(out)
	op := NewCompiler().Compile(c)
	e.op = &op
	return e
}

func TestCompiledParams(t *testing.T) {
	e := compiledEngine(t, "crtda_",
		"ArrayHeader=0x1f; Rank=2; Rank=9; TypeSize=-8; SizeArray[1]=20; SizeArray[0]=10; SizeArray[3]=5; LowShdWidthArray[0]=x; Unused=1;",
		"ArrayHandlePtr=NULL;")
	if h, err := e.handle(in, kArrayHeader); err != nil || h != 0x1f {
		t.Errorf("ArrayHeader = %x, %v; want 1f", h, err)
	}
	if n, err := e.dec(in, kRank); err != nil || n != 2 {
		t.Errorf("Rank = %d, %v; want the first occurrence, 2", n, err)
	}
	if n, err := e.dec(in, kTypeSize); err != nil || n != -8 {
		t.Errorf("TypeSize = %d, %v; want -8", n, err)
	}
	if v, err := e.decArray(in, kSizeArray); err != nil || !slices.Equal(v, []int64{10, 20}) {
		t.Errorf("SizeArray = %v, %v; want [10 20] (stops at the missing index 2)", v, err)
	}
	if h, err := e.handle(out, kArrayHandlePtr); err != nil || h != 0 {
		t.Errorf("ArrayHandlePtr = %x, %v; want 0 for NULL", h, err)
	}
	if v, err := e.optDecArray(in, kHiShdWidthArray); err != nil || v != nil {
		t.Errorf("absent optional array = %v, %v; want nil, nil", v, err)
	}
	for _, tc := range []struct {
		err  error
		want string
	}{
		{second(e.optDecArray(in, kLowShdWidthArray)), `t.ptr:42: crtda_: parameter 'LowShdWidthArray[0]'="x" is not a number`},
		{second(e.dec(in, kStaticSign)), `t.ptr:42: crtda_: required parameter 'StaticSign' missing`},
		{second(e.handle(in, kRank)), ``},
	} {
		got := ""
		if tc.err != nil {
			got = tc.err.Error()
		}
		if got != tc.want {
			t.Errorf("error %q, want %q", got, tc.want)
		}
	}
}

func TestCompiledBadValues(t *testing.T) {
	e := compiledEngine(t, "crtpl_", "Rank=99999999999999999999; LoopRef=zz;", "")
	if _, err := e.dec(in, kRank); err == nil || !strings.Contains(err.Error(), "out of range") {
		t.Errorf("huge Rank: %v, want out of range", err)
	}
	if _, err := e.handle(in, kLoopRef); err == nil || !strings.Contains(err.Error(), `'LoopRef'="zz" is not a hexadecimal handle`) {
		t.Errorf("bad handle: %v", err)
	}
	if n, ok, err := e.optDec(in, kRank); !ok || n != 0 || err == nil || !strings.Contains(err.Error(), "out of range") {
		t.Errorf("optional huge Rank: %d, %v, %v; want present and out of range", n, ok, err)
	}
	if n, ok, err := e.optDec(in, kTypeSize); ok || n != 0 || err != nil {
		t.Errorf("absent optional TypeSize: %d, %v, %v; want 0, false, nil", n, ok, err)
	}
}

// TestSharedPrototypes: calls differing only in their times share one
// prototype, so a long trace of repeated iterations compiles small.
func TestSharedPrototypes(t *testing.T) {
	comp := NewCompiler()
	mk := func(tm float64) *trace.Call {
		c := &trace.Call{Func: "dopl_", CallTime: tm, Line: 7, File: "a.c", InText: "LoopRef=1;", OutText: "DoPL=0;"}
		c.In, _ = trace.ParseParams(c.InText)
		c.Out, _ = trace.ParseParams(c.OutText)
		return c
	}
	a, b := comp.Compile(mk(1)), comp.Compile(mk(2))
	if a.p != b.p || a.callT != 1 || b.callT != 2 {
		t.Errorf("prototypes %p %p (times %v %v): want one shared prototype", a.p, b.p, a.callT, b.callT)
	}
}

// TestSyncWhenEqual: with every clock equal MPSSynchronize changes nothing.
func TestSyncWhenEqual(t *testing.T) {
	e := newTestEngine(t, []int{2, 2})
	e.addAll(e.vm, KUsr, 0.25)
	e.mpsSync(KWaitShadow)
	if e.cur.own != nil || e.cur.uni[cSynch] != 0 || e.clock(3) != 0.25 {
		t.Errorf("sync of equal clocks charged something: own %v synch %v clock %v", e.cur.own != nil, e.cur.uni[cSynch], e.clock(3))
	}
}

func second[T any](_ T, err error) error { return err }

// TestCompileParsesText: a call that carries only its parameter text (the
// reader's TextOnly calls) compiles to the arguments of the same call
// with its parameters parsed.
func TestCompileParsesText(t *testing.T) {
	const in, out = "AMRefPtr=NULL; AMRef=0; Rank=2; StaticSign=0;\nSizeArray[0]=8; SizeArray[1]=8;", "AMViewRef=558c50176330;"
	ps, _ := trace.ParseParams(in)
	rs, _ := trace.ParseParams(out)
	parsedCall := &trace.Call{Func: "crtamv_", InText: in, OutText: out, In: ps, Out: rs}
	textCall := &trace.Call{Func: "crtamv_", InText: in, OutText: out}
	a, b := NewCompiler().Compile(parsedCall), NewCompiler().Compile(textCall)
	if !reflect.DeepEqual(a.p.in, b.p.in) || !reflect.DeepEqual(a.p.out, b.p.out) || b.p.in.scalar(kRank) == nil {
		t.Errorf("from the text: %+v, %+v; parsed: %+v, %+v", b.p.in, b.p.out, a.p.in, a.p.out)
	}
}
