package machine

import "fmt"

// The physical ranges of a machine's parameters: the one place that says
// what a processor's power, a message's start-up time and a time per
// byte may be, for the machine files, the command-line overrides, the
// sweep definitions and the clusters of the orders simulator alike. A
// value outside its range is refused with its unit, never clamped: an
// infinite start-up time overflows the times it is added to (a NaN that
// the store refuses), and a power far above the traced processor's makes
// the one time the model leaves unscaled by power, the system
// insufficient parallelism of dopl_ (docs/model.md §5.8), outweigh the
// CPU time it is part of, so that productive time and efficiency go
// negative (at power 1000 on 4 processors for jac). Within the range the
// model is the original's: its own reports show a negative productive
// time in some intervals at power 2 on 64 processors.
var (
	// PowerRange is a processor's relative power: the traced processor's
	// speed is 1, and every traced time is divided by the power.
	PowerRange = Range{Name: "power", Min: 1e-3, Max: 100, Unit: "times the traced processor's speed"}
	// TStartRange is a message's start-up time (the DVM's TStart, the
	// orders simulator's latency), in seconds.
	TStartRange = Range{Name: "message start-up time", Min: 0, Max: 10, Unit: "seconds"}
	// TByteRange is the time a message takes per byte (the DVM's
	// TByte, the inverse of the orders simulator's bandwidth), in seconds.
	TByteRange = Range{Name: "time per byte", Min: 0, Max: 1, Unit: "seconds per byte"}
	// RunWorkRange is the extended model's run work per process
	// (Machine.RunWork): a run-time starts and finishes a process in
	// milliseconds; a minute is far beyond any.
	RunWorkRange = Range{Name: "run work", Min: 0, Max: 60, Unit: "seconds"}
	// IOByteRange is the extended model's I/O copy time per byte
	// (Machine.IOByte): copying memory costs a fraction of a nanosecond
	// a byte; a microsecond is a disk far slower than any.
	IOByteRange = Range{Name: "I/O copy time", Min: 0, Max: 1e-6, Unit: "seconds per byte"}
	// ContentionRange is the extended model's node contention
	// (Machine.Contention): a busy neighbour that doubles a core's time
	// is far beyond what sharing a node's memory costs.
	ContentionRange = Range{Name: "node contention", Min: 0, Max: 1, Unit: "a fraction of a processor's work per busy neighbour"}
	// StridedRange is the extended model's strided iteration time
	// (Machine.Strided): a wait on memory for every iteration costs about
	// a tenth of a microsecond; a microsecond is far beyond any.
	StridedRange = Range{Name: "strided iteration time", Min: 0, Max: 1e-6, Unit: "seconds per iteration"}
	// FreshPageRange is the extended model's fresh page time
	// (Machine.FreshPage): a page fault costs a fraction of a microsecond
	// on a bare host and 2–15 µs on the virtual machines measured here; a
	// millisecond is far beyond any.
	FreshPageRange = Range{Name: "fresh page time", Min: 0, Max: 1e-3, Unit: "seconds per page"}
	// DurationRange is a measured or traced duration (an order's work, a
	// stretch of a measured run), in seconds: the sum of a billion of
	// them stays finite.
	DurationRange = Range{Name: "duration", Min: 0, Max: 1e9, Unit: "seconds"}
)

// Range is the closed interval [Min, Max] of a physical quantity, in
// Unit. The lower bound of a quantity that must be positive (a power) is
// above 0; a start-up time or a time per byte may be 0 (a free network).
type Range struct {
	Name     string
	Min, Max float64
	Unit     string
}

// Contains reports whether v is a finite number in the range.
func (r Range) Contains(v float64) bool { return v >= r.Min && v <= r.Max }

// Check returns an error naming v, the quantity and its range with the
// unit when v is not in the range (NaN and the infinities never are).
func (r Range) Check(v float64) error {
	if r.Contains(v) {
		return nil
	}
	return fmt.Errorf("%s %v: %s", r.Name, v, r.Want(1, r.Unit))
}

// Want says what a value must be, in a unit per times smaller than the
// range's own (1e6 for microseconds of a range in seconds): "expected a
// number of microseconds from 0 to 1e+07".
func (r Range) Want(per float64, unit string) string {
	return fmt.Sprintf("expected a number of %s from %.12g to %.12g", unit, r.Min*per, r.Max*per)
}
