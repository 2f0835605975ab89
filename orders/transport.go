package orders

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
)

// A run in worker processes (Config.Procs, Listen, Join, Slurm,
// Cluster) is this package's coordinator and its worker processes (the
// runtime: which order runs on which core, results, failures, lost
// workers), joined by a Transport (the processes and their connections:
// starting the workers or awaiting them, Slurm, the run's token and TLS,
// the message server). The module's transport is package orders/cluster,
// over NATS; a program gets it by importing that package, which
// registers it:
//
//	import _ "github.com/presage-dvm/presage/orders/cluster"
//
// A program that does not import it links nothing of the network, and a
// run that asks for worker processes fails at once, saying so.

// Transport joins the coordinator of a run in worker processes and its
// workers. RegisterTransport makes it the one Run uses.
type Transport interface {
	// Listen starts the coordinator's end of a run of cfg in worker
	// processes, before any worker is started: the coordinator
	// subscribes, then calls Hub.Start.
	Listen(ctx context.Context, cfg Config) (Hub, error)
	// Join connects this process to its coordinator when cfg (or the
	// environment its coordinator started it with) makes it a worker
	// process of a run; it returns a nil Conn when it is not one. lost
	// is called when the connection is lost for good. spawned says that
	// the coordinator started this process: it prints the run's errors
	// itself.
	Join(ctx context.Context, cfg Config, lost func(error)) (c Conn, spawned bool, err error)
	// WriteNetwork writes what ModeNetwork measured to w, as the
	// cluster description file the simulator reads and Config.Cluster
	// names.
	WriteNetwork(w io.Writer, fit *NetworkFit) error
}

// Hub is the coordinator's end of a run in worker processes.
type Hub interface {
	// Conn is the coordinator's connection.
	Conn() Conn
	// Workers returns how many worker processes join the run and how
	// many orders each runs at once.
	Workers() (procs, cores int)
	// Start starts the worker processes, when the transport starts
	// them itself (nothing when they are started elsewhere), and sends
	// on exited each one that ends before Close; exited has room for
	// one Exit per process.
	Start(exited chan<- Exit) error
	// Close ends the run's end of the transport, after the coordinator
	// told the workers that the run ended: it waits a little for them
	// to leave, stops those it started that do not, and closes the
	// connection. No worker it started outlives it.
	Close()
}

// Exit is a worker process, started by the transport, that ended.
type Exit struct {
	PID int
	Err error // why, as the process's end reads ("exit status 1")
}

// Conn carries the messages of a run between its coordinator and its
// workers, by subject.
type Conn interface {
	// Publish sends m to the subscribers of m.Subject.
	Publish(m *Message) error
	// Request sends m with a Reply subject of its own and returns the
	// first reply, or ctx's error; it returns an error wrapping
	// ErrNoResponders when nobody subscribes m.Subject.
	Request(ctx context.Context, m *Message) (*Message, error)
	// Subscribe calls handle with every message sent to subject, one at
	// a time, in the order they were sent, never dropping one (results
	// and arguments may be megabytes each); a subject ending in ".*"
	// also matches any one more token. unsubscribe stops it.
	Subscribe(subject string, handle func(*Message)) (unsubscribe func() error, err error)
	// NewInbox returns a subject of this connection's own, for its
	// Subscribe.
	NewInbox() string
	// Flush returns once the messages published so far have left.
	Flush() error
	// Close closes the connection.
	Close()
}

// Message is what a Conn carries: data (an order's encoded arguments or
// result, as they are) and, in Header, what it is about.
type Message struct {
	Subject string
	// Reply is where a reply goes: set by Request, and by the
	// transport on the request its subscriber receives.
	Reply  string
	Header map[string]string
	Data   []byte
}

// ErrNoResponders is what a Conn's Request wraps when nobody subscribes
// its subject.
var ErrNoResponders = errors.New("no subscriber for the subject")

// transport is the registered Transport, nil until a package registers
// one.
var transport struct {
	mu sync.Mutex
	t  Transport
}

// RegisterTransport makes t the way Run reaches worker processes;
// package orders/cluster calls it when it is imported. A second call
// replaces the first.
func RegisterTransport(t Transport) {
	transport.mu.Lock()
	defer transport.mu.Unlock()
	transport.t = t
}

// registered returns the registered Transport, or the error that says
// how to get one, naming the flag of cfg that asked for worker
// processes.
func registered(cfg Config) (Transport, error) {
	transport.mu.Lock()
	defer transport.mu.Unlock()
	if transport.t != nil {
		return transport.t, nil
	}
	return nil, fmt.Errorf("orders: %s runs orders in worker processes, which this program cannot: it must import _ \"github.com/presage-dvm/presage/orders/cluster\"", cfg.clusterFlag())
}

// inProcesses reports whether cfg asks for a run in worker processes,
// as their coordinator or as one of them.
func (c Config) inProcesses() bool {
	return c.clusterFlag() != ""
}

// clusterFlag names the first setting of c that asks for worker
// processes, "" when none does.
func (c Config) clusterFlag() string {
	switch {
	case c.Procs > 0:
		return "-orders.procs"
	case c.Slurm:
		return "-orders.slurm"
	case c.Join != "":
		return "-orders.join"
	case c.Listen != "":
		return "-orders.listen"
	case c.Cluster != "":
		return "-orders.cluster"
	}
	return ""
}
