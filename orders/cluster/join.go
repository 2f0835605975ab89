package cluster

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"os"
	"slices"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/presage-dvm/presage/orders"
)

// join connects this process, when cfg or its environment makes it a
// worker process, to its coordinator (orders.Transport.Join).
func join(cfg orders.Config, lost func(error)) (orders.Conn, bool, error) {
	url, err := joinURL(cfg)
	if err != nil || url == "" {
		return nil, false, err
	}
	spawned := cfg.Join == "" && os.Getenv(joinEnv) != ""
	opts, err := joinOptions(cfg, spawned)
	if err != nil {
		return nil, false, err
	}
	nc, err := connect(url, opts, func(err error) { lost(fmt.Errorf("%s: %w", url, err)) })
	if err != nil {
		return nil, false, err
	}
	return newConn(nc), spawned, nil
}

// A worker pings its coordinator every pingEvery and takes it for lost
// when pingsUnanswered pings in a row go unanswered: a coordinator that
// died with its computer, or stopped, takes its workers down within
// about 6 s, as a killed one does at once (its connection closes).
const (
	pingEvery       = time.Second
	pingsUnanswered = 5
)

// connect connects to the coordinator's NATS server at url with opts,
// retrying for a while (workers under Slurm may start before it
// listens) unless the server refuses the worker's token or TLS; onLost
// is called when the connection is lost for good.
func connect(url string, opts []nats.Option, onLost func(error)) (*nats.Conn, error) {
	deadline := time.Now().Add(30 * time.Second)
	for {
		nc, err := nats.Connect(url, append(slices.Clip(opts), nats.MaxReconnects(0), nats.Name("presage orders worker"),
			nats.PingInterval(pingEvery), nats.MaxPingsOutstanding(pingsUnanswered),
			nats.ClosedHandler(func(c *nats.Conn) {
				if err := c.LastError(); err != nil {
					onLost(err)
				} else {
					onLost(errors.New("connection closed"))
				}
			}),
			nats.DisconnectErrHandler(func(_ *nats.Conn, err error) {
				if err == nil {
					err = errors.New("disconnected")
				}
				onLost(err)
			}))...)
		if err == nil {
			return nc, nil
		}
		if expected := refusal(err); expected != "" {
			return nil, fmt.Errorf("the coordinator at %s refused this worker: %w (expected %s)", url, err, expected)
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("cannot reach the coordinator at %s: %w", url, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// refusal says what the worker lacked when err is the coordinator
// refusing its connection (a wrong token, a certificate the worker does
// not trust, TLS on one side only), "" for another error: trying again
// cannot help a refused worker.
func refusal(err error) string {
	var unknown x509.UnknownAuthorityError
	var host x509.HostnameError
	var verify *tls.CertificateVerificationError
	switch {
	case errors.Is(err, nats.ErrAuthorization):
		return "the run's token, in " + TokenEnv + " or -orders.token-file"
	case errors.Is(err, nats.ErrSecureConnWanted), errors.Is(err, nats.ErrSecureConnRequired):
		return "TLS on both sides: -orders.tls-cert and -orders.tls-key for the coordinator, -orders.tls-ca for its workers"
	case errors.As(err, &unknown), errors.As(err, &host), errors.As(err, &verify):
		return "-orders.tls-ca, the authority that signed the coordinator's certificate, which must name the address workers join"
	}
	return ""
}
