package tracegen

import "strconv"

// preamble is the header of a one-processor run of RTS 2889 up to the
// start-up barrier, as the merge leaves it (leading blanks and blank lines
// stripped).
const preamble = `RTS VERSION = 2889
syspar   file version = 2889 (min vers = 2889)
sysdebug file version = 2889 (min vers = 2889)
systrace file version = 2889 (min vers = 2889)
trcevent file version = 2889 (min vers = 2889)
usrdebug file version = 2889 (min vers = 2889)
statist  file version = 2889 (min vers = 2889)
ProcCount=1  HasCurrent=1  CentralProc=0  IOProc=0
ProcPowerMeasuring:  PPMeasureCount=100000  PPMeasureTime=0.000360
Applied processes number = 1     Input/output processes number = 0
Applied:                         Input/output:
N     IN     NAME              N  IN     NAME
0_0    0      vm                -
ProcCount=1;      PSRank=4;      PSSize= 1 1 1 1;
VProcCount=0;
MasterProc=0(0);   IOProc=0(0);   CentralProc=0(0);   MeanProcTime=0.000360;
IntProcNumber  ExtProcNumber  ProcIdent  ProcWeight
0              0            0        1.00
CoordWeight[0]= 1.00(1.00)  
CoordWeight[1]= 1.00(1.00)  
CoordWeight[2]= 1.00(1.00)  
CoordWeight[3]= 1.00(1.00)  
MaxMsgLength  MsgBufLength  MsgBuf1Length  MaxMsgSendNumber  ChanNumber  Dupl
0             0             0                0           0       0
0
MPS=MPI;  Non-standard run;
`

// versions is the version block the run-time system prints at exit.
const versions = `RTS VERSION = 2889

syspar   file version = 2889 (min vers = 2889)
sysdebug file version = 2889 (min vers = 2889)
systrace file version = 2889 (min vers = 2889)
trcevent file version = 2889 (min vers = 2889)
usrdebug file version = 2889 (min vers = 2889)
statist  file version = 2889 (min vers = 2889)

`

// header writes the preamble through ret_dvm_Init; line is the source
// line of the program's start.
func (e *emitter) header(line int) {
	e.text(preamble)
	e.b = appendEvent(e.b, "call_", "mps_Barrier", e.clk.near(170_000, 20), line, e.file)
	e.b = appendEvent(e.b, "ret_", "mps_Barrier", 100, line, e.file)
	e.line("Tm=0.000000  Tirecv=0.000001  Twrecv=0.000001")
	e.b = appendEvent(e.b, "ret_", "dvm_Init", e.clk.near(20_000, 30), line, e.file)
}

// exit writes Event_dvm_exit and the tail the merge copies verbatim from
// the run-time system's file: the last printf, the version block and the
// run's totals.
func (e *emitter) exit(line int) {
	t := e.clk.near(20_000, 50)
	e.user += t
	e.b = appendEvent(e.b, "Event_", "dvm_exit", t, line, e.file)
	e.line("rc=0;")
	e.b = appendEvent(e.b, "call_", "dvm_void_printf", e.clk.near(1000, 20), line, e.file)
	e.text("Format= \n\n")
	e.b = appendEvent(e.b, "ret_", "dvm_void_printf", e.clk.near(3500, 20), line, e.file)
	e.text(" \n\n")
	e.text(versions)
	e.text("DACount=       0; DVMObjCount=       0;\n")
	// Tracing costs the run about two microseconds per call.
	overhead := ticks(e.calls) * 200
	e.text("    TaskTime=")
	e.b = appendSeconds6(e.b, e.user)
	e.text(";   TaskTraceTime=")
	e.b = appendSeconds6(e.b, e.user+overhead)
	e.text(";\n  SystemTime=")
	e.b = appendSeconds6(e.b, e.sys)
	e.text("; SystemTraceTime=")
	e.b = appendSeconds6(e.b, e.sys+overhead)
	e.text(";\n")
}

// appendSeconds6 appends t in seconds with 6 decimals (%f), rounded.
func appendSeconds6(b []byte, t ticks) []byte {
	us := (int64(t) + 50) / 100
	b = strconv.AppendInt(b, us/1_000_000, 10)
	b = append(b, '.')
	f := us % 1_000_000
	var d [6]byte
	for i := 5; i >= 0; i-- {
		d[i] = byte('0' + f%10)
		f /= 10
	}
	return append(b, d[:]...)
}
