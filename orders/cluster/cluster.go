package cluster

import (
	"cmp"
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

	"github.com/presage-dvm/presage/orders"
	"github.com/presage-dvm/presage/sim/machine"
)

// joinEnv is how a coordinator tells the worker processes it starts
// where to join it.
const joinEnv = "PRESAGE_ORDERS_JOIN"

// maxMessage is the largest message: an order's encoded arguments or
// result (NATS's own limit).
const maxMessage = 64 << 20

// withCluster returns c with Procs and Cores, where they are 0, from its
// Cluster file.
func withCluster(c orders.Config) (orders.Config, error) {
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

// joinURL returns the coordinator a worker process joins, "" when this
// process is not a worker.
func joinURL(c orders.Config) (string, error) {
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

func planOf(c orders.Config) (plan, error) {
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

// spawn starts n copies of this program as workers of cores cores
// joining url with token, which they find in their environment (their
// arguments are this program's, which any user may read), each one
// running Go code on its cores and one thread more (workerGOMAXPROCS);
// each one's end is sent on exited, which has room for them all.
func spawn(n, cores int, url, token string, exited chan<- orders.Exit) (*spawned, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("orders: finding this program to start its workers: %w", err)
	}
	s := &spawned{}
	for i := range n {
		cmd := exec.Command(self, os.Args[1:]...)
		env := []string{joinEnv + "=" + url, TokenEnv + "=" + token}
		if g := workerGOMAXPROCS(cores); g != "" {
			env = append(env, g)
		}
		cmd.Env = withEnv(os.Environ(), env...)
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
			case exited <- orders.Exit{PID: cmd.Process.Pid, Err: cmp.Or(err, errors.New("exit status 0"))}:
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
