package publish

import (
	"context"
	"time"
)

// Status is how the publisher fares, for the dashboard and /metrics.
type Status struct {
	Hall   string // the hall's id
	Stream string // its stream, HALL_<hall>
	// Connected: the current session reached the stream and publishes.
	Connected bool
	// Backlog is the number of outbox rows not yet in the stream, and
	// Oldest when the oldest of them was written (zero if none).
	Backlog uint64
	Oldest  time.Time
	// Published is the outbox row up to which the stream has the hall.
	Published uint64
	// Acked counts the messages the stream acknowledged since start.
	Acked uint64
	// Sessions counts the sessions started: 1 + the failures.
	Sessions uint64
	// LastError is the last failure ("" once a session reached the
	// stream again) and LastErrorAt when it happened.
	LastError   string
	LastErrorAt time.Time
	// Ahead: the stream holds the hall's messages that this database
	// never wrote (restored from an older backup); nothing is published
	// until the stream is started again (LastError says how).
	Ahead bool
	// Foreign counts the messages found in the stream that the hall did
	// not write (followers refuse them): NATS lets someone else write.
	Foreign uint64
}

// Age is how long the oldest row not yet published has waited at now.
func (s Status) Age(now time.Time) time.Duration {
	if s.Oldest.IsZero() {
		return 0
	}
	return max(now.Sub(s.Oldest), 0)
}

// Status returns how the publisher fares; the backlog is read from the
// store.
func (p *Publisher) Status(ctx context.Context) (Status, error) {
	o, err := p.store.OutboxState(ctx)
	p.mu.Lock()
	// Connected needs both: the session reached the stream, and the NATS
	// connection is up now (a publish waiting on a cut server fails only
	// at its timeout).
	up := p.opts.Conn == nil || p.opts.Conn.IsConnected()
	s := Status{Hall: p.opts.Hall, Stream: p.stream, Connected: p.connected && up, Acked: p.acked, Sessions: p.sessions,
		LastError: p.lastErr, LastErrorAt: p.lastErrAt, Ahead: p.ahead, Foreign: p.foreign}
	p.mu.Unlock()
	if err != nil {
		return s, err
	}
	s.Backlog, s.Oldest, s.Published = o.Backlog(), o.Oldest, o.Published
	return s, nil
}
