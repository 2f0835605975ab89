package ptr

import "testing"

func TestClassify(t *testing.T) {
	tests := []struct {
		line       string
		kind       kind
		name, file string
		time       float64
		lineNo     int
		msg        string
	}{
		{line: "call_crtda_                TIME=0.00000133 LINE=20     FILE=jac1d.cdv",
			kind: callLine, name: "crtda_", file: "jac1d.cdv", time: 0.00000133, lineNo: 20},
		{line: "ret_crtda_ TIME=0.00002067 LINE=20 FILE=jac1d.cdv",
			kind: retLine, name: "crtda_", file: "jac1d.cdv", time: 0.00002067, lineNo: 20},
		{line: "Event_dvm_exit             TIME=0.00000314 LINE=59     FILE=jac1d.cdv",
			kind: eventLine, name: "dvm_exit", file: "jac1d.cdv", time: 0.00000314, lineNo: 59},
		{line: "call_dvm_fopen TIME=1e-3 LINE=48 FILE=a b.cdv",
			kind: callLine, name: "dvm_fopen", file: "a", time: 0.001, lineNo: 48},
		// Keys followed by blanks before '=' and by '['; semicolons dropped.
		{line: "call_x TIME =2; LINE[3 FILE= f.c",
			kind: callLine, name: "x", file: "f.c", time: 2, lineNo: 3},
		// "call_" anywhere wins over "ret_" and "Event_".
		{line: "ret_a call_b TIME=1 LINE=1 FILE=f",
			kind: callLine, name: "b", file: "f", time: 1, lineNo: 1},
		// A key inside a longer word that is not followed by '=' is
		// skipped: the second TIME counts.
		{line: "call_x TIMEX TIME=4 LINE=5 FILE=f",
			kind: callLine, name: "x", file: "f", time: 4, lineNo: 5},
		// Parameter lines: a key missing, or no call_/ret_/Event_.
		{line: "ArrayHeader=51b468; Rank=2;", kind: paramLine},
		{line: "call_x TIME=1 LINE=2", kind: paramLine},
		{line: "TaskTime=0.015100;   TaskTraceTime=0.005687;", kind: paramLine},
		{line: "X TIME=1 LINE=2 FILE=f", kind: paramLine},
		{line: "TIME LINE FILE call_x", kind: paramLine},
		// Malformed numbers.
		{line: "call_x TIME=abc LINE=2 FILE=f", kind: callLine, msg: timeMsg("abc")},
		{line: "call_x TIME=NaN LINE=2 FILE=f", kind: callLine, msg: timeMsg("NaN")},
		{line: "call_x TIME=Inf LINE=2 FILE=f", kind: callLine, msg: timeMsg("Inf")},
		{line: "call_x TIME=-5 LINE=2 FILE=f", kind: callLine, msg: timeMsg("-5")},
		{line: "call_x TIME=1e308 LINE=2 FILE=f", kind: callLine, msg: timeMsg("1e308")},
		{line: "call_x TIME=0x1p3 LINE=2 FILE=f", kind: callLine, msg: timeMsg("0x1p3")},
		{line: "call_x TIME=1_000 LINE=2 FILE=f", kind: callLine, msg: timeMsg("1_000")},
		{line: "call_x TIME=. LINE=2 FILE=f", kind: callLine, msg: timeMsg(".")},
		{line: "call_x TIME=1e LINE=2 FILE=f", kind: callLine, msg: timeMsg("1e")},
		// Decimal forms Lib-DVM may print.
		{line: "call_x TIME=.5 LINE=2 FILE=f", kind: callLine, name: "x", file: "f", time: 0.5, lineNo: 2},
		{line: "call_x TIME=3. LINE=2 FILE=f", kind: callLine, name: "x", file: "f", time: 3, lineNo: 2},
		{line: "call_x TIME=+1.5E-02 LINE=2 FILE=f", kind: callLine, name: "x", file: "f", time: 0.015, lineNo: 2},
		{line: "call_x TIME=1e9 LINE=2 FILE=f", kind: callLine, name: "x", file: "f", time: 1e9, lineNo: 2},
		{line: "ret_x TIME=1 LINE=2.5 FILE=f", kind: retLine, msg: `LINE: expected an integer, got "2.5"`},
	}
	for _, tt := range tests {
		var fl funcLine
		k, msg := classify([]byte(tt.line), &fl)
		if k != tt.kind || msg != tt.msg {
			t.Errorf("classify(%q) = %v, %q; want %v, %q", tt.line, k, msg, tt.kind, tt.msg)
			continue
		}
		if k == paramLine || msg != "" {
			continue
		}
		if string(fl.name) != tt.name || string(fl.file) != tt.file || fl.time != tt.time || fl.line != tt.lineNo {
			t.Errorf("classify(%q) = name %q file %q time %v line %d; want %q %q %v %d",
				tt.line, fl.name, fl.file, fl.time, fl.line, tt.name, tt.file, tt.time, tt.lineNo)
		}
	}
}

func timeMsg(v string) string {
	return `TIME: expected a decimal number of seconds from 0 to 1e+09, got "` + v + `"`
}

func TestKeep(t *testing.T) {
	tests := []struct {
		raw  string
		want string
		ok   bool
	}{
		{"", "", false},
		{"   \t ", "", false},
		{"----------", "", false},
		{"  ---------- starting", "", false},
		{"--------- nine", "--------- nine", true},
		{"   AMRef=525e34;", "AMRef=525e34;", true},
		{"Format=---------- starting", "Format=---------- starting", true},
		{"x  ", "x  ", true},
	}
	for _, tt := range tests {
		got, ok := keep([]byte(tt.raw))
		if ok != tt.ok || string(got) != tt.want {
			t.Errorf("keep(%q) = %q, %v; want %q, %v", tt.raw, got, ok, tt.want, tt.ok)
		}
	}
}
