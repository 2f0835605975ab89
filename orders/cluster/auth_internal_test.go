package cluster

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/presage-dvm/presage/orders"
)

// Where the run's token comes from in each way of starting workers, and
// what is refused.
func TestRunToken(t *testing.T) {
	dir := t.TempDir()
	file := func(name, content string, mode os.FileMode) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(content), mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(path, mode); err != nil { // past the umask
			t.Fatal(err)
		}
		return path
	}
	const good = "a-token-the-user-made-0123456789abcdef"
	private, open := file("private", good+"\n", 0o600), file("open", good+"\n", 0o644)
	short := file("short", "abc\n", 0o600)
	for _, c := range []struct {
		name      string
		cfg       orders.Config
		p         plan
		env       string // $PRESAGE_ORDERS_TOKEN
		want      string // the token; "random" for one made here
		made      bool
		wantError string
	}{
		{name: "spawned workers get a fresh token", cfg: orders.Config{Procs: 2}, p: plan{procs: 2, spawn: true}, env: good, want: "random"},
		{name: "listen with no token makes one to print", cfg: orders.Config{Listen: ":0"}, p: plan{listen: ":0"}, want: "random", made: true},
		{name: "listen takes the environment's", cfg: orders.Config{Listen: ":0"}, p: plan{listen: ":0"}, env: good, want: good},
		{name: "a file wins over the environment", cfg: orders.Config{Listen: ":0", TokenFile: private}, p: plan{listen: ":0"}, env: "another-token-0123456789abcdef0123", want: good},
		{name: "slurm takes the environment's", cfg: orders.Config{Slurm: true}, p: plan{listen: ":0"}, env: good, want: good},
		{name: "slurm without a token", cfg: orders.Config{Slurm: true}, p: plan{listen: ":0"},
			wantError: "orders: -orders.slurm: no token for the run's tasks (expected PRESAGE_ORDERS_TOKEN exported in the job before srun, as docs/slurm/orders.sbatch does, or -orders.token-file)"},
		{name: "a short token", cfg: orders.Config{Listen: ":0"}, p: plan{listen: ":0"}, env: "abc",
			wantError: "orders: PRESAGE_ORDERS_TOKEN: a token of 3 characters (expected at least 32"},
		{name: "a token with a space", cfg: orders.Config{Listen: ":0"}, p: plan{listen: ":0"}, env: strings.Repeat("x", 32) + " y",
			wantError: "orders: PRESAGE_ORDERS_TOKEN: character 33 of the token is ' ' (expected printable ASCII, no spaces)"},
		{name: "a token file others may read", cfg: orders.Config{Listen: ":0", TokenFile: open}, p: plan{listen: ":0"},
			wantError: "orders: -orders.token-file " + open + ": mode 0644 lets others read the token (expected 0600: chmod 600 " + open + ")"},
		{name: "a short token file", cfg: orders.Config{Listen: ":0", TokenFile: short}, p: plan{listen: ":0"},
			wantError: "orders: -orders.token-file " + short + ": a token of 3 characters (expected at least 32"},
		{name: "a token file that is a folder", cfg: orders.Config{Listen: ":0", TokenFile: dir}, p: plan{listen: ":0"},
			wantError: "orders: -orders.token-file " + dir + ": a d--------- (expected a regular file holding the token)"},
		{name: "a certificate without its key", cfg: orders.Config{Procs: 2, TLSCert: private}, p: plan{procs: 2, spawn: true},
			wantError: `orders: -orders.tls-cert "` + private + `" and -orders.tls-key "": expected both`},
		{name: "an authority without a certificate", cfg: orders.Config{Procs: 2, TLSCA: private}, p: plan{procs: 2, spawn: true},
			wantError: "orders: -orders.tls-ca " + private + " without -orders.tls-cert and -orders.tls-key"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv(TokenEnv, c.env)
			g, made, err := guardOf(c.cfg, c.p)
			switch {
			case c.wantError != "":
				if err == nil || !strings.HasPrefix(err.Error(), c.wantError) {
					t.Errorf("error %v; want one starting %q", err, c.wantError)
				}
			case err != nil:
				t.Errorf("error %v", err)
			case made != c.made:
				t.Errorf("made %v; want %v", made, c.made)
			case c.want == "random":
				if b, err := hex.DecodeString(g.token); err != nil || len(b) != 32 || g.token == c.env {
					t.Errorf("token %q; want 256 random bits in hex", g.token)
				}
				if again, _, _ := guardOf(c.cfg, c.p); again.token == g.token {
					t.Errorf("two runs got the same token %q", g.token)
				}
			case g.token != c.want:
				t.Errorf("token %q; want %q", g.token, c.want)
			}
		})
	}
}

// A worker started by hand without a token is told at once what it
// lacks, before it connects.
func TestWorkerWithoutTokenIsToldWhy(t *testing.T) {
	t.Setenv(TokenEnv, "")
	_, err := joinOptions(orders.Config{Join: "127.0.0.1:1"}, false)
	want := "orders: this worker has no token to join the run with (expected PRESAGE_ORDERS_TOKEN or -orders.token-file, as the coordinator printed or was given)"
	if err == nil || err.Error() != want {
		t.Errorf("error %v; want %q", err, want)
	}
}

// A worker the coordinator's server refuses (a wrong token, an
// authority that did not sign its certificate, no TLS where it is
// required) gives up at once with the reason, rather than retrying for
// 30 s as while the coordinator is not up yet; the right token and
// authority join.
func TestRefusedWorkerGivesUpAtOnce(t *testing.T) {
	const token = "the-run-token-0123456789abcdef0123456789"
	certs := t.TempDir()
	WriteTestCertificates(t, certs)
	otherCA := t.TempDir()
	WriteTestCertificates(t, otherCA)
	serverTLS, err := serverTLS(orders.Config{TLSCert: filepath.Join(certs, "cert.pem"), TLSKey: filepath.Join(certs, "key.pem"), TLSCA: filepath.Join(certs, "ca.pem")})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		tls    *tls.Config
		opts   []nats.Option
		refuse string // in the error; "" when the worker joins
		hint   string // in the error too: what the worker lacked
	}{
		{"no token", nil, nil, "nats: Authorization Violation", "(expected the run's token, in PRESAGE_ORDERS_TOKEN or -orders.token-file)"},
		{"a wrong token", nil, []nats.Option{nats.Token(token + "x")}, "nats: Authorization Violation", "(expected the run's token, in PRESAGE_ORDERS_TOKEN or -orders.token-file)"},
		{"the token", nil, []nats.Option{nats.Token(token)}, "", ""},
		{"TLS, another authority", serverTLS, []nats.Option{nats.Token(token), nats.RootCAs(filepath.Join(otherCA, "ca.pem"))}, "x509: certificate signed by unknown authority", "(expected -orders.tls-ca, the authority that signed the coordinator's certificate"},
		{"TLS, no authority given", serverTLS, []nats.Option{nats.Token(token)}, "x509: certificate signed by unknown authority", "(expected -orders.tls-ca, the authority that signed the coordinator's certificate"},
		{"TLS, its authority", serverTLS, []nats.Option{nats.Token(token), nats.RootCAs(filepath.Join(certs, "ca.pem"))}, "", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			var log bytes.Buffer
			ns, err := startServer("", guard{token: token, tls: c.tls}, &refusals{w: &log})
			if err != nil {
				t.Fatal(err)
			}
			defer ns.Shutdown()
			start := time.Now()
			nc, err := connect(natsURL(ns.Addr().String()), c.opts, func(error) {})
			took := time.Since(start)
			if nc != nil {
				nc.Close()
			}
			switch {
			case c.refuse == "" && err != nil:
				t.Errorf("refused: %v", err)
			case c.refuse != "" && (err == nil || !strings.Contains(err.Error(), "refused this worker: ") ||
				!strings.Contains(err.Error(), c.refuse) || !strings.Contains(err.Error(), c.hint)):
				t.Errorf("error %v; want the coordinator refusing this worker: %s %s", err, c.refuse, c.hint)
			case c.refuse != "" && took > 2*time.Second:
				t.Errorf("refused after %v: want at once", took)
			}
			waitForLog(&log, c.refuse != "")
			if named := strings.Contains(log.String(), "orders: refused a connection from 127.0.0.1:"); named != (c.refuse != "") {
				t.Errorf("the coordinator's log %q: names a refused worker %v, want %v", log.String(), named, c.refuse != "")
			}
		})
	}
}

// waitForLog waits a little for the server to log a refusal, when one
// is expected: it logs after the client has its answer.
func waitForLog(log *bytes.Buffer, expected bool) {
	for deadline := time.Now().Add(2 * time.Second); expected && time.Now().Before(deadline) && !strings.Contains(log.String(), "refused"); {
		time.Sleep(10 * time.Millisecond)
	}
}

// The server's log lines become one line per refused connection, the
// first 20 of them; the rest of what it says is dropped.
func TestRefusalsNameTheStranger(t *testing.T) {
	var log bytes.Buffer
	r := &refusals{w: &log}
	r.Debugf("%s - cid:%d - Client connection created", "10.0.0.5:4000", 3)
	r.Errorf("%s - cid:%d - authentication error", "10.0.0.5:4001", 4)
	r.Debugf("[::1]:4002 - cid:5 - Authentication Timeout")
	r.Errorf("10.0.0.6:4003 - cid:6 - TLS handshake error: remote error: tls: bad certificate")
	r.Noticef("Server is ready")
	want := "orders: refused a connection from 10.0.0.5:4001: it did not give this run's token\n" +
		"orders: refused a connection from [::1]:4002: it gave no token in time\n" +
		"orders: refused a connection from 10.0.0.6:4003: TLS handshake failed: remote error: tls: bad certificate\n"
	if log.String() != want {
		t.Errorf("logged:\n%s\nwant:\n%s", log.String(), want)
	}
	log.Reset()
	for range 30 {
		r.Errorf("10.0.0.7:1 - cid:7 - authentication error")
	}
	if lines := strings.Count(log.String(), "\n"); lines != maxRefusalsShown-3+1 || !strings.HasSuffix(log.String(), "the next are not shown\n") {
		t.Errorf("30 more refusals logged %d lines, ending %q: want the first %d of all and a last line", lines, log.String()[max(0, log.Len()-60):], maxRefusalsShown)
	}
}

// The coordinator states where it listens for workers started
// elsewhere and what it asks of them; the token it made, it shows once.
func TestAnnounce(t *testing.T) {
	var log bytes.Buffer
	announce(&log, "0.0.0.0:4222", 8, guard{token: "tok", tls: &tls.Config{}}, true)
	want := "orders: coordinator listening on 0.0.0.0:4222 for 8 workers (token required, TLS on)\n" +
		"orders: workers join with PRESAGE_ORDERS_TOKEN=tok in their environment (or the token in a file of mode 0600 given with -orders.token-file)\n"
	if log.String() != want {
		t.Errorf("logged:\n%s\nwant:\n%s", log.String(), want)
	}
}

// Spawned workers' environment carries the join address and the token
// once each, whatever the coordinator's held.
func TestWithEnvReplaces(t *testing.T) {
	got := withEnv([]string{"A=1", TokenEnv + "=old", "B=2", TokenEnv + "X=keep"}, joinEnv+"=nats://x", TokenEnv+"=new")
	want := []string{"A=1", "B=2", TokenEnv + "X=keep", joinEnv + "=nats://x", TokenEnv + "=new"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("%q; want %q", got, want)
	}
}

// WriteTestCertificates writes to dir an authority's certificate
// (ca.pem) and a coordinator's certificate for 127.0.0.1 that it signed
// (cert.pem) with its key (key.pem), valid for an hour. Exported for the
// package's external tests (auth_test.go).
func WriteTestCertificates(t *testing.T, dir string) {
	t.Helper()
	now := time.Now()
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	ca := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "presage test authority"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(time.Hour), IsCA: true, BasicConstraintsValid: true,
		KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature}
	caDER, err := x509.CreateCertificate(rand.Reader, ca, ca, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	if ca, err = x509.ParseCertificate(caDER); err != nil {
		t.Fatal(err)
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	leaf := &x509.Certificate{SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "presage coordinator"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(time.Hour), IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)},
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	leafDER, err := x509.CreateCertificate(rand.Reader, leaf, ca, &key.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	for name, block := range map[string]*pem.Block{
		"ca.pem": {Type: "CERTIFICATE", Bytes: caDER}, "cert.pem": {Type: "CERTIFICATE", Bytes: leafDER}, "key.pem": {Type: "PRIVATE KEY", Bytes: keyDER},
	} {
		if err := os.WriteFile(filepath.Join(dir, name), pem.EncodeToMemory(block), 0o600); err != nil {
			t.Fatal(err)
		}
	}
}
