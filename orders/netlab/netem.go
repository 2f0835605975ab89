//go:build linux

package netlab

import (
	"errors"
	"fmt"
	"strings"
)

// errNoNetem is returned by joinNetem when the kernel has no netem.
var errNoNetem = errors.New("the kernel has no netem")

// joinNetem makes link i a veth pair from the hub to the spoke, shaped
// at both ends by netem.
func (s *Star) joinNetem(i int, hub, spoke string, l Link) error {
	if err := ip("-n", s.Hub, "link", "add", hub, "type", "veth", "peer", "name", spoke, "netns", s.Spokes[i]); err != nil {
		return err
	}
	shape := []string{"qdisc", "add", "dev", hub, "root", "netem", "delay", fmt.Sprintf("%dus", l.Delay.Microseconds()), "limit", "10000"}
	if l.Rate > 0 {
		shape = append(shape, "rate", fmt.Sprintf("%dbit", int64(l.Rate)))
	}
	if err := run("tc", append([]string{"-n", s.Hub}, shape...)...); err != nil {
		ip("-n", s.Hub, "link", "del", hub)
		if strings.Contains(err.Error(), "qdisc kind is unknown") {
			return fmt.Errorf("%w: %v", errNoNetem, err)
		}
		return err
	}
	shape[3] = spoke
	if err := run("tc", append([]string{"-n", s.Spokes[i]}, shape...)...); err != nil {
		return err
	}
	return s.address(i, hub, spoke)
}
