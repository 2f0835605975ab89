package ptr

import "github.com/presage-dvm/presage/sim/trace"

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
)

// mini is a small well-formed trace: header lines 1-8, three calls, the
// Event_ line at 21 and a tail that must be ignored.
const mini = `RTS VERSION = 2889
ProcCount=1  HasCurrent=1  CentralProc=0  IOProc=0
ProcCount=1;      PSRank=3;      PSSize= 1 1 1;
VProcCount=0;
call_mps_Barrier           TIME=0.01174409 LINE=25     FILE=a.cdv
ret_mps_Barrier            TIME=0.00000119 LINE=25     FILE=a.cdv
ret_dvm_Init               TIME=0.00032288 LINE=25     FILE=a.cdv

call_crtamv_               TIME=0.00001208 LINE=20     FILE=a.cdv
AMRefPtr=52fde0; AMRef=525e34; Rank=2; StaticSign=0;
  SizeArray[0]=8; SizeArray[1]=8;  
----------
ret_crtamv_                TIME=0.00001124 LINE=20     FILE=a.cdv
AMViewRef=106a618;

call_align_ TIME=1.5 LINE=21 FILE=b.cdv
PatternRef=106a618 (AMView);
ret_align_ TIME=2 LINE=21 FILE=b.cdv
call_endpl_ TIME=0.25 LINE=22 FILE=b.cdv
ret_endpl_ TIME=0.5 LINE=22 FILE=b.cdv
Event_dvm_exit TIME=0 LINE=30 FILE=a.cdv
rc=0;
call_dvm_void_printf TIME=1 LINE=30 FILE=a.cdv
`

func miniCalls() []*trace.Call {
	sc := func(n, v string) trace.Param { return trace.Param{Name: n, Index: -1, Value: v} }
	el := func(n string, i int, v string) trace.Param { return trace.Param{Name: n, Index: i, Value: v} }
	return []*trace.Call{
		{Func: "crtamv_", CallTime: 0.00001208, RetTime: 0.00001124, Line: 20, File: "a.cdv", TraceLine: 9,
			In: trace.Params{sc("AMRefPtr", "52fde0"), sc("AMRef", "525e34"), sc("Rank", "2"), sc("StaticSign", "0"),
				el("SizeArray", 0, "8"), el("SizeArray", 1, "8")},
			Out:     trace.Params{sc("AMViewRef", "106a618")},
			InText:  "AMRefPtr=52fde0; AMRef=525e34; Rank=2; StaticSign=0;\nSizeArray[0]=8; SizeArray[1]=8;  ",
			OutText: "AMViewRef=106a618;"},
		{Func: "align_", CallTime: 1.5, RetTime: 2, Line: 21, File: "b.cdv", TraceLine: 16,
			In: trace.Params{sc("PatternRef", "106a618")}, Pattern: "AMView",
			InText: "PatternRef=106a618 (AMView);"},
		{Func: "endpl_", CallTime: 0.25, RetTime: 0.5, Line: 22, File: "b.cdv", TraceLine: 19},
	}
}

func readAllString(t *testing.T, text string) (*Reader, []*trace.Call) {
	t.Helper()
	r, err := NewReader(strings.NewReader(text), "mini.ptr")
	if err != nil {
		t.Fatal(err)
	}
	calls, err := trace.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return r, calls
}

func TestReaderMini(t *testing.T) {
	r, calls := readAllString(t, mini)
	h := r.Header()
	if h.RTSVersion != "2889" || h.ProcCount != 1 || h.VProcCount != 0 || h.VPSSize != nil ||
		h.RootLine != 25 || h.RootFile != "a.cdv" {
		t.Errorf("header = %+v", h)
	}
	if len(h.Lines) != 8 || h.Lines[0] != "RTS VERSION = 2889" || h.Lines[6] != "ret_dvm_Init               TIME=0.00032288 LINE=25     FILE=a.cdv" || h.Lines[7] != "" {
		t.Errorf("header lines = %q", h.Lines)
	}
	want := miniCalls()
	if !reflect.DeepEqual(calls, want) {
		for i := range max(len(calls), len(want)) {
			if i >= len(calls) || i >= len(want) || !reflect.DeepEqual(calls[i], want[i]) {
				t.Errorf("call %d differs", i)
				if i < len(calls) {
					t.Logf("got  %+v", *calls[i])
				}
				if i < len(want) {
					t.Logf("want %+v", *want[i])
				}
			}
		}
	}
	if r.TextBytes() != int64(len(mini)) {
		t.Errorf("TextBytes = %d, want %d", r.TextBytes(), len(mini))
	}
	// io.EOF is sticky.
	if c, err := r.Next(); c != nil || err != io.EOF {
		t.Errorf("Next after EOF = %v, %v", c, err)
	}
}

func TestReaderVariants(t *testing.T) {
	gz := func(s string) string {
		var b bytes.Buffer
		w := gzip.NewWriter(&b)
		w.Write([]byte(s))
		w.Close()
		return b.String()
	}
	tests := []struct {
		name string
		text string
	}{
		{"gzip", gz(mini)},
		{"CRLF", strings.ReplaceAll(mini, "\n", "\r\n")},
		{"no final newline", strings.TrimSuffix(mini, "\n")},
	}
	want := miniCalls()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, calls := readAllString(t, tt.text)
			if !reflect.DeepEqual(calls, want) {
				t.Errorf("calls differ from the plain trace's")
			}
		})
	}
}

func TestReaderLongLine(t *testing.T) {
	// Lines longer than the read buffer are read whole (the original's
	// 255-character split is not reproduced).
	long := strings.Repeat("X=1; ", 30000)
	text := strings.Replace(mini, "AMViewRef=106a618;", "AMViewRef=106a618; "+long, 1)
	_, calls := readAllString(t, text)
	if got := len(calls[0].Out); got != 30001 {
		t.Errorf("len(Out) = %d, want 30001", got)
	}
}

func TestParseHeader(t *testing.T) {
	r, _ := readAllString(t, mini)
	h, err := ParseHeader(strings.Join(r.Header().Lines, "\n"), "mini")
	if err != nil || !reflect.DeepEqual(h, r.Header()) {
		t.Errorf("ParseHeader = %+v, %v; want %+v", h, err, r.Header())
	}
	tests := []struct{ text, msg string }{
		{"RTS VERSION = 2889\nProcCount=1", "mini: header: VProcCount= missing"},
		{"VProcCount=0;\ncall_x TIME=? LINE=1 FILE=f", `mini:2: TIME: expected a decimal number of seconds from 0 to 1e+09, got "?"`},
		{"ProcCount=one\nVProcCount=0;", `mini:1: ProcCount: expected an integer, got "one"`},
	}
	for _, tt := range tests {
		if _, err := ParseHeader(tt.text, "mini"); err == nil || err.Error() != tt.msg {
			t.Errorf("ParseHeader(%q) error %v, want %s", tt.text, err, tt.msg)
		}
	}
}

func TestReaderVPS(t *testing.T) {
	text := strings.Replace(mini, "VProcCount=0;", "VProcCount=4;  VPSRank=2;  VPSSize= 2 2;", 1)
	r, calls := readAllString(t, text)
	h := r.Header()
	if h.VProcCount != 4 || h.VPSRank != 2 || !reflect.DeepEqual(h.VPSSize, []int{2, 2}) {
		t.Errorf("header = %+v", h)
	}
	if len(calls) != 3 {
		t.Errorf("%d calls, want 3", len(calls))
	}
}

func TestReaderNoCalls(t *testing.T) {
	text := mini[:strings.Index(mini, "call_crtamv_")] + "Event_dvm_exit TIME=0 LINE=30 FILE=a.cdv\n"
	r, calls := readAllString(t, text)
	if len(calls) != 0 || r.Header().RootLine != 25 {
		t.Errorf("%d calls, header %+v", len(calls), r.Header())
	}
}

func TestReaderErrors(t *testing.T) {
	cut := func(s, from string) string { return s[:strings.Index(s, from)] }
	repl := func(old, new string) string { return strings.Replace(mini, old, new, 1) }
	tests := []struct {
		name string
		text string
		line int
		msg  string
	}{
		{"empty", "", 0, "empty file"},
		{"blank", "\n  \n\n", 0, "empty file"},
		{"text", "hello\nworld\n", 0, "not a Lib-DVM trace: no call_/ret_ line"},
		{"binary", "RTS\x00\x01\x02\n", 1, "not a Lib-DVM trace: NUL byte at column 4"},
		{"no dvm_Init", cut(mini, "ret_dvm_Init"), 6, "truncated trace: no ret_dvm_Init line"},
		{"header only", cut(mini, "call_crtamv_"), 8, "truncated trace: no Event_dvm_exit line"},
		{"no VProcCount", repl("VProcCount=0;", "VProc=0;"), 0, "header: VProcCount= missing"},
		{"bad VProcCount", repl("VProcCount=0;", "VProcCount=x;"), 4, `VProcCount: expected an integer, got "x"`},
		{"no VPSRank", repl("VProcCount=0;", "VProcCount=2; VPSSize= 2;"), 0, "VPSRank= missing"},
		{"no VPSSize", repl("VProcCount=0;", "VProcCount=2; VPSRank=1;"), 0, "VPSSize= missing"},
		{"EOF mid-call", cut(mini, "ret_crtamv_"), 9, "truncated trace: call_crtamv_ at line 9 has no ret_crtamv_"},
		{"call in call", repl("ret_crtamv_ ", "call_crtamv_ "), 9, "truncated trace: call_crtamv_ at line 9 has no ret_crtamv_ (call_crtamv_ follows at line 13)"},
		{"event in call", cut(mini, "ret_endpl_") + "Event_dvm_exit TIME=0 LINE=30 FILE=a.cdv\n", 19, "call_endpl_ at line 19 has no ret_endpl_ (Event_dvm_exit follows at line 20)"},
		{"no Event", cut(mini, "Event_"), 20, "truncated trace: no Event_dvm_exit line"},
		{"bad TIME", repl("TIME=1.5", "TIME=1,5"), 16, `TIME: expected a decimal number of seconds from 0 to 1e+09, got "1,5"`},
		{"bad LINE", repl("LINE=22 FILE=b.cdv\nret", "LINE=x FILE=b.cdv\nret"), 19, `LINE: expected an integer, got "x"`},
		{"bad header TIME", repl("TIME=0.00000119", "TIME=?"), 6, `TIME: expected a decimal number of seconds from 0 to 1e+09, got "?"`},
		{"ret mismatch", repl("ret_align_", "ret_alig_"), 18, "ret_alig_ does not match call_align_ at line 16"},
		{"ret without call", repl("call_endpl_ TIME=0.25 LINE=22 FILE=b.cdv\n", ""), 19, "ret_endpl_ without call_endpl_"},
		{"truncated gzip", gzipPrefix(mini, 200), 0, "unexpected EOF"},
		{"NUL in a call", repl("ret_align_", "ret_al\x00ign_"), 18, "NUL byte at column 7"},
		{"zeros after the end", mini + "SystemTime=0.1;\n" + strings.Repeat("\x00", 3<<20), strings.Count(mini, "\n") + 2, "NUL byte after the Event_ line"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := readErr(tt.text)
			var pe *Error
			if !errors.As(err, &pe) {
				t.Fatalf("error %v (%T), want *Error", err, err)
			}
			if pe.File != "bad.ptr" || (tt.line > 0 && pe.Line != tt.line) || !strings.Contains(pe.Msg, tt.msg) {
				t.Errorf("error %q; want bad.ptr:%d: ...%s", err, tt.line, tt.msg)
			}
		})
	}
}

func TestErrorString(t *testing.T) {
	for _, tt := range []struct {
		err  *Error
		want string
	}{
		{&Error{File: "a.ptr", Line: 7, Msg: "m"}, "a.ptr:7: m"},
		{&Error{File: "a.ptr", Msg: "empty file"}, "a.ptr: empty file"},
	} {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("Error() = %q, want %q", got, tt.want)
		}
	}
}

// readErr reads text to the end and returns the first error, nil at EOF.
func readErr(text string) error {
	r, err := NewReader(strings.NewReader(text), "bad.ptr")
	if err != nil {
		return err
	}
	_, err = trace.ReadAll(r)
	return err
}

// gzipPrefix compresses s and keeps only the first n bytes.
func gzipPrefix(s string, n int) string {
	var b bytes.Buffer
	w, _ := gzip.NewWriterLevel(&b, gzip.NoCompression)
	w.Write([]byte(s))
	w.Close()
	return b.String()[:n]
}
