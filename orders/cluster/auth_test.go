package cluster_test

import (
	"bufio"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/presage-dvm/presage/orders"
	"github.com/presage-dvm/presage/orders/cluster"
	"github.com/presage-dvm/presage/orders/procstest"
)

// Who may join a run in several processes: only the processes that
// carry its token. These tests run the program below in worker
// processes (orders/procstest) and knock on the coordinator's door
// meanwhile.

// authInput is authSum's problem: add 0..N-1, each number an order of
// authTerm that spins for Pause (procstest knows a worker runs orders by
// the CPU time it takes).
type authInput struct {
	N, I  int
	Pause time.Duration
}

var authTerm = orders.Proc("auth-term", func(c *orders.Ctx, in authInput) (int, error) {
	for start := time.Now(); time.Since(start) < in.Pause; {
	}
	return in.I, nil
})

var authSum = orders.Proc("auth-sum", func(c *orders.Ctx, in authInput) (int, error) {
	hs := make([]*orders.Handle[int], in.N)
	for i := range hs {
		hs[i] = orders.Make(c, authTerm, authInput{I: i, Pause: in.Pause})
	}
	return procstest.SumResults(c, hs)
})

// tlsDirEnv names, for the child processes, the folder of the test's
// certificates (ca.pem, cert.pem, key.pem): the coordinator then serves
// TLS.
const tlsDirEnv = "PRESAGE_AUTHTEST_TLS"

// slurmEnv tells the child processes to run as Slurm's tasks
// (-orders.slurm) rather than start their workers.
const slurmEnv = "PRESAGE_AUTHTEST_SLURM"

// authProgram is the program the child processes run: authSum on n
// terms in 2 worker processes (or in Slurm's tasks); it prints the sum,
// or the error.
func authProgram(n int, pause time.Duration) func() int {
	return func() int {
		cfg := orders.Config{Procs: 2}
		if os.Getenv(slurmEnv) != "" {
			cfg = orders.Config{Slurm: true}
		}
		if dir := os.Getenv(tlsDirEnv); dir != "" {
			cfg.TLSCert, cfg.TLSKey, cfg.TLSCA = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem"), filepath.Join(dir, "ca.pem")
		}
		got, _, err := orders.Main(cfg, authSum, authInput{N: n, Pause: pause})
		if err != nil {
			fmt.Fprintln(os.Stderr, "error:", err)
			return 1
		}
		fmt.Println("sum", got)
		return 0
	}
}

// sumOf is what authSum answers for n terms.
func sumOf(n int) string { return fmt.Sprintf("sum %d\n", n*(n-1)/2) }

// workerEnv returns the environment of process pid.
func workerEnv(t *testing.T, pid int) map[string]string {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", pid))
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{}
	for _, kv := range strings.Split(string(b), "\x00") {
		if name, value, ok := strings.Cut(kv, "="); ok {
			env[name] = value
		}
	}
	return env
}

// knock connects to the NATS server at addr as a stranger would and
// says CONNECT with token (none when ""); it returns the connection's
// own address, the server's INFO and the server's answer, "" when it
// closed the connection without one.
func knock(t *testing.T, addr, token string) (local string, info map[string]any, answer string) {
	t.Helper()
	conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		t.Fatalf("a stranger dialing %s: %v", addr, err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(5 * time.Second))
	r := bufio.NewReader(conn)
	line, err := r.ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "INFO ") {
		t.Fatalf("%s greeted a stranger with %q, %v: want its INFO", addr, line, err)
	}
	if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "INFO ")), &info); err != nil {
		t.Fatalf("INFO of %s: %v", addr, err)
	}
	connect := `CONNECT {"verbose":false,"pedantic":false}`
	if token != "" {
		connect = fmt.Sprintf(`CONNECT {"verbose":false,"pedantic":false,"auth_token":%q}`, token)
	}
	fmt.Fprintf(conn, "%s\r\nPING\r\n", connect)
	answer, _ = r.ReadString('\n')
	return conn.LocalAddr().String(), info, strings.TrimSpace(answer)
}

// A stranger on the loopback, without the token or with a wrong one,
// is refused by the coordinator's server, which says so, and named in
// the coordinator's log; the run goes on to the right answer. The
// token the workers got is random, 256 bits, in their environment and
// not in their arguments.
func TestStrangerIsRefused(t *testing.T) {
	const n = 40
	procstest.Main(authProgram(n, 50*time.Millisecond))
	var strangers []string
	r := procstest.Start(t, procstest.Options{Workers: 2, During: func(workers []int) {
		env := workerEnv(t, workers[0])
		token, url := env[cluster.TokenEnv], env["PRESAGE_ORDERS_JOIN"]
		if b, err := hex.DecodeString(token); err != nil || len(b) < 16 {
			t.Errorf("the worker's token %q: want at least 128 random bits in hex", token)
			return // the run ends on its own
		}
		if other := workerEnv(t, workers[1])[cluster.TokenEnv]; other != token {
			t.Errorf("the workers carry tokens %q and %q: want the run's, the same", token, other)
		}
		for _, w := range workers {
			argv, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", w))
			if err != nil || strings.Contains(string(argv), token) {
				t.Errorf("worker %d's arguments %q (%v) hold the token: ps shows them to every user", w, argv, err)
			}
		}
		addr := strings.TrimPrefix(url, "nats://")
		for _, wrong := range []string{"", strings.Repeat("0", len(token)), token[:len(token)-1]} {
			local, info, answer := knock(t, addr, wrong)
			if info["auth_required"] != true || answer != "-ERR 'Authorization Violation'" {
				t.Errorf("a stranger with token %q: INFO auth_required %v, answer %q; want the token required and an authorization violation", wrong, info["auth_required"], answer)
			}
			strangers = append(strangers, local)
		}
		if nc, err := nats.Connect(url, nats.Token("guessed-"+token), nats.MaxReconnects(0)); !errors.Is(err, nats.ErrAuthorization) {
			if nc != nil {
				nc.Close()
			}
			t.Errorf("nats.go with a wrong token: %v; want %v", err, nats.ErrAuthorization)
		}
	}})
	if r.Err != nil || r.Stdout != sumOf(n) {
		t.Fatalf("the run with strangers knocking: %v, printed %q; want %q\nstderr: %s", r.Err, r.Stdout, sumOf(n), r.Stderr)
	}
	for _, s := range strangers {
		want := "orders: refused a connection from " + s + ": it did not give this run's token\n"
		if !strings.Contains(r.Stderr, want) {
			t.Errorf("the coordinator's log does not name stranger %s (%q):\n%s", s, want, r.Stderr)
		}
	}
}

// A coordinator that dies takes its workers down: killed, at once (the
// workers it started die with it); stopped, as when its computer dies
// and closes no connection, within the pings' few seconds.
func TestLostCoordinatorTakesItsWorkersDown(t *testing.T) {
	for _, c := range []struct {
		name   string
		opt    procstest.Options
		within time.Duration
		log    string // what each worker says, "" for nothing
	}{
		{"killed", procstest.Options{Workers: 2, KillCoordinator: true}, 2 * time.Second, ""},
		{"stopped", procstest.Options{Workers: 2, StopCoordinator: true}, 10 * time.Second, "nats: stale connection\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			procstest.Main(authProgram(400, 20*time.Millisecond))
			r := procstest.Start(t, c.opt) // fails if a worker is left
			if r.WorkersLeft <= 0 || r.WorkersLeft > c.within {
				t.Errorf("the workers of a %s coordinator ended %v after it: want within %v", c.name, r.WorkersLeft, c.within)
			}
			if c.log != "" && strings.Count(r.Stderr, c.log) != 2 {
				t.Errorf("the workers of a %s coordinator said %q: want both saying %q", c.name, r.Stderr, c.log)
			}
		})
	}
}

// With a certificate, a key and their authority (made here), the
// coordinator's server takes TLS connections only, its workers check
// it and the run completes; a stranger talking plain TCP is refused and
// named.
func TestTLSRun(t *testing.T) {
	const n = 40 // about a second on 2 workers: the run outlasts the stranger's knock, on a loaded machine too
	procstest.Main(authProgram(n, 50*time.Millisecond))
	dir := t.TempDir()
	cluster.WriteTestCertificates(t, dir)
	t.Setenv(tlsDirEnv, dir)
	var stranger string
	r := procstest.Start(t, procstest.Options{Workers: 2, During: func(workers []int) {
		addr := strings.TrimPrefix(workerEnv(t, workers[0])["PRESAGE_ORDERS_JOIN"], "nats://")
		local, info, answer := knock(t, addr, "")
		if info["tls_required"] != true || answer != "" {
			t.Errorf("a stranger in plain TCP: INFO tls_required %v, answer %q; want TLS required and no answer", info["tls_required"], answer)
		}
		stranger = local
	}})
	if r.Err != nil || r.Stdout != sumOf(n) {
		t.Fatalf("the run over TLS: %v, printed %q; want %q\nstderr: %s", r.Err, r.Stdout, sumOf(n), r.Stderr)
	}
	if want := "orders: refused a connection from " + stranger + ": TLS handshake failed"; !strings.Contains(r.Stderr, want) {
		t.Errorf("the coordinator's log does not name the plain-TCP stranger (%q):\n%s", want, r.Stderr)
	}
}

// Under Slurm every task gets the token from the job's environment
// (docs/slurm/orders.sbatch exports one): with it, the coordinator
// (task 0) says where it listens and the run completes; without it,
// every task refuses to start, saying why. Slurm's environment is made
// here, for three tasks on this computer.
func TestSlurmTasksNeedTheToken(t *testing.T) {
	const n = 20
	for _, c := range []struct {
		name, token string
		coordinator string // what task 0 prints on its standard error
		worker      string // what tasks 1 and 2 print
	}{
		{"with the token", "job-token-0123456789abcdef0123456789abcdef", "orders: coordinator listening on 0.0.0.0:PORT for 2 workers (token required, TLS off)\n", ""},
		{"without a token", "", "error: orders: -orders.slurm: no token for the run's tasks (expected PRESAGE_ORDERS_TOKEN exported in the job before srun, as docs/slurm/orders.sbatch does, or -orders.token-file)\n",
			"error: orders: this worker has no token to join the run with (expected PRESAGE_ORDERS_TOKEN or -orders.token-file, as the coordinator printed or was given)\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			procstest.Main(authProgram(n, time.Millisecond))
			job := 1000 + int(time.Now().UnixNano()%2000) // the coordinator's port is made of it
			port := 20000 + (job*16)%40000
			tasks := make([]*exec.Cmd, 3)
			logs := make([]strings.Builder, 3)
			var stdout strings.Builder
			for i := range tasks {
				tasks[i] = procstest.Command(t, exec.Command)
				tasks[i].Env = append(tasks[i].Env, slurmEnv+"=1", cluster.TokenEnv+"="+c.token, "SLURM_PROCID="+strconv.Itoa(i), "SLURM_NTASKS=3",
					"SLURM_JOB_ID="+strconv.Itoa(job), "SLURM_STEP_ID=0", "SLURM_STEP_NODELIST=127.0.0.1")
				tasks[i].Stderr = &logs[i]
				if i == 0 {
					tasks[i].Stdout = &stdout
				}
				if err := tasks[i].Start(); err != nil {
					t.Fatal(err)
				}
			}
			for i, task := range tasks {
				err := task.Wait()
				want := c.worker
				if i == 0 {
					want = strings.Replace(c.coordinator, "PORT", strconv.Itoa(port), 1)
				}
				if (err == nil) != (c.token != "") || logs[i].String() != want {
					t.Errorf("task %d: %v, stderr %q; want %q", i, err, logs[i].String(), want)
				}
			}
			if c.token != "" && stdout.String() != sumOf(n) {
				t.Errorf("task 0 printed %q; want %q", stdout.String(), sumOf(n))
			}
		})
	}
}
