package httpdoor

import "time"

// Limits bound an HTTP port. Zero values take the defaults.
type Limits struct {
	// Conns is how many connections the port holds at once, the reserve's
	// included. Default: half the process's descriptor limit (at least
	// 64), leaving the other half to gRPC, the database and NATS.
	Conns int
	// Anonymous is how many of them may be connections no request has
	// shown a credential on (default: half of Conns).
	Anonymous int
	// Reserve is how many connections are kept for health checks, taken
	// only when the others are full (default 8, at most a quarter of
	// Conns).
	Reserve int
	// HeaderTimeout bounds a request's headers, from the connection's
	// first byte or the end of the previous request (default 5 s).
	HeaderTimeout time.Duration
	// BodyTimeout bounds a request's body, from the end of its headers
	// (default 30 s): a body sent slowly, or not at all, is cut.
	BodyTimeout time.Duration
	// WriteTimeout bounds the answer, from the end of the request's
	// headers (default 2 min: beyond the longest wait a call may ask
	// for). Streams that call LongLived are exempt.
	WriteTimeout time.Duration
	// IdleTimeout bounds the wait for a connection's next request
	// (default 1 min).
	IdleTimeout time.Duration
}

// Defaults of Limits.
const (
	DefaultReserve       = 8
	DefaultHeaderTimeout = 5 * time.Second
	DefaultBodyTimeout   = 30 * time.Second
	DefaultWriteTimeout  = 2 * time.Minute
	DefaultIdleTimeout   = time.Minute
	minConns             = 64
)

// WithDefaults returns l with its zero values set to the defaults.
func (l Limits) WithDefaults() Limits {
	if l.Conns <= 0 {
		l.Conns = max(minConns, DescriptorLimit()/2)
	}
	if l.Reserve <= 0 {
		l.Reserve = min(DefaultReserve, max(1, l.Conns/4))
	}
	if l.Reserve >= l.Conns {
		l.Reserve = max(1, l.Conns/4)
	}
	if l.Anonymous <= 0 {
		l.Anonymous = max(1, l.Conns/2)
	}
	if l.HeaderTimeout <= 0 {
		l.HeaderTimeout = DefaultHeaderTimeout
	}
	if l.BodyTimeout <= 0 {
		l.BodyTimeout = DefaultBodyTimeout
	}
	if l.WriteTimeout <= 0 {
		l.WriteTimeout = DefaultWriteTimeout
	}
	if l.IdleTimeout <= 0 {
		l.IdleTimeout = DefaultIdleTimeout
	}
	return l
}
