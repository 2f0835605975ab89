package cluster

import (
	"context"
	"io"
	"os"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"

	"github.com/presage-dvm/presage/orders"
	"github.com/presage-dvm/presage/sim/machine"
)

func init() { orders.RegisterTransport(transport{}) }

// transport is the orders.Transport of this package: an embedded NATS
// server in the coordinator, which every worker process connects to.
type transport struct{}

func (transport) Join(_ context.Context, cfg orders.Config, lost func(error)) (orders.Conn, bool, error) {
	return join(cfg, lost)
}

// Listen starts the coordinator's NATS server as cfg's plan says (on
// loopback for workers it starts, on -orders.listen or Slurm's port for
// workers started elsewhere), requiring the run's token and, with a
// certificate, TLS, and connects the coordinator to it.
func (transport) Listen(_ context.Context, cfg orders.Config) (orders.Hub, error) {
	cfg, err := withCluster(cfg)
	if err != nil {
		return nil, err
	}
	p, err := planOf(cfg)
	if err != nil {
		return nil, err
	}
	g, made, err := guardOf(cfg, p)
	if err != nil {
		return nil, err
	}
	ns, err := startServer(p.listen, g, &refusals{w: os.Stderr})
	if err != nil {
		return nil, err
	}
	if !p.spawn {
		announce(os.Stderr, listening(p.listen, ns), p.procs, g, made)
	}
	// In process, the server offers TLS but does not require it.
	nc, err := nats.Connect(natsURL(ns.Addr().String()), nats.InProcessServer(ns), nats.Token(g.token), nats.Name("presage orders coordinator"))
	if err != nil {
		ns.Shutdown()
		return nil, err
	}
	return &hub{ns: ns, conn: newConn(nc), plan: p, token: g.token, cores: max(cfg.Cores, 1)}, nil
}

// WriteNetwork writes fit as a cluster description file
// (machine.WriteCluster): its nodes and cores, the transfer times at
// each size, which the simulator follows piece-wise, and the line through
// them; every transfer crosses the coordinator's server, the cluster's
// hub, which holds the share of it timed in streams; the runtime's own
// cost per order and per wait on the workers; and the orders it starts
// ahead on a busy core.
func (transport) WriteNetwork(w io.Writer, fit *orders.NetworkFit) error {
	cl := machine.Cluster{Nodes: fit.Nodes, Cores: fit.Cores, Latency: fit.Latency, Bandwidth: fit.Bandwidth, Hub: true,
		OrderCost: fit.OrderCost, WaitCost: fit.WaitCost, Ahead: fit.Ahead, AheadMax: fit.AheadMax}
	for _, p := range fit.Points {
		cl.Messages = append(cl.Messages, machine.MessagePoint{Bytes: p.Bytes, Seconds: p.Seconds})
	}
	for _, p := range fit.Relay {
		cl.Relay = append(cl.Relay, machine.MessagePoint{Bytes: p.Bytes, Seconds: p.Seconds})
	}
	return machine.WriteCluster(w, cl)
}

// hub is the coordinator's end of a run: its NATS server and
// connection, and the worker processes it started, if any.
type hub struct {
	ns      *server.Server
	conn    conn
	plan    plan
	token   string
	cores   int
	workers *spawned // nil when the workers were started elsewhere
	// unshare gives the coordinator back its cores when the workers it
	// started end (shareCores).
	unshare func()
}

func (h *hub) Conn() orders.Conn { return h.conn }

func (h *hub) Workers() (procs, cores int) { return h.plan.procs, h.cores }

// Start starts the plan's worker processes on this machine, when it
// starts them: copies of this program, joining with the run's token.
func (h *hub) Start(exited chan<- orders.Exit) error {
	if !h.plan.spawn {
		return nil
	}
	var err error
	h.workers, err = spawn(h.plan.procs, h.cores, natsURL(h.ns.Addr().String()), h.token, exited)
	if err == nil {
		h.unshare = shareCores(h.plan.procs, h.cores)
	}
	return err
}

// Close waits a little for the workers to leave (it stops those it
// started), then closes the connection and stops the server.
func (h *hub) Close() {
	if h.workers != nil {
		h.workers.stop()
		if h.unshare != nil {
			h.unshare()
		}
	} else {
		waitForClients(h.ns, 1, 5*time.Second)
	}
	h.conn.Close()
	h.ns.Shutdown()
}
