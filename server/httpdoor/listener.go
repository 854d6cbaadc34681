package httpdoor

import (
	"errors"
	"net"
	"net/http"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// class is what a connection holds a place as.
type class int8

const (
	anonymous class = iota // no request on it has shown a credential yet
	trusted                // one has
	reserve                // let in for health checks when the others were full
)

// Door is an HTTP port's door; see the package doc.
type Door struct {
	limits  Limits
	trusted func(*http.Request) bool
	health  func(*http.Request) bool

	refused [NumReasons]atomic.Uint64

	mu       sync.Mutex
	counts   [3]int  // open connections by class
	reserved []*conn // the reserve's connections, oldest first
}

// New returns the door of limits (their zero values the defaults).
// trusted says whether a request shows a valid credential; health
// whether it is a health check, answered on the reserve.
func New(limits Limits, trusted, health func(*http.Request) bool) *Door {
	return &Door{limits: limits.WithDefaults(), trusted: trusted, health: health}
}

// Limits returns the door's limits, defaults applied.
func (d *Door) Limits() Limits { return d.limits }

// Listen returns l with its connections counted and admitted by the
// door: one beyond every limit is closed at once (counted as refused).
func (d *Door) Listen(l net.Listener) net.Listener { return &listener{Listener: l, d: d} }

type listener struct {
	net.Listener
	d *Door
}

func (l *listener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if dc := l.d.admit(c); dc != nil {
			return dc, nil
		}
		_ = c.Close()
	}
}

// conn is an admitted connection.
type conn struct {
	net.Conn
	d       *Door
	class   class       // guarded by d.mu
	gone    bool        // guarded by d.mu: its place given up (closed, or made way)
	serving atomic.Bool // a reserve connection answering a health check
	// bodyDue: the read deadline in force is a request body's (the door
	// set it, and nothing has set another since), so a read that times
	// out cuts a body. settingBody is true while the door sets it.
	settingBody, bodyDue atomic.Bool
}

// NetConn returns the connection the door wraps (as tls.Conn's does), so
// that a handler can reach the TCP connection beneath.
func (c *conn) NetConn() net.Conn { return c.Conn }

func (c *conn) SetReadDeadline(t time.Time) error {
	c.bodyDue.Store(c.settingBody.Load() && !t.IsZero())
	return c.Conn.SetReadDeadline(t)
}

func (c *conn) SetDeadline(t time.Time) error {
	c.bodyDue.Store(false)
	return c.Conn.SetDeadline(t)
}

// Read counts the cut of a body that did not come in time, once.
func (c *conn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if err != nil && errors.Is(err, os.ErrDeadlineExceeded) && c.bodyDue.CompareAndSwap(true, false) {
		c.d.refused[RefusedBodyTimeout].Add(1)
	}
	return n, err
}

func (c *conn) Close() error {
	c.d.release(c)
	return c.Conn.Close()
}

// general is how many connections may be open outside the reserve.
func (d *Door) generalLocked() int { return d.counts[anonymous] + d.counts[trusted] }

// admit gives c a place, or nil: anonymous while there is room, else one
// of the reserve, else the place of the oldest reserve connection that is
// not answering a health check (it has asked nothing yet, or was refused:
// it is closed), else none.
func (d *Door) admit(c net.Conn) *conn {
	dc := &conn{Conn: c, d: d}
	var evicted *conn
	d.mu.Lock()
	switch {
	case d.generalLocked() < d.limits.Conns-d.limits.Reserve && d.counts[anonymous] < d.limits.Anonymous:
		dc.class = anonymous
	case d.counts[reserve] < d.limits.Reserve:
		dc.class = reserve
	default:
		for i, r := range d.reserved {
			if !r.serving.Load() {
				evicted = r
				r.gone = true
				d.reserved = slices.Delete(d.reserved, i, i+1)
				d.counts[reserve]--
				break
			}
		}
		if evicted == nil {
			d.mu.Unlock()
			d.refused[RefusedFull].Add(1)
			return nil
		}
		dc.class = reserve
	}
	d.counts[dc.class]++
	if dc.class == reserve {
		d.reserved = append(d.reserved, dc)
	}
	d.mu.Unlock()
	if evicted != nil {
		d.refused[RefusedMadeWay].Add(1)
		_ = evicted.Conn.Close()
	}
	return dc
}

// release gives up c's place, once.
func (d *Door) release(c *conn) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if c.gone {
		return
	}
	c.gone = true
	d.counts[c.class]--
	if c.class == reserve {
		d.dropReservedLocked(c)
	}
}

func (d *Door) dropReservedLocked(c *conn) {
	for i, r := range d.reserved {
		if r == c {
			d.reserved = slices.Delete(d.reserved, i, i+1)
			return
		}
	}
}

// trust makes c a trusted connection if it is not one: at once from the
// anonymous ones, from the reserve if the others have room. It reports
// whether c is trusted.
func (d *Door) trust(c *conn) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	switch {
	case c.gone:
		return false
	case c.class == trusted:
		return true
	case c.class == reserve && d.generalLocked() >= d.limits.Conns-d.limits.Reserve:
		return false
	}
	d.counts[c.class]--
	if c.class == reserve {
		d.dropReservedLocked(c)
	}
	c.class = trusted
	d.counts[trusted]++
	return true
}

// classOf returns c's class now.
func (d *Door) classOf(c *conn) class {
	d.mu.Lock()
	defer d.mu.Unlock()
	return c.class
}
