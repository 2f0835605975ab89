package cluster

import (
	"context"
	"errors"
	"fmt"

	"github.com/nats-io/nats.go"

	"github.com/presage-dvm/presage/orders"
)

// conn is an orders.Conn over a NATS connection: a message's headers
// are NATS headers, its reply subject NATS's.
type conn struct{ nc *nats.Conn }

var _ orders.Conn = conn{}

func newConn(nc *nats.Conn) conn { return conn{nc} }

func toNATS(m *orders.Message) *nats.Msg {
	nm := nats.NewMsg(m.Subject)
	nm.Reply, nm.Data = m.Reply, m.Data
	for k, v := range m.Header {
		nm.Header.Set(k, v)
	}
	return nm
}

func fromNATS(nm *nats.Msg) *orders.Message {
	m := &orders.Message{Subject: nm.Subject, Reply: nm.Reply, Data: nm.Data, Header: make(map[string]string, len(nm.Header))}
	for k := range nm.Header {
		m.Header[k] = nm.Header.Get(k)
	}
	return m
}

func (c conn) Publish(m *orders.Message) error { return c.nc.PublishMsg(toNATS(m)) }

func (c conn) Request(ctx context.Context, m *orders.Message) (*orders.Message, error) {
	r, err := c.nc.RequestMsgWithContext(ctx, toNATS(m))
	if errors.Is(err, nats.ErrNoResponders) {
		return nil, fmt.Errorf("%w: %s", orders.ErrNoResponders, m.Subject)
	}
	if err != nil {
		return nil, err
	}
	return fromNATS(r), nil
}

func (c conn) Subscribe(subject string, handle func(*orders.Message)) (func() error, error) {
	sub, err := c.nc.Subscribe(subject, func(nm *nats.Msg) { handle(fromNATS(nm)) })
	if err != nil {
		return nil, err
	}
	// Results and arguments may be megabytes each: never drop one.
	if err := sub.SetPendingLimits(-1, -1); err != nil {
		_ = sub.Unsubscribe()
		return nil, err
	}
	return sub.Unsubscribe, nil
}

func (c conn) NewInbox() string { return c.nc.NewInbox() }

func (c conn) Flush() error { return c.nc.Flush() }

func (c conn) Close() { c.nc.Close() }
