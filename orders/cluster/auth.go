package cluster

import (
	"crypto/rand"
	"crypto/tls"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	goruntime "runtime"
	"strings"
	"sync"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"

	"github.com/presage-dvm/presage/orders"
)

// TokenEnv is the environment variable that carries a run's token: the
// secret every process of a run in several processes shows the
// coordinator's NATS server, which refuses any connection without it
// (docs/orders.md, "Who may join a run"). The coordinator hands it to
// the workers it starts in their environment, never in their arguments,
// which ps shows to every user; under Slurm srun hands the job's
// environment to every task.
const TokenEnv = "PRESAGE_ORDERS_TOKEN"

// minTokenChars is the shortest token a user may give: 32 hex digits
// are 128 bits, as many as guessing cannot reach.
const minTokenChars = 32

// maxTokenFile bounds what a token file is read of: a token is a line.
const maxTokenFile = 4096

// guard is what the coordinator's server asks of a connection: the
// run's token, over TLS when tls is set.
type guard struct {
	token string
	tls   *tls.Config // nil: plain TCP
}

// newToken returns a fresh random token: 256 bits from crypto/rand, in
// hex.
func newToken() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("orders: making the run's token: %w", err)
	}
	return hex.EncodeToString(b), nil
}

// givenToken returns the token the user gave, from -orders.token-file
// or else from $PRESAGE_ORDERS_TOKEN; "" when neither is set.
func givenToken(c orders.Config) (string, error) {
	if c.TokenFile != "" {
		return readTokenFile(c.TokenFile)
	}
	tok := os.Getenv(TokenEnv)
	if tok == "" {
		return "", nil
	}
	return tok, checkToken(tok, TokenEnv)
}

// readTokenFile reads a token from path, a file only its owner may read
// (as ssh asks of a key): a secret others can read is no secret.
func readTokenFile(path string) (string, error) {
	from := "-orders.token-file " + path
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("orders: %s: %w", from, err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return "", fmt.Errorf("orders: %s: %w", from, err)
	}
	if !info.Mode().IsRegular() {
		return "", fmt.Errorf("orders: %s: a %s (expected a regular file holding the token)", from, info.Mode().Type())
	}
	if perm := info.Mode().Perm(); goruntime.GOOS != "windows" && perm&0o077 != 0 {
		return "", fmt.Errorf("orders: %s: mode %04o lets others read the token (expected 0600: chmod 600 %s)", from, perm, path)
	}
	b, err := io.ReadAll(io.LimitReader(f, maxTokenFile+1))
	if err != nil {
		return "", fmt.Errorf("orders: %s: %w", from, err)
	}
	if len(b) > maxTokenFile {
		return "", fmt.Errorf("orders: %s: more than %d bytes (expected one line, the token)", from, maxTokenFile)
	}
	tok := strings.TrimRight(string(b), "\r\n")
	return tok, checkToken(tok, from)
}

// checkToken says what is wrong with a token the user gave, named from.
func checkToken(tok, from string) error {
	if len(tok) < minTokenChars {
		return fmt.Errorf("orders: %s: a token of %d characters (expected at least %d, e.g. head -c 32 /dev/urandom | od -An -vtx1 | tr -d ' \\n')", from, len(tok), minTokenChars)
	}
	if len(tok) > maxTokenFile {
		return fmt.Errorf("orders: %s: a token of %d characters (expected at most %d)", from, len(tok), maxTokenFile)
	}
	for i, r := range tok {
		if r <= ' ' || r > '~' {
			return fmt.Errorf("orders: %s: character %d of the token is %q (expected printable ASCII, no spaces)", from, i+1, r)
		}
	}
	if strings.HasPrefix(tok, "$2") {
		return fmt.Errorf("orders: %s: the token starts with $2, which NATS takes for a bcrypt hash (expected another token)", from)
	}
	return nil
}

// guard returns what the coordinator's server of plan p requires, and
// whether the coordinator made the token for workers it does not start
// (-orders.listen without a token given), which it then prints for the
// user. Workers it starts get a fresh token each run; under Slurm every
// task must know the token before the coordinator runs, so it must be
// given.
func guardOf(c orders.Config, p plan) (g guard, made bool, err error) {
	if g.tls, err = serverTLS(c); err != nil {
		return g, false, err
	}
	switch {
	case p.spawn:
		g.token, err = newToken()
		return g, false, err
	case c.Slurm:
		if g.token, err = givenToken(c); err == nil && g.token == "" {
			err = errors.New("orders: -orders.slurm: no token for the run's tasks (expected " + TokenEnv + " exported in the job before srun, as docs/slurm/orders.sbatch does, or -orders.token-file)")
		}
		return g, false, err
	}
	if g.token, err = givenToken(c); err != nil || g.token != "" {
		return g, false, err
	}
	g.token, err = newToken()
	return g, true, err
}

// serverTLS returns the TLS configuration of the coordinator's server,
// nil when -orders.tls-cert and -orders.tls-key are not given.
func serverTLS(c orders.Config) (*tls.Config, error) {
	switch {
	case c.TLSCert == "" && c.TLSKey == "" && c.TLSCA != "":
		return nil, fmt.Errorf("orders: -orders.tls-ca %s without -orders.tls-cert and -orders.tls-key: the coordinator has no certificate to show its workers (expected all three)", c.TLSCA)
	case c.TLSCert == "" && c.TLSKey == "":
		return nil, nil
	case c.TLSCert == "" || c.TLSKey == "":
		return nil, fmt.Errorf("orders: -orders.tls-cert %q and -orders.tls-key %q: expected both, the coordinator's certificate and its key, or neither", c.TLSCert, c.TLSKey)
	}
	cfg, err := server.GenTLSConfig(&server.TLSConfigOpts{CertFile: c.TLSCert, KeyFile: c.TLSKey})
	if err != nil {
		return nil, fmt.Errorf("orders: -orders.tls-cert %s, -orders.tls-key %s: %w", c.TLSCert, c.TLSKey, err)
	}
	return cfg, nil
}

// joinOptions returns how a worker connects to its coordinator: with
// the run's token (from its coordinator when it started the worker,
// else given by the user), over TLS checked against -orders.tls-ca when
// given.
func joinOptions(c orders.Config, spawned bool) ([]nats.Option, error) {
	tok := os.Getenv(TokenEnv)
	var err error
	if !spawned {
		tok, err = givenToken(c)
	}
	if err != nil {
		return nil, err
	}
	if tok == "" {
		return nil, errors.New("orders: this worker has no token to join the run with (expected " + TokenEnv + " or -orders.token-file, as the coordinator printed or was given)")
	}
	opts := []nats.Option{nats.Token(tok)}
	switch {
	case c.TLSCA != "":
		if _, err := os.Stat(c.TLSCA); err != nil {
			return nil, fmt.Errorf("orders: -orders.tls-ca: %w", err)
		}
		opts = append(opts, nats.RootCAs(c.TLSCA))
	case c.TLSCert != "":
		opts = append(opts, nats.Secure()) // a certificate the system's authorities vouch for
	}
	return opts, nil
}

// announce states in the log where the coordinator waits for workers
// started elsewhere, and what it asks of them; with made, the token it
// made for them, the one time it is shown.
func announce(w io.Writer, addr string, procs int, g guard, made bool) {
	tlsState := "TLS off"
	if g.tls != nil {
		tlsState = "TLS on"
	}
	fmt.Fprintf(w, "orders: coordinator listening on %s for %d workers (token required, %s)\n", addr, procs, tlsState)
	if made {
		fmt.Fprintf(w, "orders: workers join with %s=%s in their environment (or the token in a file of mode 0600 given with -orders.token-file)\n", TokenEnv, g.token)
	}
}

// maxRefusalsShown bounds the lines a stranger knocking again and again
// adds to the coordinator's log.
const maxRefusalsShown = 20

// refusals is the coordinator's server's logger: it names every
// connection the server refused (no token or a wrong one, no TLS, no
// credentials in time) in the coordinator's log, and drops the rest of
// what the server says.
type refusals struct {
	w     io.Writer
	mu    sync.Mutex
	shown int
}

// The server's log lines about a client begin with its address:
// "127.0.0.1:50412 - cid:7 - authentication error".
const (
	logAuthError   = "authentication error"
	logAuthTimeout = "Authentication Timeout"
	logTLSError    = "TLS handshake error"
)

func (r *refusals) Errorf(format string, v ...any) { r.check(fmt.Sprintf(format, v...)) }
func (r *refusals) Debugf(format string, v ...any) { r.check(fmt.Sprintf(format, v...)) }
func (r *refusals) Noticef(string, ...any)         {}
func (r *refusals) Warnf(string, ...any)           {}
func (r *refusals) Fatalf(string, ...any)          {}
func (r *refusals) Tracef(string, ...any)          {}

// check logs msg when it is the server refusing a connection.
func (r *refusals) check(msg string) {
	addr, what, ok := strings.Cut(msg, " - ")
	if !ok {
		return
	}
	switch {
	case strings.Contains(what, logAuthError):
		r.refused(addr, "it did not give this run's token")
	case strings.Contains(what, logAuthTimeout):
		r.refused(addr, "it gave no token in time")
	case strings.Contains(what, logTLSError):
		_, why, _ := strings.Cut(what, logTLSError)
		r.refused(addr, "TLS handshake failed"+why)
	}
}

// refused logs one refused connection from addr.
func (r *refusals) refused(addr, why string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.shown++
	switch {
	case r.shown <= maxRefusalsShown:
		fmt.Fprintf(r.w, "orders: refused a connection from %s: %s\n", addr, why)
	case r.shown == maxRefusalsShown+1:
		fmt.Fprintf(r.w, "orders: refusing more connections; the next are not shown\n")
	}
}
