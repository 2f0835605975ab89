package ptr

import (
	"bytes"
	"fmt"
	"math"
	"testing"
)

// classifySeeds are lines near the canonical form, and lines on which the
// general rules give surprising results that the fast path must not change.
var classifySeeds = []string{
	"call_crtda_                TIME=0.00000133 LINE=20     FILE=jac1d.cdv",
	"ret_crtda_                 TIME=0.00002067 LINE=20     FILE=jac1d.cdv",
	"Event_dvm_exit             TIME=0.00000314 LINE=59     FILE=jac1d.cdv",
	"call_x TIME=1.5; LINE=2; FILE=f;  \t",
	"call_x\tTIME=1e-3\tLINE=48\tFILE=a b.cdv",
	"call_x TIME =2; LINE[3 FILE= f.c",
	"call_x TIME= 2 LINE= 3 FILE= f.c",
	"call_x TIME=2 LINE=3 FILE= ",
	"ret_a call_b TIME=1 LINE=1 FILE=f",
	"ret_x TIME=1 LINE=2 FILE=call_y.cdv",
	"Event_x TIME=1 LINE=2 FILE=ret_y",
	"Event_ret_x TIME=1 LINE=2 FILE=y",
	"ret_xcall_ TIME=1 LINE=2 FILE=y",
	"call_xTIME=4 TIME=5 LINE=6 FILE=f",
	"call_x[1] TIME=4 LINE=6 FILE=f",
	"call_x TIMEX TIME=4 LINE=5 FILE=f",
	"call_x TIME=1LINE=2 LINE=3 FILE=f",
	"call_x TIME=1 LINE=2FILE=g FILE=f",
	"call_x TIME=1 LINE=+2 FILE=f",
	"call_x TIME=1 LINE=-2 FILE=f",
	"call_x TIME=1 LINE=99999999999999999999 FILE=f",
	"call_x TIME=1 LINE=123456789012345678 FILE=f",
	"call_x TIME=1 LINE=2.5 FILE=f",
	"call_x TIME=1;; LINE=2 FILE=f",
	"call_x TIME=0x1p3 LINE=2 FILE=f",
	"call_x TIME=1e9 LINE=2 FILE=f",
	"call_x TIME=1000000000.0000001 LINE=2 FILE=f",
	"call_x TIME=123456789012345678901234567890e-25 LINE=2 FILE=f",
	"call_ TIME=1 LINE=2 FILE=f",
	"call_x TIME=1 LINE=2",
	"call_x TIME=1 LINE=2 FILE=f extra",
	"ArrayHeader=51b468; Rank=2;",
	"TaskTime=0.015100;   TaskTraceTime=0.005687;",
	"X TIME=1 LINE=2 FILE=f",
	"MPI_Datatype=MPI_DOUBLE; TIME=1 LINE=2 FILE=call_f",
}

// FuzzClassify checks that classify, with its fast paths, says what the
// general rules say of any line: kind, message and every field.
func FuzzClassify(f *testing.F) {
	for _, s := range classifySeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(checkClassify)
}

// checkClassify checks classify against the general rules on b.
func checkClassify(t *testing.T, b []byte) {
	t.Helper()
	var got, want funcLine
	k, msg := classify(b, &got)
	wk, wmsg := classifyGeneral(b, &want)
	if k != wk || msg != wmsg || !sameFuncLine(got, want) {
		t.Fatalf("classify(%q) = %v, %q, %s;\ngeneral rules give %v, %q, %s",
			b, k, msg, formatFuncLine(got), wk, wmsg, formatFuncLine(want))
	}
}

func sameFuncLine(a, b funcLine) bool {
	return a.kind == b.kind && bytes.Equal(a.name, b.name) && bytes.Equal(a.file, b.file) &&
		math.Float64bits(a.time) == math.Float64bits(b.time) && a.line == b.line
}

func formatFuncLine(fl funcLine) string {
	return fmt.Sprintf("{%v name %q file %q time %v (%#x) line %d}",
		fl.kind, fl.name, fl.file, fl.time, math.Float64bits(fl.time), fl.line)
}

// TestClassifyCanonicalTaken checks that the fast path is taken by the
// function lines of real traces, so that it cannot silently become dead
// code: every one of jac1d.ptr's function lines is canonical.
func TestClassifyCanonicalTaken(t *testing.T) {
	data := readGolden(t, "jac1d.ptr")
	funcs := 0
	for raw := range bytes.Lines(data) {
		b, ok := keep(bytes.TrimRight(raw, "\r\n"))
		if !ok {
			continue
		}
		var fast, general funcLine
		k, _ := classifyGeneral(b, &general)
		if k == paramLine {
			continue
		}
		funcs++
		if fk, ok := classifyCanonical(b, &fast); !ok || fk != k || !sameFuncLine(fast, general) {
			t.Errorf("line %q: fast path gives %v, %v, %s; want %v, %s", b, fk, ok, formatFuncLine(fast), k, formatFuncLine(general))
		}
	}
	if funcs < 500 {
		t.Errorf("%d function lines in jac1d.ptr, want at least 500", funcs)
	}
}

// FuzzClassifyFields is FuzzClassify on lines built from the fields of the
// canonical form, so that most of them take the fast path with arbitrary
// names, numbers, files and blanks.
func FuzzClassifyFields(f *testing.F) {
	f.Add(uint8(0), "crtda_", "0.00000133", "20", "jac1d.cdv", "                ", " ", "     ", "")
	f.Add(uint8(1), "x", "1e-3", "2;", "call_y.cdv", "\t", "\t", " ", " \t")
	f.Add(uint8(2), "ret_x", "+.5", "007", "ret_.c", " ", "  ", " ", "")
	f.Fuzz(func(t *testing.T, prefix uint8, name, time, line, file, blank1, blank2, blank3, tail string) {
		pref := []string{"call_", "ret_", "Event_"}[prefix%3]
		checkClassify(t, []byte(pref+name+blank1+"TIME="+time+blank2+"LINE="+line+blank3+"FILE="+file+tail))
	})
}
