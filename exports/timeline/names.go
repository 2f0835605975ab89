package timeline

import (
	"github.com/presage-dvm/presage/sim/events"
	"github.com/presage-dvm/presage/sim/result"
)

// opNames name the operation classes of messages.
var opNames = [result.NumOpClasses]string{"I/O", "Reduction", "Shadow", "Remote access", "Redistribution"}

// OpName is the name of the operation that sent a message.
func OpName(op result.OpClass) string {
	if int(op) < len(opNames) {
		return opNames[op]
	}
	return "message"
}

// colors are the RGB colours of the states, shared by every format:
// computing green, I/O violet, communicating orange, collective red,
// waiting grey-blue, redundant (computing several processors repeat:
// insufficient parallelism) olive yellow.
var colors = [events.NumStates][3]uint8{
	{255, 255, 255},
	{46, 160, 67},
	{137, 87, 229},
	{240, 136, 62},
	{207, 34, 46},
	{110, 138, 170},
	{191, 160, 0},
}

// Color is the colour of a state as #rrggbb.
func Color(s events.State) string {
	c := colors[0]
	if s < events.NumStates {
		c = colors[s]
	}
	const hex = "0123456789abcdef"
	b := []byte{'#', 0, 0, 0, 0, 0, 0}
	for i, v := range c {
		b[1+2*i], b[2+2*i] = hex[v>>4], hex[v&15]
	}
	return string(b)
}

// States lists the states in their order.
func States() []events.State {
	s := make([]events.State, 0, events.NumStates-1)
	for x := events.State(1); x < events.NumStates; x++ {
		s = append(s, x)
	}
	return s
}
