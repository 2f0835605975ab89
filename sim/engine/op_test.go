package engine

import (
	"reflect"
	"testing"

	"github.com/presage-dvm/presage/sim/trace"
)

// TestCompileByShape compiles a trace's calls with the shape numbers a
// stored trace's pack gives them and without: the shaped calls share one
// prototype per shape, found by the number, and each prototype is the one
// the texts give (the same site, the same parsed parameters).
func TestCompileByShape(t *testing.T) {
	calls := []trace.Call{
		{Func: "crtshg_", Line: 10, File: "a.f", InText: "StaticSign=0", OutText: "ShadowGroupRef=1"},
		{Func: "inssh_", Line: 11, File: "a.f", InText: "ShadowGroupRefPtr=1\nArrayHeader=2", OutText: ""},
		{Func: "crtshg_", Line: 10, File: "a.f", InText: "StaticSign=1", OutText: "ShadowGroupRef=3"},
	}
	shapes := []int{1, 2, 3}
	byText, byShape := NewCompiler(), NewCompiler()
	first := map[int]*proto{}
	for round := range 3 {
		for i := range calls {
			c := calls[i]
			c.CallTime, c.TraceLine = float64(round+1)*1e-6, round*10+i
			want := byText.Compile(&c)
			c.Shape = shapes[i]
			got := byShape.Compile(&c)
			if got.callT != want.callT || got.traceLine != want.traceLine {
				t.Errorf("round %d call %d: times %v/%d, want %v/%d", round, i, got.callT, got.traceLine, want.callT, want.traceLine)
			}
			if got.p.site.fn != want.p.site.fn || got.p.site.line != want.p.site.line ||
				!reflect.DeepEqual(got.p.in, want.p.in) || !reflect.DeepEqual(got.p.out, want.p.out) {
				t.Errorf("round %d call %d: prototype %s(%+v | %+v), want %s(%+v | %+v)", round, i,
					got.p.site.fn, got.p.in, got.p.out, want.p.site.fn, want.p.in, want.p.out)
			}
			if p, ok := first[c.Shape]; ok && p != got.p {
				t.Errorf("round %d call %d: shape %d compiled to a new prototype", round, i, c.Shape)
			} else if !ok {
				first[c.Shape] = got.p
			}
		}
	}
	if first[1] == first[3] {
		t.Error("two shapes of one site with different parameters share a prototype")
	}
}
