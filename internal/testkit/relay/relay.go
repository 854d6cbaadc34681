// Package relay is a test's stand-in for a hall's HTTP port as a browser
// sees it: a relay on a port of its own that a test can shut (the port
// refuses connections, as a stopped server's does, and open connections
// are cut) and open again, on the same port, to the same hall or to one
// started again. The pages' offline tests (the dashboard, the clock face)
// stop the hall this way without stopping it.
package relay

import (
	"io"
	"net"
	"strings"
	"sync"
	"testing"
)

// Door is the hall's HTTP port as a browser sees it: a relay on a port of
// its own to the hall's HTTP server.
type Door struct {
	t    *testing.T
	addr string // 127.0.0.1:port, kept across shut and open

	mu    sync.Mutex
	to    string // the hall's host:port
	l     net.Listener
	conns map[net.Conn]bool
	wg    sync.WaitGroup
}

// Open relays a new port to base ("http://host:port"), until the test
// ends.
func Open(t *testing.T, base string) *Door {
	t.Helper()
	d := &Door{t: t, addr: "127.0.0.1:0", conns: map[net.Conn]bool{}}
	d.Open(base)
	t.Cleanup(func() {
		d.Shut()
		d.wg.Wait()
	})
	return d
}

// URL is the door's base URL.
func (d *Door) URL() string { return "http://" + d.addr }

// Open starts relaying the door's port to base again (after Shut).
func (d *Door) Open(base string) {
	d.t.Helper()
	l, err := net.Listen("tcp", d.addr)
	if err != nil {
		d.t.Fatalf("the door's port %s: %v", d.addr, err)
	}
	d.mu.Lock()
	d.addr, d.to, d.l = l.Addr().String(), strings.TrimPrefix(base, "http://"), l
	d.mu.Unlock()
	d.wg.Add(1)
	go func() {
		defer d.wg.Done()
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			d.wg.Add(1)
			go func() {
				defer d.wg.Done()
				d.relay(c)
			}()
		}
	}()
}

// Shut closes the port and cuts every connection through it.
func (d *Door) Shut() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.l != nil {
		d.l.Close()
		d.l = nil
	}
	for c := range d.conns {
		c.Close()
	}
}

func (d *Door) relay(c net.Conn) {
	d.mu.Lock()
	to, open := d.to, d.l != nil
	d.mu.Unlock()
	if !open {
		c.Close()
		return
	}
	s, err := net.Dial("tcp", to)
	if err != nil {
		c.Close()
		return
	}
	d.mu.Lock()
	if d.l == nil { // shut meanwhile
		d.mu.Unlock()
		c.Close()
		s.Close()
		return
	}
	d.conns[c], d.conns[s] = true, true
	d.mu.Unlock()
	done := make(chan struct{}, 2)
	pipe := func(dst, src net.Conn) {
		_, _ = io.Copy(dst, src)
		done <- struct{}{}
	}
	go pipe(s, c)
	go pipe(c, s)
	<-done // one side ended: end both
	c.Close()
	s.Close()
	<-done
	d.mu.Lock()
	delete(d.conns, c)
	delete(d.conns, s)
	d.mu.Unlock()
}
