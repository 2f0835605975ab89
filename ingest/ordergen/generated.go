package ordergen

import (
	"bytes"
	"encoding/json"

	"github.com/presage-dvm/presage/sim/ordertrace"
)

// Generated reports whether head, the first bytes of an order trace, is
// of a trace this package wrote: an order trace header without the
// creation time and the calibration machine that a recorded trace
// (orders' record mode) always carries.
func Generated(head []byte) bool {
	line, _, complete := bytes.Cut(head, []byte("\n"))
	if !complete {
		return false
	}
	var h ordertrace.Header
	if err := json.Unmarshal(line, &h); err != nil {
		return false
	}
	return h.Format == ordertrace.Format && h.Created == "" && h.Machine == ""
}
