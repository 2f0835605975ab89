package sim

import (
	"math"
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
