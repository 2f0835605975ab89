package sim

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/sim/result"
	"github.com/presage-dvm/presage/sim/trace"
)

// TestIOByte checks the extended model's I/O copy time
// (machine.Machine.IOByte, a machine file's iobyte statement): an I/O
// statement's copy of a distributed array section into its buffer costs
// the I/O processor that time per byte of the section, as I/O time, and
// the other processor waits for it, as I/O communication, so Main grows by
// exactly it; the same copy outside an I/O statement is not charged;
// without the statement nothing changes (the original's model).
func TestIOByte(t *testing.T) {
	const copyWhole = "FromArrayHeader=b1; FromArrayHandlePtr=b2; ToBufferPtr=f1; CopyRegim=2;\nFromInitIndexArray[0]=-1;\nFromLastIndexArray[0]=7;\nFromStepArray[0]=1;"
	const copyHalf = "FromArrayHeader=b1; FromArrayHandlePtr=b2; ToBufferPtr=f1; CopyRegim=2;\nFromInitIndexArray[0]=2;\nFromLastIndexArray[0]=5;\nFromStepArray[0]=1;"
	inIO := append(setup(),
		call(20, "biof_", 0.001, 0, "", ""),
		call(21, "arrcpy_", 0.001, 0.0001, copyWhole, "Res=8;"),
		call(22, "arrcpy_", 0.001, 0.0001, copyHalf, "Res=4;"),
		call(23, "eiof_", 0.001, 0, "", ""),
	)
	outside := append(setup(), call(21, "arrcpy_", 0.001, 0.0001, copyWhole, "Res=8;"))
	h := &trace.Header{RootLine: 1, RootFile: "c.cdv"}
	predict := func(calls []*trace.Call, text string) result.Values {
		run, err := Predict(h, trace.NewSliceSource(calls), parseMachine(t, text), result.Config{Grid: []int{2}}, Options{TraceFile: "c.ptr"})
		if err != nil {
			t.Fatal(err)
		}
		return run.Interval(run.ReportRoot).Values
	}
	const ioByte = 500e-9     // iobyte = 500 (ns), the statement's unit
	const bytes = (8 + 4) * 8 // the whole array and half of it, 8 bytes an element
	without, with := predict(inIO, twoProcs), predict(inIO, twoProcs+"iobyte = 500;\n")
	for _, c := range []struct {
		char result.Char
		grow float64
	}{
		{result.ExecutionTime, ioByte * bytes},
		{result.IOTime, ioByte * bytes},        // the I/O processor's
		{result.Communication, ioByte * bytes}, // the other one's wait
		{result.CPUTimeUsr, 0},
		{result.CPUTimeSys, 0},
		{result.InsuffParallelism, 0},
		{result.Synchronization, 0},
	} {
		// Exact but for the float32 rounding of the clocks a remote copy
		// starts from (the original's model, engine's cost.go): the
		// copies start 48 µs later here, a rounding 6e-12 s apart. One
		// byte more or less would be 5e-7 s.
		if got := with[c.char] - without[c.char]; math.Abs(got-c.grow) > 1e-10 {
			t.Errorf("%s grows by %.12g with the I/O copy time, want %g", c.char, got, c.grow)
		}
	}
	if got := predict(inIO, twoProcs+"iobyte = 0;\n"); got != without {
		t.Errorf("iobyte = 0 changes the prediction: %v, want %v", got, without)
	}
	if a, b := predict(outside, twoProcs), predict(outside, twoProcs+"iobyte = 500;\n"); a != b {
		t.Errorf("a copy outside an I/O statement is charged the I/O copy time: %v, want %v", b, a)
	}
}

// TestFreshPage checks the extended model's fresh page time
// (machine.Machine.FreshPage, a machine file's freshpage statement): an
// I/O statement's copy of a distributed array's section costs the pages
// each process's transfer buffer grows by: the parts the other
// processors send, packed at once, then received by the I/O processor.
// A buffer keeps its pages, so a later copy of no larger part, or a
// later statement, costs nothing; on one processor there is nothing to
// send; without the statement nothing changes.
func TestFreshPage(t *testing.T) {
	// 4,096 doubles, 32 KB: 16 KB a processor on 2, 8 KB on 4.
	sized := setup()
	sized[0] = call(10, "crtamv_", 0, 0, "AMRef=0; Rank=1; StaticSign=0;\nSizeArray[0]=4096;", "AMViewRef=a1;")
	sized[3] = call(13, "crtda_", 0, 0, "ArrayHeader=b1; Rank=1; TypeSize=8; StaticSign=0; ReDistrSign=0;\nSizeArray[0]=4096;\nLowShdWidthArray[0]=1;\nHiShdWidthArray[0]=1;", "ArrayHandlePtr=b2;")
	const copyWhole = "FromArrayHeader=b1; FromArrayHandlePtr=b2; ToBufferPtr=f1; CopyRegim=2;\nFromInitIndexArray[0]=-1;\nFromLastIndexArray[0]=4095;\nFromStepArray[0]=1;"
	const copyMiddle = "FromArrayHeader=b1; FromArrayHandlePtr=b2; ToBufferPtr=f1; CopyRegim=2;\nFromInitIndexArray[0]=1024;\nFromLastIndexArray[0]=3071;\nFromStepArray[0]=1;"
	write := func(line int, copies ...string) []*trace.Call {
		calls := []*trace.Call{call(line, "biof_", 0.001, 0, "", "")}
		for i, c := range copies {
			calls = append(calls, call(line+1+i, "arrcpy_", 0.001, 0.0001, c, "Res=8;"))
		}
		return append(calls, call(line+1+len(copies), "eiof_", 0.001, 0, "", ""))
	}
	// Two statements, the first copying the whole array then its middle
	// half, the second the whole array again; on 4 processors a statement
	// of one copy (there, the original's cost of a later remote copy in
	// the statement waits for the I/O processor's clock, and takes up
	// what was charged before it).
	twoWrites := append(append(slices.Clone(sized), write(20, copyWhole, copyMiddle)...), write(30, copyWhole)...)
	oneWrite := append(slices.Clone(sized), write(20, copyWhole)...)
	outside := append(slices.Clone(sized), call(21, "arrcpy_", 0.001, 0.0001, copyWhole, "Res=8;"))
	h := &trace.Header{RootLine: 1, RootFile: "c.cdv"}
	predict := func(calls []*trace.Call, text string, procs int) result.Values {
		run, err := Predict(h, trace.NewSliceSource(calls), parseMachine(t, text), result.Config{Grid: []int{procs}}, Options{TraceFile: "c.ptr"})
		if err != nil {
			t.Fatal(err)
		}
		return run.Interval(run.ReportRoot).Values
	}
	const freshPage = 2e-6 // freshpage = 2 (µs), the statement's unit
	fourProcs := strings.Replace(twoProcs, "{2 x p}", "{4 x p}", 1)
	for _, c := range []struct {
		calls []*trace.Call
		procs int
		pages float64 // the most a sender grows by, and the I/O processor
	}{
		{twoWrites, 1, 0},     // nothing sent
		{twoWrites, 2, 4 + 4}, // 16 KB from processor 1; the middle half's 8 KB and the second statement fit
		{oneWrite, 4, 2 + 2},  // 8 KB from each of processors 1–3, at once; the I/O processor's buffer takes the largest
	} {
		without := predict(c.calls, fourProcs, c.procs)
		with := predict(c.calls, fourProcs+"freshpage = 2;\n", c.procs)
		for _, g := range []struct {
			char result.Char
			grow float64
		}{
			{result.ExecutionTime, freshPage * c.pages},
			{result.IOTime, freshPage * c.pages},
			{result.Communication, freshPage * c.pages * float64(c.procs-1)},
			{result.CPUTimeUsr, 0},
			{result.Synchronization, 0},
		} {
			if got := with[g.char] - without[g.char]; math.Abs(got-g.grow) > 1e-10 {
				t.Errorf("%d processors: %s grows by %.12g with the fresh page time, want %g", c.procs, g.char, got, g.grow)
			}
		}
	}
	if a, b := predict(outside, fourProcs, 2), predict(outside, fourProcs+"freshpage = 2;\n", 2); a != b {
		t.Errorf("a copy outside an I/O statement is charged the fresh page time: %v, want %v", b, a)
	}
}
