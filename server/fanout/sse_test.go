package fanout_test

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"google.golang.org/protobuf/encoding/protojson"

	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/server/fanout"
)

// An event-stream client that stops reading holds up only a little of the
// stream in buffers: reading again, it soon gets a fresh snapshot, not the
// updates of the time it did not read. The client here has small buffers
// (a phone on venue Wi-Fi); its server's send buffer alone (256 KB, which
// Linux doubles) would hold half a megabyte of stale updates if the server
// wrote whenever the socket took bytes.
func TestSSEStalledClientGetsSnapshot(t *testing.T) {
	t.Parallel()
	hub := fanout.NewHub(0)
	boardID := func(i int) string { return fmt.Sprintf("%04d-%s", i, strings.Repeat("b", 1000)) }
	for i := range 20 {
		hub.Publish("R1", hubState(boardID(i), 1, 0), uint64(i+1))
	}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fl := w.(http.Flusher)
		sub := hub.Subscribe(fanout.Scope{}, 0, 5*time.Millisecond)
		defer sub.Close()
		fanout.SendSSE(r.Context(), w, fl, r, sub, nil)
	}))
	srv.Config.ConnContext = fanout.ConnContext
	srv.Start()
	defer srv.Close()

	d := net.Dialer{Control: func(_, _ string, c syscall.RawConn) error {
		var serr error
		err := c.Control(func(fd uintptr) { serr = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 16<<10) })
		if err != nil {
			return err
		}
		return serr
	}}
	conn, err := d.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.Write([]byte("GET / HTTP/1.1\r\nHost: hall\r\n\r\n")); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReaderSize(conn, 4<<10), nil)
	if err != nil {
		t.Fatal(err)
	}
	events := bufio.NewReaderSize(resp.Body, 4<<10)
	// next returns the next update and the bytes of its event.
	next := func() (*pb.WatchUpdate, int) {
		t.Helper()
		_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
		size := 0
		for {
			line, err := events.ReadBytes('\n')
			size += len(line)
			if err != nil {
				t.Fatalf("reading the stream: %v", err)
			}
			if data, ok := bytes.CutPrefix(line, []byte("data: ")); ok {
				u := &pb.WatchUpdate{}
				if err := protojson.Unmarshal(data, u); err != nil {
					t.Fatalf("event data: %v", err)
				}
				return u, size
			}
		}
	}
	if u, _ := next(); !u.GetSnapshot() || len(u.GetBoards()) != 20 {
		t.Fatalf("first update: snapshot %v with %d boards, want a snapshot of 20", u.GetSnapshot(), len(u.GetBoards()))
	}

	// The client stops reading for half a second while every board
	// changes every millisecond or so: ~4 MB of updates offered.
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	var seq uint64 = 20
	go func() {
		defer wg.Done()
		for v := int64(1); ; v++ {
			select {
			case <-stop:
				return
			default:
			}
			for i := range 20 {
				seq++
				hub.Publish("R1", hubState(boardID(i), uint64(v+1), v), seq)
			}
			time.Sleep(time.Millisecond)
		}
	}()
	time.Sleep(500 * time.Millisecond)
	close(stop)
	wg.Wait()

	// What was in flight comes first (a snapshot among it, if the server
	// found the client behind before it stopped taking), then a snapshot
	// of now.
	before, updates := 0, 0
	for {
		u, size := next()
		if u.GetSnapshot() && u.GetSeq() == seq {
			if len(u.GetBoards()) != 20 {
				t.Errorf("snapshot after resuming: %d boards, want 20", len(u.GetBoards()))
			}
			break
		}
		before += size
		updates++
	}
	t.Logf("after resuming: %d updates, %d KB, then a snapshot of now", updates, before>>10)
	if before > 256<<10 {
		t.Errorf("after resuming, %d updates (%d KB) of the stalled time came before a snapshot of now; want at most 256 KB in flight", updates, before>>10)
	}
}

// Each update of an event stream goes to the connection in one write,
// small or larger than net/http's buffers, plain or gzipped: a thousand
// dashboards make tens of thousands of updates a second, and a chunked
// body took two or three writes for each.
func TestSSEWritesEachUpdateOnce(t *testing.T) {
	t.Parallel()
	for _, gz := range []bool{false, true} {
		t.Run(fmt.Sprintf("gzip %v", gz), func(t *testing.T) {
			t.Parallel()
			hub := fanout.NewHub(0)
			hub.Publish("R1", hubState("b0", 1, 0), 1)
			sent := make(chan struct{}, 1)
			var writes atomic.Int64
			srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				sub := hub.Subscribe(fanout.Scope{}, 0, 0)
				defer sub.Close()
				fanout.SendSSE(r.Context(), w, w.(http.Flusher), r, sub, func() { sent <- struct{}{} })
			}))
			srv.Listener = countingListener{srv.Listener, &writes}
			srv.Config.ConnContext = fanout.ConnContext
			srv.Start()
			defer srv.Close()

			req, _ := http.NewRequest(http.MethodGet, srv.URL, nil)
			if gz {
				req.Header.Set("Accept-Encoding", "gzip")
			}
			resp, err := (&http.Client{Transport: &http.Transport{DisableCompression: true}}).Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			if len(resp.TransferEncoding) != 0 || resp.ContentLength != -1 || !resp.Close {
				t.Errorf("the stream is sent with transfer encoding %v, length %d, close %v; want its body to end with the connection",
					resp.TransferEncoding, resp.ContentLength, resp.Close)
			}
			<-sent // the first update, a snapshot
			seq := uint64(1)
			for _, size := range []int{100, 1_500, 3_000, 6_000, 20_000} {
				before := writes.Load()
				seq++
				// Random hex: gzip leaves it about half as large.
				hub.Publish("R1", hubState("b-"+randomHex(t, size), seq, 0), seq)
				select {
				case <-sent:
				case <-time.After(10 * time.Second):
					t.Fatalf("the update of %d bytes was not sent", size)
				}
				if n := writes.Load() - before; n != 1 {
					t.Errorf("an update with a board id of %d bytes took %d writes, want 1", size, n)
				}
			}
		})
	}
}

func randomHex(t *testing.T, n int) string {
	b := make([]byte, (n+1)/2)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b)[:n]
}

// countingListener counts the writes to the connections it accepts.
type countingListener struct {
	net.Listener
	writes *atomic.Int64
}

func (l countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return countingConn{c, l.writes}, nil
}

type countingConn struct {
	net.Conn
	writes *atomic.Int64
}

func (c countingConn) Write(p []byte) (int, error) {
	c.writes.Add(1)
	return c.Conn.Write(p)
}

// NetConn lets SendSSE find the TCP connection beneath.
func (c countingConn) NetConn() net.Conn { return c.Conn }
