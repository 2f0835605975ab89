package trace

import (
	"reflect"
	"testing"
)

func TestParseParams(t *testing.T) {
	sc := func(n, v string) Param { return Param{Name: n, Index: -1, Value: v} }
	el := func(n string, i int, v string) Param { return Param{Name: n, Index: i, Value: v} }
	tests := []struct {
		text    string
		want    Params
		pattern string
	}{
		{"", nil, ""},
		{"AMRefPtr=52fde0; AMRef=525e34; Rank=2; StaticSign=0;",
			Params{sc("AMRefPtr", "52fde0"), sc("AMRef", "525e34"), sc("Rank", "2"), sc("StaticSign", "0")}, ""},
		{"SizeArray[0]=8; SizeArray[1]=8;  \nLowShdWidthArray[0]=-1;",
			Params{el("SizeArray", 0, "8"), el("SizeArray", 1, "8"), el("LowShdWidthArray", 0, "-1")}, ""},
		// No semicolons.
		{"AMVAxisDiv[0]=1 AMVAxisDiv[1]=1  ", Params{el("AMVAxisDiv", 0, "1"), el("AMVAxisDiv", 1, "1")}, ""},
		// Blanks around '='.
		{"WeightNumber[0] = 10;\nLoadWeight[0] = 10.00;  LoadWeight[1] = 9.00; ",
			Params{el("WeightNumber", 0, "10"), el("LoadWeight", 0, "10.00"), el("LoadWeight", 1, "9.00")}, ""},
		// Pattern suffix.
		{"LoopRef=1; PatternRefPtr=52fe68; PatternRef=106a618 (AMView);",
			Params{sc("LoopRef", "1"), sc("PatternRefPtr", "52fe68"), sc("PatternRef", "106a618")}, "AMView"},
		{"PatternRef=106a618 (DisArray); NewSign=1;",
			Params{sc("PatternRef", "106a618"), sc("NewSign", "1")}, "DisArray"},
		// Free text is ignored; an empty value is kept.
		{"*** MPI_Comm Creating ***\n*** DoNotMPIRed = 0", Params{sc("DoNotMPIRed", "0")}, ""},
		{"Format= \nX=1", Params{sc("Format", ""), sc("X", "1")}, ""},
		{"Format=it=%d eps=%f", Params{sc("Format", "it=%d"), sc("eps", "%f")}, ""},
		{"= 5; =", nil, ""},
		// Brackets without a plain index keep the whole name.
		{"A[x]=1; B[]=2; C[-1]=3;", Params{sc("A[x]", "1"), sc("B[]", "2"), sc("C[-1]", "3")}, ""},
	}
	for _, tt := range tests {
		got, pattern := ParseParams(tt.text)
		if !reflect.DeepEqual(got, tt.want) || pattern != tt.pattern {
			t.Errorf("ParseParams(%q) =\n %v, %q\nwant\n %v, %q", tt.text, got, pattern, tt.want, tt.pattern)
		}
	}
}

func TestParamsLookup(t *testing.T) {
	ps, _ := ParseParams("Rank=2; SizeArray[0]=8; SizeArray[1]=9; SizeArray[3]=7; Rank=3;\nRankX=1; Size=5;")
	tests := []struct {
		name  string
		index int
		want  string
		ok    bool
	}{
		{"Rank", -1, "2", true}, // first wins
		{"SizeArray", 1, "9", true},
		{"SizeArray", 2, "", false},
		{"SizeArray", -1, "", false},
		{"Size", -1, "5", true}, // exact names: not SizeArray
		{"Ran", -1, "", false},
	}
	for _, tt := range tests {
		var got string
		var ok bool
		if tt.index < 0 {
			got, ok = ps.Get(tt.name)
		} else {
			got, ok = ps.Elem(tt.name, tt.index)
		}
		if got != tt.want || ok != tt.ok {
			t.Errorf("lookup %s[%d] = %q, %v; want %q, %v", tt.name, tt.index, got, ok, tt.want, tt.ok)
		}
	}
	if got, want := ps.Array("SizeArray"), []string{"8", "9"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Array(SizeArray) = %q, want %q (stops at the first missing index)", got, want)
	}
	if got := ps.Array("Rank"); got != nil {
		t.Errorf("Array(Rank) = %q, want nil", got)
	}
}

func TestParamSlab(t *testing.T) {
	var slab ParamSlab
	texts := []string{"A=1; B[0]=2;", "", "free text", "P=1 (DisArray)", "Format=x=y"}
	var got []Params
	for range 2000 { // several blocks
		for _, text := range texts {
			ps, pattern := slab.Parse(text)
			want, wantPattern := ParseParams(text)
			if !reflect.DeepEqual(ps, want) || pattern != wantPattern {
				t.Fatalf("Parse(%q) = %v, %q; want %v, %q", text, ps, pattern, want, wantPattern)
			}
			got = append(got, ps)
		}
	}
	// Earlier results are not overwritten by later ones.
	if v, _ := got[0].Get("A"); v != "1" || len(got[0]) != 2 || cap(got[0]) != 2 {
		t.Errorf("first result now %v (cap %d)", got[0], cap(got[0]))
	}
}
