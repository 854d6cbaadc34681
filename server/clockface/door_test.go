package clockface_test

import (
	"io"
	"net"
	"strings"
	"sync"
	"testing"
)

// door is the hall's HTTP port as a browser sees it: a relay on a port of
// its own to the hall's HTTP server. A test shuts it — the port refuses
// connections, as a stopped server's does, and open connections are cut —
// and opens it again, on the same port, to the same server or to one
// started again.
type door struct {
	t    *testing.T
	addr string // 127.0.0.1:port, kept across shut and open

	mu    sync.Mutex
	to    string // the hall's host:port
	l     net.Listener
	conns map[net.Conn]bool
	wg    sync.WaitGroup
}

// openDoor relays a new port to base ("http://host:port"), until the test
// ends.
func openDoor(t *testing.T, base string) *door {
	t.Helper()
	d := &door{t: t, addr: "127.0.0.1:0", conns: map[net.Conn]bool{}}
	d.open(base)
	t.Cleanup(func() {
		d.shut()
		d.wg.Wait()
	})
	return d
}

// url is the door's base URL.
func (d *door) url() string { return "http://" + d.addr }

// open starts relaying the door's port to base.
func (d *door) open(base string) {
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

// shut closes the port and cuts every connection through it.
func (d *door) shut() {
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

func (d *door) relay(c net.Conn) {
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
