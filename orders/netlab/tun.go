//go:build linux

package netlab

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"time"

	"golang.org/x/sys/unix"
)

// tunLink is a link made of two TUN devices, one in each namespace,
// whose packets it carries across, each way, as netem would: a packet
// leaves once the ones before it have been sent at the link's rate, and
// arrives the link's delay later. A full queue drops the packet, as
// netem's limit does.
type tunLink struct {
	ends [2]*os.File
}

// queuePackets is the packets a direction holds at most (netem's limit
// is 1,000 by default).
const queuePackets = 10000

func newTunLink(ns0, dev0, ns1, dev1 string, l Link) (*tunLink, error) {
	t := &tunLink{}
	for i, end := range [2][2]string{{ns0, dev0}, {ns1, dev1}} {
		f, err := openTun(end[0], end[1])
		if err != nil {
			t.close()
			return nil, err
		}
		t.ends[i] = f
	}
	go carry(t.ends[0], t.ends[1], l)
	go carry(t.ends[1], t.ends[0], l)
	return t, nil
}

func (t *tunLink) close() {
	for _, f := range t.ends {
		if f != nil {
			f.Close()
		}
	}
}

// packet is a packet on its way, due at the other end at due.
type packet struct {
	data []byte
	due  time.Time
}

// carry moves the packets from one end to the other until either is
// closed.
func carry(from, to *os.File, l Link) {
	q := make(chan packet, queuePackets)
	go deliver(q, to)
	defer close(q)
	var free time.Time // when the link has sent the packets it holds
	buf := make([]byte, 1<<16)
	for {
		n, err := from.Read(buf)
		if err != nil {
			return
		}
		free = later(time.Now(), free)
		if l.Rate > 0 {
			free = free.Add(time.Duration(float64(n) * 8 / l.Rate * 1e9))
		}
		select {
		case q <- packet{data: append([]byte(nil), buf[:n]...), due: free.Add(l.Delay)}:
		default: // the queue is full: dropped
		}
	}
}

// deliver writes each packet at the other end when it is due. It sleeps
// in nanosleep rather than time.Sleep, which rounds waits below a
// millisecond up to one.
func deliver(q <-chan packet, to *os.File) {
	for p := range q {
		if d := time.Until(p.due); d > 0 {
			ts := unix.NsecToTimespec(d.Nanoseconds())
			unix.Nanosleep(&ts, nil)
		}
		// The receiving kernel may refuse a packet (an IPv6 one it does
		// not route): the link has carried it all the same.
		if _, err := to.Write(p.data); errors.Is(err, os.ErrClosed) {
			for range q { // drain until the reader stops
			}
			return
		}
	}
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// openTun makes TUN device name in namespace ns and returns it open.
func openTun(ns, name string) (f *os.File, err error) {
	err = within(ns, func() error {
		f, err = makeTun(name)
		return err
	})
	return f, err
}

// within calls f on a thread in namespace ns: what f makes (a device, a
// socket) belongs there. A thread that cannot come back is left
// locked, and so ends with its goroutine.
func within(ns string, f func() error) error {
	done := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		err, back := withinLocked(ns, f)
		if back {
			runtime.UnlockOSThread()
		}
		done <- err
	}()
	return <-done
}

func withinLocked(ns string, f func() error) (err error, back bool) {
	home, err := unix.Open("/proc/thread-self/ns/net", unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return err, true
	}
	defer unix.Close(home)
	there, err := unix.Open("/run/netns/"+ns, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return err, true
	}
	defer unix.Close(there)
	if err := unix.Setns(there, unix.CLONE_NEWNET); err != nil {
		return fmt.Errorf("entering namespace %s: %w", ns, err), true
	}
	err = f()
	return err, unix.Setns(home, unix.CLONE_NEWNET) == nil
}

func makeTun(name string) (*os.File, error) {
	fd, err := unix.Open("/dev/net/tun", unix.O_RDWR|unix.O_CLOEXEC|unix.O_NONBLOCK, 0)
	if err != nil {
		return nil, fmt.Errorf("/dev/net/tun: %w", err)
	}
	ifr, err := unix.NewIfreq(name)
	if err == nil {
		ifr.SetUint16(unix.IFF_TUN | unix.IFF_NO_PI)
		err = unix.IoctlIfreq(fd, unix.TUNSETIFF, ifr)
	}
	if err != nil {
		unix.Close(fd)
		return nil, fmt.Errorf("making TUN device %s: %w", name, err)
	}
	return os.NewFile(uintptr(fd), name), nil
}
