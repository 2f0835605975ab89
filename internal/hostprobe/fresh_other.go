//go:build !linux

package hostprobe

import (
	"fmt"
	"runtime"
	"time"
)

// touchFresh is not measured beyond Linux: give the fresh page time
// instead (presage reality --fresh-page).
func touchFresh(int) (time.Duration, error) {
	return 0, fmt.Errorf("not measured on %s: give it (in µs per page)", runtime.GOOS)
}
