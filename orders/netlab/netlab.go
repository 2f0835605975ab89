//go:build linux

package netlab

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"
)

// Link is what a link between the hub and a spoke does to a packet,
// each way: it holds it Delay, and sends at most Rate bits per second
// (0 for no limit).
type Link struct {
	Delay time.Duration
	Rate  float64
}

func (l Link) String() string {
	if l.Rate == 0 {
		return fmt.Sprintf("%v", l.Delay)
	}
	return fmt.Sprintf("%v, %g Mbit/s", l.Delay, l.Rate/1e6)
}

// Star is a hub and its spokes, each a network namespace, which
// Command runs programs in.
type Star struct {
	Hub    string   // the hub's namespace
	Spokes []string // the spokes' namespaces
	// Shaper says how the links are made: "netem" or "tun" (see the
	// package comment).
	Shaper string
	tuns   []*tunLink
}

// ErrNoNamespaces is returned by NewStar when this process may not make
// network namespaces (it is not root).
var ErrNoNamespaces = errors.New("netlab: cannot make network namespaces (root is needed)")

// NewStar makes a hub and n spokes joined by links like l.
func NewStar(n int, l Link) (*Star, error) {
	prefix := fmt.Sprintf("presage%d-", os.Getpid())
	s := &Star{Hub: prefix + "hub"}
	if err := ip("netns", "add", s.Hub); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoNamespaces, err)
	}
	if err := s.build(n, l, prefix); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

func (s *Star) build(n int, l Link, prefix string) error {
	if err := ip("-n", s.Hub, "link", "set", "lo", "up"); err != nil {
		return err
	}
	for i := range n {
		spoke := fmt.Sprintf("%sw%d", prefix, i)
		if err := ip("netns", "add", spoke); err != nil {
			return err
		}
		s.Spokes = append(s.Spokes, spoke)
		if err := ip("-n", spoke, "link", "set", "lo", "up"); err != nil {
			return err
		}
		if err := s.join(i, l); err != nil {
			return fmt.Errorf("netlab: link to spoke %d: %w", i, err)
		}
	}
	return nil
}

// join makes the link between the hub and spoke i: with netem, unless
// the kernel has none, in which case every link is a TUN pair.
func (s *Star) join(i int, l Link) error {
	hub, spoke := fmt.Sprintf("h%d", i), fmt.Sprintf("s%d", i)
	if s.Shaper == "" || s.Shaper == "netem" {
		err := s.joinNetem(i, hub, spoke, l)
		if err == nil {
			s.Shaper = "netem"
			return nil
		}
		if s.Shaper == "netem" || !errors.Is(err, errNoNetem) {
			return err
		}
		s.Shaper = "tun"
	}
	t, err := newTunLink(s.Hub, hub, s.Spokes[i], spoke, l)
	if err != nil {
		return err
	}
	s.tuns = append(s.tuns, t)
	return s.address(i, hub, spoke)
}

// HubAddr is the hub's address as spoke i reaches it.
func (s *Star) HubAddr(i int) string { return fmt.Sprintf("10.77.%d.1", i) }

// address numbers the ends of link i and brings them up.
func (s *Star) address(i int, hub, spoke string) error {
	ends := []struct{ ns, dev, local, peer string }{
		{s.Hub, hub, s.HubAddr(i), fmt.Sprintf("10.77.%d.2", i)},
		{s.Spokes[i], spoke, fmt.Sprintf("10.77.%d.2", i), s.HubAddr(i)},
	}
	for _, e := range ends {
		if err := ip("-n", e.ns, "addr", "add", e.local, "peer", e.peer, "dev", e.dev); err != nil {
			return err
		}
		if err := ip("-n", e.ns, "link", "set", e.dev, "mtu", fmt.Sprint(mtu), "up"); err != nil {
			return err
		}
	}
	return nil
}

// mtu is the links' MTU: jumbo frames, so that the user-space links carry
// a gigabit per second in few packets.
const mtu = 9000

// Command returns the command that runs name with args in namespace ns.
func (s *Star) Command(ns, name string, args ...string) *exec.Cmd {
	return exec.Command("ip", append([]string{"netns", "exec", ns, name}, args...)...)
}

// Close removes the namespaces and stops carrying packets.
func (s *Star) Close() error {
	var errs []error
	for _, t := range s.tuns {
		t.close()
	}
	for _, ns := range append([]string{s.Hub}, s.Spokes...) {
		errs = append(errs, ip("netns", "del", ns))
	}
	return errors.Join(errs...)
}

// ip runs the ip command.
func ip(args ...string) error { return run("ip", args...) }

func run(name string, args ...string) error {
	out, err := exec.Command(name, args...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s %s: %v: %s", name, strings.Join(args, " "), err, strings.TrimSpace(string(out)))
	}
	return nil
}
