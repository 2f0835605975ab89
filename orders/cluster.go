package orders

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"

	"github.com/presage-dvm/presage/orders/measured"
	"github.com/presage-dvm/presage/sim/machine"
)

// joinEnv is how a coordinator tells the worker processes it starts
// where to join it.
const joinEnv = "PRESAGE_ORDERS_JOIN"

// maxMessage is the largest message: an order's encoded arguments or
// result (NATS's own limit).
const maxMessage = 64 << 20

// distributed reports whether the run uses worker processes.
func (c Config) distributed() bool { return c.Procs > 0 || c.Slurm }

// withCluster returns c with Procs and Cores, where they are 0, from its
// Cluster file.
func (c Config) withCluster() (Config, error) {
	if c.Cluster == "" {
		return c, nil
	}
	cl, err := machine.ReadClusterFile(c.Cluster)
	if err != nil {
		return c, fmt.Errorf("orders: -orders.cluster: %w", err)
	}
	c.Procs, c.Cores = cmp.Or(c.Procs, cl.Nodes), cmp.Or(c.Cores, cl.Cores)
	return c, nil
}

// cores is the number of orders each worker process runs at once.
func (c Config) cores() int { return max(c.Cores, 1) }

// joinURL returns the coordinator a worker process joins, "" when this
// process is not a worker.
func (c Config) joinURL() (string, error) {
	if c.Join != "" {
		return natsURL(c.Join), nil
	}
	if u := os.Getenv(joinEnv); u != "" {
		return u, nil
	}
	if c.Slurm {
		s, err := slurmStep()
		if err != nil || s.task == 0 {
			return "", err
		}
		return natsURL(net.JoinHostPort(s.firstHost, strconv.Itoa(s.port()))), nil
	}
	return "", nil
}

func natsURL(addr string) string {
	if strings.Contains(addr, "://") {
		return addr
	}
	return "nats://" + addr
}

// plan says how the coordinator gets its workers: procs of them, started
// here unless they join at listen.
type plan struct {
	procs  int
	listen string // host:port; "" to start the workers here, on loopback
	spawn  bool
}

func (c Config) plan() (plan, error) {
	if c.Slurm {
		s, err := slurmStep()
		if err != nil {
			return plan{}, err
		}
		if s.tasks < 2 {
			return plan{}, errors.New("orders: -orders.slurm needs at least 2 tasks (srun -n N, N ≥ 2: task 0 coordinates, the others work)")
		}
		return plan{procs: s.tasks - 1, listen: net.JoinHostPort("0.0.0.0", strconv.Itoa(s.port()))}, nil
	}
	if c.Procs < 1 {
		return plan{}, fmt.Errorf("orders: %d worker processes (expected at least 1)", c.Procs)
	}
	return plan{procs: c.Procs, listen: c.Listen, spawn: c.Listen == ""}, nil
}

// startServer starts the run's embedded NATS server on listen
// ("host:port"; "" for a free port of loopback), requiring g of every
// connection; the connections it refuses are logged to refused.
func startServer(listen string, g guard, refused server.Logger) (*server.Server, error) {
	opts := &server.Options{Host: "127.0.0.1", Port: -1, NoLog: true, NoSigs: true, MaxPayload: maxMessage,
		MaxPending: 4 * maxMessage, WriteDeadline: time.Minute, Authorization: g.token, TLSConfig: g.tls}
	if listen != "" {
		host, port, err := net.SplitHostPort(listen)
		if err != nil {
			return nil, fmt.Errorf("orders: -orders.listen %q: %w (expected host:port)", listen, err)
		}
		if opts.Port, err = strconv.Atoi(port); err != nil {
			return nil, fmt.Errorf("orders: -orders.listen %q: port %q is not a number", listen, port)
		}
		opts.Host = cmp.Or(host, "0.0.0.0")
	}
	ns, err := server.NewServer(opts)
	if err != nil {
		return nil, fmt.Errorf("orders: starting the coordinator's NATS server: %w", err)
	}
	// Debug too: a connection that gives no token in time is logged there.
	ns.SetLoggerV2(refused, true, false, false)
	go ns.Start()
	if !ns.ReadyForConnections(10 * time.Second) {
		ns.Shutdown()
		return nil, fmt.Errorf("orders: the coordinator's NATS server cannot listen on %s:%d", opts.Host, opts.Port)
	}
	return ns, nil
}

// listening returns the address the server ns listens at as the user
// gave it, listen ("host:port", ":port" for every interface), with the
// port it got: Go shows every interface as [::] even where it means
// IPv4's 0.0.0.0 as well.
func listening(listen string, ns *server.Server) string {
	host, _, _ := net.SplitHostPort(listen)
	port := "?"
	if a, ok := ns.Addr().(*net.TCPAddr); ok {
		port = strconv.Itoa(a.Port)
	}
	return net.JoinHostPort(cmp.Or(host, "0.0.0.0"), port)
}

// session is a coordinator with its workers joined: its NATS server
// and connection, and the worker processes it started, if any.
type session struct {
	*coordinator
	ns      *server.Server
	hellos  *nats.Subscription
	workers *spawned // nil when the workers were started elsewhere
	procs   int
}

// openSession starts the coordinator's server, starts or awaits the
// workers of cfg's plan and returns once they have all joined.
func openSession(ctx context.Context, cfg Config) (s *session, err error) {
	if err := travelProblems(); err != nil {
		return nil, err
	}
	p, err := cfg.plan()
	if err != nil {
		return nil, err
	}
	g, made, err := cfg.guard(p)
	if err != nil {
		return nil, err
	}
	s = &session{procs: p.procs}
	if s.ns, err = startServer(p.listen, g, &refusals{w: os.Stderr}); err != nil {
		return nil, err
	}
	if !p.spawn {
		announce(os.Stderr, listening(p.listen, s.ns), p.procs, g, made)
	}
	// In process, the server offers TLS but does not require it.
	nc, err := nats.Connect(natsURL(s.ns.Addr().String()), nats.InProcessServer(s.ns), nats.Token(g.token), nats.Name("presage orders coordinator"))
	if err != nil {
		s.ns.Shutdown()
		return nil, err
	}
	s.coordinator = &coordinator{nc: nc, cores: cfg.cores(), stderr: os.Stderr, orders: map[int64]*tracked{}, byName: map[ref]*tracked{},
		mainDone: make(chan struct{}), schedule: cfg.Out != "" || cfg.Output != nil}
	s.runState.start(ctx, false)
	defer func() {
		if err != nil {
			s.close("")
		}
	}()
	if err := s.subscribe(); err != nil {
		return s, err
	}
	joined, hellos, err := s.admit(p.procs)
	if err != nil {
		return s, err
	}
	s.hellos = hellos
	exited := make(chan error, p.procs)
	if p.spawn {
		if s.workers, err = spawn(p.procs, natsURL(s.ns.Addr().String()), g.token, exited); err != nil {
			return s, err
		}
	}
	if err := s.join(ctx, p.procs, joined, exited); err != nil {
		return s, err
	}
	s.pool = newPool(p.procs*s.cores, cfg.scheduler(), false, cfg.Seed)
	s.start = s.pool.start
	go s.watch()
	if s.workers != nil {
		go s.loseExited(s.workers)
	}
	return s, nil
}

// close tells the workers that the run ended (why, when it failed), waits
// for them to leave, and stops the server: no worker outlives it, nor
// takes the end for a lost coordinator.
func (s *session) close(why string) {
	s.stopAll(why)
	s.cancel() // ended: workers that leave now are not lost
	if s.workers != nil {
		s.workers.stop()
	} else {
		waitForClients(s.ns, 1, 5*time.Second)
	}
	if s.hellos != nil {
		_ = s.hellos.Unsubscribe()
	}
	s.nc.Close()
	s.ns.Shutdown()
}

// runCluster runs the main order of procedure name on args in worker
// processes and returns its encoded result with the summary.
func runCluster(ctx context.Context, cfg Config, name string, args []byte) ([]byte, *Summary, error) {
	s, err := openSession(ctx, cfg)
	if err != nil {
		return nil, nil, err
	}
	c := s.coordinator
	c.mu.Lock()
	c.main = c.newOrder(nil, name, args)
	c.mu.Unlock()
	c.place(c.main, -1)
	select {
	case <-c.mainDone:
	case <-c.ctx.Done():
	}
	end := time.Now()
	runErr := c.err(ctx)
	why := ""
	if runErr != nil {
		why = runErr.Error()
	}
	s.close(why)
	rep := &Summary{Mode: ModeRun, Workers: s.procs * c.cores, Elapsed: end.Sub(c.start), Orders: c.count}
	if runErr != nil {
		return nil, rep, runErr
	}
	rep.Measured = &measured.Execution{Program: cmp.Or(cfg.Program, name), Machine: cfg.machine(), Scheduler: string(cfg.scheduler()),
		Started: c.start.UTC(), Orders: c.count, Makespan: end.Sub(c.start).Seconds(), Workers: c.pool.measure(end), Cores: c.cores}
	if c.schedule {
		rep.Measured.Schedule = c.schedules()
		out, closeOut, err := cfg.output()
		if err != nil {
			return nil, rep, err
		}
		if err := errors.Join(measured.Write(out, rep.Measured), closeOut()); err != nil {
			return nil, rep, err
		}
	}
	return c.main.result, rep, nil
}

// waitForClients waits until the server has at most n clients, or for
// at most d.
func waitForClients(ns *server.Server, n int, d time.Duration) {
	for deadline := time.Now().Add(d); ns.NumClients() > n && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
}

// spawned are the worker processes a coordinator started.
type spawned struct {
	cmds []*exec.Cmd
	done []chan struct{} // closed when each has exited
}

// spawn starts n copies of this program as workers joining url with
// token, which they find in their environment (their arguments are this
// program's, which any user may read); each one's end is sent on exited
// until the coordinator stops them.
func spawn(n int, url, token string, exited chan<- error) (*spawned, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("orders: finding this program to start its workers: %w", err)
	}
	s := &spawned{}
	for i := range n {
		cmd := exec.Command(self, os.Args[1:]...)
		cmd.Env = withEnv(os.Environ(), joinEnv+"="+url, TokenEnv+"="+token)
		cmd.Stderr = os.Stderr
		cmd.SysProcAttr = dieWithParent()
		if err := cmd.Start(); err != nil {
			s.stop()
			return nil, fmt.Errorf("orders: starting worker process %d: %w", i, err)
		}
		done := make(chan struct{})
		s.cmds, s.done = append(s.cmds, cmd), append(s.done, done)
		go func() {
			err := cmd.Wait()
			close(done)
			select {
			case exited <- fmt.Errorf("orders: worker process %d (pid %d) ended: %v", i, cmd.Process.Pid, cmp.Or(err, errors.New("exit status 0"))):
			default:
			}
		}()
	}
	return s, nil
}

// withEnv returns env with the variables set ("NAME=value"), in place of
// any earlier value of theirs.
func withEnv(env []string, set ...string) []string {
	out := make([]string, 0, len(env)+len(set))
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if !slices.ContainsFunc(set, func(s string) bool { return strings.HasPrefix(s, name+"=") }) {
			out = append(out, kv)
		}
	}
	return append(out, set...)
}

// stop waits a little for the workers told to stop, then kills those
// left: no process outlives the run.
func (s *spawned) stop() {
	deadline := time.NewTimer(5 * time.Second)
	defer deadline.Stop()
	late := false
	for i, cmd := range s.cmds {
		if !late {
			select {
			case <-s.done[i]:
				continue
			case <-deadline.C:
				late = true
			}
		}
		_ = cmd.Process.Kill()
		<-s.done[i]
	}
}

// loseExited loses the node of every spawned worker that ends before the
// run does.
func (c *coordinator) loseExited(s *spawned) {
	for i, cmd := range s.cmds {
		go func() {
			select {
			case <-s.done[i]:
			case <-c.ctx.Done():
				return
			}
			c.mu.Lock()
			var n *member
			for _, m := range c.nodes {
				if m.pid == cmd.Process.Pid {
					n = m
				}
			}
			c.mu.Unlock()
			if n != nil {
				c.lose(n, fmt.Errorf("its process ended (%v)", cmd.ProcessState))
			}
		}()
	}
}

// slurm is what Slurm's environment says of the step a task runs in.
type slurm struct {
	task, tasks int
	job, step   int
	firstHost   string
	hostList    string
}

// slurmStep reads the step from Slurm's environment (srun sets it).
func slurmStep() (slurm, error) {
	var s slurm
	var err error
	get := func(name string) int {
		v, e := strconv.Atoi(os.Getenv(name))
		if e != nil && err == nil {
			err = fmt.Errorf("orders: -orders.slurm: %s=%q: expected a number (run under srun)", name, os.Getenv(name))
		}
		return v
	}
	s.task, s.tasks, s.job = get("SLURM_PROCID"), get("SLURM_NTASKS"), get("SLURM_JOB_ID")
	s.step, _ = strconv.Atoi(os.Getenv("SLURM_STEP_ID"))
	s.hostList = cmp.Or(os.Getenv("SLURM_STEP_NODELIST"), os.Getenv("SLURM_JOB_NODELIST"), os.Getenv("SLURM_NODELIST"))
	if err != nil {
		return s, err
	}
	if s.firstHost, err = firstHost(s.hostList); err != nil {
		return s, fmt.Errorf("orders: -orders.slurm: %w", err)
	}
	return s, nil
}

// port is the coordinator's port in this step: one per job and step, so
// that two runs on the same node do not meet.
func (s slurm) port() int { return 20000 + (s.job*16+s.step)%40000 }

// firstHost returns the first host of a Slurm host list: "n1,n2",
// "node[03-05,9]", "a[1-2],b".
func firstHost(list string) (string, error) {
	if list == "" {
		return "", errors.New("no host list in SLURM_STEP_NODELIST or SLURM_JOB_NODELIST (run under srun)")
	}
	i := strings.IndexAny(list, "[,")
	if i < 0 || list[i] == ',' {
		if i < 0 {
			return list, nil
		}
		return list[:i], nil
	}
	prefix, rest := list[:i], list[i+1:]
	end := strings.IndexAny(rest, "-,]")
	if end <= 0 {
		return "", fmt.Errorf("host list %q: expected prefix[range,...]", list)
	}
	return prefix + rest[:end], nil
}
