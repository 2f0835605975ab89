//go:build !unix

package orders

import "time"

// processCPU cannot read the process's CPU time on this system: network
// mode then leaves the runtime's costs to the trace (probeRuntime).
func processCPU() (time.Duration, bool) { return 0, false }
