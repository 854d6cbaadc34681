package fanout_test

import (
	"bufio"
	"bytes"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
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
