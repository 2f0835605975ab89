// Package trace holds the typed form of a Lib-DVM trace of a one-processor
// run, as the simulator consumes it: the header, the traced run-time calls
// with their times, source positions and parameters, and Source, the
// stream of calls. The readers (ingest/ptr) parse files into these types and
// the store streams stored traces as them; what the calls mean is the
// simulator's business.
package trace

// Header is the preamble of a trace: everything before the first call that
// follows ret_dvm_Init (docs/model.md §9.5).
type Header struct {
	RTSVersion string   // "2889" from "RTS VERSION = 2889"
	ProcCount  int      // ProcCount= of the traced run
	VProcCount int      // VProcCount= (required)
	VPSRank    int      // VPSRank= when VProcCount != 0
	VPSSize    []int    // VPSSize= when VProcCount != 0
	Lines      []string // the preamble, verbatim
	// RootLine and RootFile are LINE= and FILE= of the first function line
	// of the file: the source position of the Main interval.
	RootLine int
	RootFile string
}

// Param is one `Name=value` or `Name[i]=value` token of a parameter line.
type Param struct {
	Name  string
	Index int    // -1 for a scalar, i for Name[i]
	Value string // the text after '=', without a trailing ';'
}

// Params are the parameters of one side (call or return) of a traced call,
// in the order written.
type Params []Param

// Call is one traced run-time call: call line, its parameter lines, return
// line, its parameter lines.
type Call struct {
	Func      string  // function name without prefix, e.g. "crtda_", "dvm_fopen"
	CallTime  float64 // TIME= of the call line: user time since the previous return (s)
	RetTime   float64 // TIME= of the ret line: time inside the run-time function (s)
	Line      int     // LINE= of the call line (user source line)
	File      string  // FILE= of the call line
	TraceLine int     // 1-based line number of the call line in the trace file
	In        Params  // parameters of the call lines
	Out       Params  // parameters of the return lines
	// Pattern is "AMView" or "DisArray" when a call parameter line carries
	// that suffix (as PatternRef=... (AMView) does), else "".
	Pattern string
	// InText and OutText are the parameter lines verbatim, newline-separated
	// (what the store keeps).
	InText, OutText string
	// Shape, when not 0, names the call's shape within the Source it came
	// from: calls of one Source with the same Shape differ only in their
	// times and trace line (a stored trace's pack numbers its shapes so,
	// and the store's pack writer sets it on each call it packs). The
	// simulator's compiler then finds the call's parsed form by this
	// number instead of hashing its texts. 0: not known.
	Shape int
}
