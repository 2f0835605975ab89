package tracegen

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// This file is a test-only trace checker, independent of the trace reader
// and the simulator: it reads the text the way docs/model.md §9 describes and
// verifies what the generator promises — the frame, call/ret pairing, the
// parameters of §6.6, handle lifetimes and interval nesting.

// eventRE is an event line as the run-time system writes it: the name
// padded to 27 columns, TIME with 8 decimals, LINE padded to 6 columns.
var eventRE = regexp.MustCompile(`^(call|ret|Event)_(\S+) +TIME=(\d+\.\d{8}) LINE=(\d+) +FILE=(\S+)$`)

// tcall is one traced call as the checker sees it.
type tcall struct {
	fn           string
	line         int // LINE=
	at           int // 1-based line number of the call line
	callT, retT  float64
	in, out      []string // parameter lines
	inText, text string   // call parameter lines joined; all lines joined
}

// checked is what the checker found.
type checked struct {
	calls  []tcall
	funcs  map[string]int // calls per function
	maxLvl int            // deepest interval nesting
}

// traceErr locates a defect.
func traceErr(at int, format string, args ...any) error {
	return fmt.Errorf("line %d: %s", at, fmt.Sprintf(format, args...))
}

// checkTrace verifies a whole trace and returns its body calls.
func checkTrace(text string) (*checked, error) {
	lines := strings.Split(text, "\n")
	if lines[len(lines)-1] != "" {
		return nil, traceErr(len(lines), "the file does not end with a newline")
	}
	lines = lines[:len(lines)-1]
	for i, l := range lines {
		if len(l) > 255 {
			return nil, traceErr(i+1, "%d characters: the original splits lines longer than 255", len(l))
		}
		if strings.HasPrefix(l, " ") && strings.TrimSpace(l) != "" && !isTailLine(l) {
			return nil, traceErr(i+1, "leading blank in %q: the merge strips them", l)
		}
	}
	body, err := checkHeader(lines)
	if err != nil {
		return nil, err
	}
	calls, exit, err := splitCalls(lines, body)
	if err != nil {
		return nil, err
	}
	if err := checkTail(lines, exit); err != nil {
		return nil, err
	}
	c := &checked{calls: calls, funcs: map[string]int{}}
	for _, cl := range calls {
		c.funcs[cl.fn]++
		if err := checkParams(cl); err != nil {
			return nil, err
		}
	}
	if c.maxLvl, err = checkHandles(calls); err != nil {
		return nil, err
	}
	return c, nil
}

// isTailLine reports lines of the verbatim tail that start with blanks.
func isTailLine(l string) bool {
	return l == " " || strings.HasPrefix(l, "    TaskTime=") || strings.HasPrefix(l, "  SystemTime=")
}

// checkHeader verifies the preamble (§9.5) and returns the index of the
// first body line.
func checkHeader(lines []string) (int, error) {
	if len(lines) == 0 || lines[0] != "RTS VERSION = 2889" {
		return 0, traceErr(1, "want RTS VERSION = 2889")
	}
	sawV, sawBarrier := false, false
	for i, l := range lines {
		switch {
		case l == "VProcCount=0;":
			sawV = true
		case strings.HasPrefix(l, "call_mps_Barrier "):
			sawBarrier = true
			fallthrough
		case strings.HasPrefix(l, "ret_mps_Barrier "):
			if !eventRE.MatchString(l) {
				return 0, traceErr(i+1, "malformed event line %q", l)
			}
		case strings.HasPrefix(l, "ret_dvm_Init "):
			if !eventRE.MatchString(l) {
				return 0, traceErr(i+1, "malformed %q", l)
			}
			if !sawV || !sawBarrier {
				return 0, traceErr(i+1, "header lacks VProcCount=0; or the start-up barrier")
			}
			return i + 1, nil
		}
	}
	return 0, traceErr(len(lines), "no ret_dvm_Init")
}

// splitCalls pairs the body's event lines and returns the calls and the
// index of the Event_dvm_exit line.
func splitCalls(lines []string, from int) ([]tcall, int, error) {
	var calls []tcall
	var cur *tcall
	inCall := false
	for i := from; i < len(lines); i++ {
		l := lines[i]
		if l == "" {
			continue
		}
		isEvent := strings.Contains(l, "TIME=") && strings.Contains(l, "LINE=") && strings.Contains(l, "FILE=")
		if !isEvent {
			if cur == nil {
				return nil, 0, traceErr(i+1, "parameter line %q before the first call", l)
			}
			if inCall {
				cur.in = append(cur.in, l)
			} else {
				cur.out = append(cur.out, l)
			}
			continue
		}
		m := eventRE.FindStringSubmatch(l)
		if m == nil {
			return nil, 0, traceErr(i+1, "malformed event line %q", l)
		}
		name := m[1] + "_" + m[2]
		if pad := strings.Index(l, "TIME="); len(name) < 26 && pad != 27 {
			return nil, 0, traceErr(i+1, "TIME= at column %d, want 27", pad)
		}
		if pad := strings.Index(l, " FILE="); pad-strings.Index(l, "LINE=")-5 < 6 {
			return nil, 0, traceErr(i+1, "LINE= value not padded to 6 columns")
		}
		if lines[i-1] != "" && m[1] != "Event" {
			return nil, 0, traceErr(i+1, "no blank line before the event line")
		}
		t, _ := strconv.ParseFloat(m[3], 64)
		ln, _ := strconv.Atoi(m[4])
		switch m[1] {
		case "call":
			if inCall {
				return nil, 0, traceErr(i+1, "call_%s inside call_%s", m[2], cur.fn)
			}
			calls = append(calls, tcall{fn: m[2], line: ln, at: i + 1, callT: t})
			cur, inCall = &calls[len(calls)-1], true
		case "ret":
			if !inCall || cur.fn != m[2] || cur.line != ln {
				return nil, 0, traceErr(i+1, "ret_%s does not close the open call", m[2])
			}
			cur.retT, inCall = t, false
		case "Event":
			if inCall {
				return nil, 0, traceErr(i+1, "Event inside call_%s", cur.fn)
			}
			if m[2] != "dvm_exit" {
				return nil, 0, traceErr(i+1, "Event_%s, want Event_dvm_exit", m[2])
			}
			for k := range calls {
				c := &calls[k]
				c.inText = strings.Join(c.in, "\n")
				c.text = strings.Join(append(append([]string{}, c.in...), c.out...), "\n")
			}
			return calls, i, nil
		}
	}
	return nil, 0, traceErr(len(lines), "no Event_dvm_exit")
}

// tailRE is the end of the file: the run's totals.
var tailRE = regexp.MustCompile(`^  SystemTime=\d+\.\d{6}; SystemTraceTime=\d+\.\d{6};$`)

func checkTail(lines []string, exit int) error {
	want := []string{"rc=0;", "call_dvm_void_printf", "Format= ", "", "ret_dvm_void_printf", " ", "", "RTS VERSION = 2889"}
	for k, w := range want {
		if i := exit + 1 + k; i >= len(lines) || !strings.HasPrefix(lines[i], w) {
			return traceErr(i+1, "tail: want %q", w)
		}
	}
	if last := lines[len(lines)-1]; !tailRE.MatchString(last) {
		return traceErr(len(lines), "last line %q is not the SystemTime line", last)
	}
	return nil
}

// value finds key in lines the way §9.4 does: the first occurrence of the
// substring followed by blanks and '=' gives the text up to the next blank,
// without a trailing ';'.
func value(lines []string, key string) (string, bool) {
	for _, l := range lines {
		for off := 0; ; {
			k := strings.Index(l[off:], key)
			if k < 0 {
				break
			}
			j := off + k + len(key)
			for j < len(l) && l[j] == ' ' {
				j++
			}
			if j < len(l) && l[j] == '=' {
				j++
				for j < len(l) && l[j] == ' ' {
					j++
				}
				e := j
				for e < len(l) && l[e] != ' ' {
					e++
				}
				return strings.TrimSuffix(l[j:e], ";"), true
			}
			off += k + 1
		}
	}
	return "", false
}

// array returns name[0], name[1], ... up to the first missing index.
func array(lines []string, name string) []string {
	var vs []string
	for i := 0; ; i++ {
		v, ok := value(lines, name+"["+strconv.Itoa(i)+"]")
		if !ok {
			return vs
		}
		vs = append(vs, v)
	}
}

// param kinds of the required-parameter table.
const (
	hexP = iota // handle: hexadecimal
	decP        // decimal integer
	arrP        // array of decimals, at least one element
	sfxP        // the (AMView)/(DisArray) suffix
)

type req struct {
	name string
	kind int
	ret  bool // from the ret lines
}

// required lists, for every function the generator emits, the parameters
// docs/model.md §6.6 requires. A function missing here fails the check.
var required = map[string][]req{
	"begbl_": nil, "endbl_": nil, "biof_": nil, "eiof_": nil, "tstio_": nil, "dvm_void_printf": nil,
	"bsloop_": {{"nfrag", decP, false}},
	"bploop_": {{"nfrag", decP, false}},
	"enloop_": {{"nfrag", decP, false}, {"nline", decP, false}},
	"crtamv_": {{"AMRef", hexP, false}, {"StaticSign", decP, false}, {"Rank", decP, false},
		{"SizeArray", arrP, false}, {"AMViewRef", hexP, true}},
	"blkdiv_": {{"AMViewRef", hexP, false}, {"AMVAxisCount", decP, false}, {"AMVAxisDiv", arrP, false}},
	"distr_": {{"AMViewRef", hexP, false}, {"PSRef", hexP, false}, {"ParamCount", decP, false},
		{"AxisArray", arrP, false}, {"DistrParamArray", arrP, false}},
	"crtda_": {{"ArrayHeader", hexP, false}, {"Rank", decP, false}, {"TypeSize", decP, false},
		{"StaticSign", decP, false}, {"ReDistrSign", decP, false}, {"SizeArray", arrP, false},
		{"LowShdWidthArray", arrP, false}, {"HiShdWidthArray", arrP, false}, {"ArrayHandlePtr", hexP, true}},
	"align_": {{"ArrayHeader", hexP, false}, {"ArrayHandlePtr", hexP, false}, {"PatternRefPtr", hexP, false},
		{"PatternRef", hexP, false}, {"", sfxP, false}, {"AxisArray", arrP, false},
		{"CoeffArray", arrP, false}, {"ConstArray", arrP, false}},
	"crtpl_": {{"Rank", decP, false}, {"LoopRef", hexP, true}},
	"mappl_": {{"LoopRef", hexP, false}, {"PatternRefPtr", hexP, false}, {"PatternRef", hexP, false},
		{"", sfxP, false}, {"AxisArray", arrP, false}, {"CoeffArray", arrP, false},
		{"ConstArray", arrP, false}, {"InInitIndexArray", arrP, false},
		{"InLastIndexArray", arrP, false}, {"InStepArray", arrP, false}},
	"dopl_":   {{"LoopRef", hexP, false}, {"DoPL", decP, true}},
	"endpl_":  {{"LoopRef", hexP, false}},
	"crtrg_":  {{"RedGroupRef", hexP, true}},
	"crtred_": {{"RedArrayType", decP, false}, {"RedArrayLength", decP, false}, {"LocElmLength", decP, false}, {"RedRef", hexP, true}},
	"insred_": {{"RedGroupRef", hexP, false}, {"RedRef", hexP, false}},
	"strtrd_": {{"RedGroupRef", hexP, false}},
	"waitrd_": {{"RedGroupRef", hexP, false}},
	"delrg_":  {{"RedGroupRef", hexP, false}},
	"crtshg_": {{"StaticSign", decP, false}, {"ShadowGroupRef", hexP, true}},
	"inssh_": {{"ShadowGroupRef", hexP, false}, {"ArrayHeader", hexP, false}, {"ArrayHandlePtr", hexP, false},
		{"FullShdSign", decP, false}, {"LowShdWidthArray", arrP, false}, {"HiShdWidthArray", arrP, false}},
	"strtsh_": {{"ShadowGroupRef", hexP, false}},
	"waitsh_": {{"ShadowGroupRef", hexP, false}},
	"delshg_": {{"ShadowGroupRef", hexP, false}},
	"crtrbl_": {{"RemArrayHeader", hexP, false}, {"BufferHeader", hexP, false}, {"StaticSign", decP, false},
		{"LoopRef", hexP, false}, {"AxisArray", arrP, false}, {"CoeffArray", arrP, false}, {"ConstArray", arrP, false}},
	"loadrb_": {{"BufferHeader", hexP, false}, {"RenewSign", decP, false}},
	"waitrb_": {{"BufferHeader", hexP, false}},
	"arrcpy_": {{"FromArrayHeader", hexP, false}, {"FromArrayHandlePtr", hexP, false},
		{"FromInitIndexArray", arrP, false}, {"FromLastIndexArray", arrP, false},
		{"FromStepArray", arrP, false}, {"ToBufferPtr", hexP, false}, {"CopyRegim", decP, false}},
}

var (
	hexRE = regexp.MustCompile(`^[0-9a-f]+$`)
	decRE = regexp.MustCompile(`^-?[0-9]+$`)
)

// checkParams verifies that c carries every required parameter in the
// right notation.
func checkParams(c tcall) error {
	reqs, ok := required[c.fn]
	if !ok {
		return traceErr(c.at, "%s is not a function the checker knows", c.fn)
	}
	for _, r := range reqs {
		side := c.in
		if r.ret {
			side = c.out
		}
		switch r.kind {
		case sfxP:
			if !strings.Contains(c.inText, "(AMView)") && !strings.Contains(c.inText, "(DisArray)") {
				return traceErr(c.at, "%s: no (AMView)/(DisArray) suffix", c.fn)
			}
		case arrP:
			vs := array(side, r.name)
			if len(vs) == 0 {
				return traceErr(c.at, "%s: '%s' parameter missing", c.fn, r.name)
			}
			for _, v := range vs {
				if !decRE.MatchString(v) {
					return traceErr(c.at, "%s: %s element %q is not decimal", c.fn, r.name, v)
				}
			}
		default:
			v, ok := value(side, r.name)
			if !ok {
				return traceErr(c.at, "%s: '%s' parameter missing", c.fn, r.name)
			}
			re := decRE
			if r.kind == hexP {
				re = hexRE
			}
			if !re.MatchString(v) && v != "0" {
				return traceErr(c.at, "%s: %s=%q", c.fn, r.name, v)
			}
		}
	}
	return nil
}
