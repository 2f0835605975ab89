package tracegen

import (
	"regexp"
	"strings"
	"testing"
)

// TestCheckerCatchesDefects makes sure the checker the other tests rely on
// rejects broken traces: each case damages a valid trace in one way.
func TestCheckerCatchesDefects(t *testing.T) {
	valid, _ := generateString(t, Options{Program: Jacobi, N: 8, Iterations: 2, Intervals: true})
	if _, err := checkTrace(valid); err != nil {
		t.Fatalf("the undamaged trace fails: %v", err)
	}
	gauss, _ := generateString(t, Options{Program: Gauss, N: 6})
	tests := []struct {
		name  string
		text  string
		old   string // regexp whose first match is replaced
		new   string
		error string
	}{
		{"missing ret", valid, `\nret_crtamv_ [^\n]*\n`, "\n", "inside call_crtamv_"},
		{"missing parameter", valid, `RedArrayType=3; `, "", "'RedArrayType' parameter missing"},
		{"hex handle in decimal", valid, `LoopRef=55e7c88fe5f0;\n`, "LoopRef=55e7c88fe5fg;\n", "LoopRef="},
		{"DoPL out of turn", valid, `DoPL=0;`, "DoPL=1;", "out of turn"},
		{"badly nested intervals", valid, `nfrag=3; nline=24`, "nfrag=3; nline=31", "open interval"},
		{"interval never closed", valid, `\ncall_enloop_ [^\n]*LINE=39 [^\n]*\nnfrag=2; nline=22\n\nret_enloop_[^\n]*\n`, "\n", "open intervals"},
		{"unknown loop", valid, `LoopRef=55e7c88fe5f0;\n\ncall_mappl_`, "LoopRef=abc;\n\ncall_mappl_", "unknown or mapped twice"},
		{"loop outside its pattern", valid, `InLastIndexArray\[0\]=8;`, "InLastIndexArray[0]=9;", "outside the pattern"},
		{"array used before creation", valid, `ArrayHeader=55e7c4406c80; ExtHdrSign`, "ArrayHeader=55e7c4406c81; ExtHdrSign", "not created"},
		{"group used before creation", valid, `\nRedGroupRef=55e7c88fef00;\n`, "\nRedGroupRef=1234;\n", "unknown or started"},
		{"wait without start", valid, `\ncall_strtsh_ [^\n]*\n[^\n]*\n\nret_strtsh_[^\n]*\n`, "\n", "wait without start"},
		{"remote index outside", gauss, `ConstArray\[0\]=0; ConstArray\[1\]=0;  \n\nret_crtrbl_`, "ConstArray[0]=0; ConstArray[1]=6;  \n\nret_crtrbl_", "outside dimension"},
		{"no VProcCount", valid, `VProcCount=0;\n`, "", "VProcCount"},
		{"leading blank", valid, `\nStaticSign=0;`, "\n StaticSign=0;", "leading blank"},
		{"seven decimals", valid, `TIME=0.00000100 `, "TIME=0.0000010 ", "malformed event"},
		{"unpadded name", valid, `call_crtpl_                `, "call_crtpl_ ", "column"},
		{"no blank before an event", valid, `\n\ncall_crtpl_`, "\ncall_crtpl_", "no blank line"},
		{"exit line missing", valid, `Event_dvm_exit[^\n]*\n`, "", "no blank line"},
		{"exit renamed", valid, `Event_dvm_exit`, "Event_dvm_quit", "want Event_dvm_exit"},
		{"long line", valid, `Format=JACOBI STARTED`, "Format=" + strings.Repeat("x", 300), "characters"},
		{"unknown function", valid, `call_begbl_ `, "call_begbx_ ", "does not close"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			re := regexp.MustCompile(tt.old)
			loc := re.FindStringIndex(tt.text)
			if loc == nil {
				t.Fatalf("%q not found in the trace", tt.old)
			}
			damaged := tt.text[:loc[0]] + tt.new + tt.text[loc[1]:]
			_, err := checkTrace(damaged)
			if err == nil || !strings.Contains(err.Error(), tt.error) {
				t.Errorf("err = %v, want one containing %q", err, tt.error)
			}
		})
	}
}
