//go:build linux

package netlab

import (
	"errors"
	"io"
	"net"
	"os"
	"testing"
	"time"
)

// star builds a star for a test. The tests time real transfers, so they
// run only alone on the machine, with PRESAGE_NETWORK=1 (as CI does, in
// a step of their own); they skip where namespaces cannot be made,
// except under CI, where they must.
func star(t *testing.T, n int, l Link) *Star {
	t.Helper()
	if os.Getenv("PRESAGE_NETWORK") == "" {
		t.Skip("times real transfers: run it alone with PRESAGE_NETWORK=1 (CI does, in its own step)")
	}
	s, err := NewStar(n, l)
	if errors.Is(err, ErrNoNamespaces) && os.Getenv("CI") != "true" {
		t.Skipf("%v: the network tests need root", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Error(err)
		}
	})
	return s
}

// A link holds each packet its delay and carries its rate: a round trip
// of a byte takes twice the delay, and 4 MB there and back take their
// size at the rate.
func TestLinkHasItsDelayAndRate(t *testing.T) {
	l := Link{Delay: 2 * time.Millisecond, Rate: 100e6}
	s := star(t, 1, l)
	t.Logf("links by %s", s.Shaper)
	var ln net.Listener
	if err := within(s.Hub, func() (err error) {
		ln, err = net.Listen("tcp", s.HubAddr(0)+":0")
		return err
	}); err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go echoAll(ln)
	var c net.Conn
	if err := within(s.Spokes[0], func() (err error) {
		c, err = net.Dial("tcp", ln.Addr().String())
		return err
	}); err != nil {
		t.Fatal(err)
	}
	defer c.Close()

	best := time.Hour
	one := make([]byte, 1)
	for range 10 {
		start := time.Now()
		if _, err := c.Write(one); err != nil {
			t.Fatal(err)
		}
		if _, err := io.ReadFull(c, one); err != nil {
			t.Fatal(err)
		}
		best = min(best, time.Since(start))
	}
	if lo, hi := 2*l.Delay, 2*l.Delay+2*time.Millisecond; best < lo || best > hi {
		t.Errorf("round trip of a byte in %v, want %v to %v", best, lo, hi)
	}

	// The rate is the best of three transfers, as the round trip is the
	// best of ten: the shaper is a program on the host, and a busy moment
	// of the host slows one transfer, not the link.
	const size = 4 << 20
	rate := 0.0
	for range 3 {
		start := time.Now()
		go c.Write(make([]byte, size))
		if _, err := io.ReadFull(c, make([]byte, size)); err != nil {
			t.Fatal(err)
		}
		rate = max(rate, size*8/time.Since(start).Seconds())
	}
	if rate < 0.6*l.Rate || rate > 1.05*l.Rate {
		t.Errorf("4 MB there and back at %.1f Mbit/s, want about %g", rate/1e6, l.Rate/1e6)
	}
	t.Logf("round trip %v, %.1f Mbit/s", best, rate/1e6)
}

func echoAll(ln net.Listener) {
	c, err := ln.Accept()
	if err != nil {
		return
	}
	defer c.Close()
	io.Copy(c, c)
}
