package fanout_test

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/encoding/protojson"

	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/server/fanout"
)

// running is a board's state as a dashboard gets it while it plays.
func running(id string, seq uint64) *pb.BoardState {
	return &pb.BoardState{BoardId: id, BoardSeq: seq, AtMs: int64(seq) * 7919,
		Status: pb.BoardStatus_BOARD_STATUS_RUNNING, ToMove: pb.Side_SIDE_BLACK, Running: pb.Side_SIDE_BLACK,
		White: &pb.PlayerClock{RemainingMs: 283412 - int64(seq), Moves: int32(seq)}, Black: &pb.PlayerClock{RemainingMs: 271002, Moves: int32(seq)},
		Result: "*", Category: "blitz", ServerUnixMs: 1796659200123 + int64(seq), DeviceOnline: true, CountingResult: "*"}
}

// sseServer serves hub's whole-hall feed as the hall does.
func sseServer(t *testing.T, hub *fanout.Hub) *httptest.Server {
	t.Helper()
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fl := w.(http.Flusher)
		sub := hub.Subscribe(fanout.Scope{}, 0, time.Millisecond)
		defer sub.Close()
		fanout.SendSSE(r.Context(), w, fl, r, sub, nil)
	}))
	srv.Config.ConnContext = fanout.ConnContext
	srv.Start()
	t.Cleanup(srv.Close)
	return srv
}

// A client that takes gzip (a browser; Go's own client) gets the event
// stream gzipped, and each event whole as soon as it is sent — not when
// later bytes push it through the decompressor: the dashboard is live.
// Each update is compressed once for all its watchers, so the stream is
// the gzip header and then each update's bytes as they are.
func TestSSEGzippedEventByEvent(t *testing.T) {
	t.Parallel()
	hub := fanout.NewHub(0)
	for i := range 40 {
		hub.Publish("R1", running(fmt.Sprintf("b-%04d", i), 1), uint64(i+1))
	}
	srv := sseServer(t, hub)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL, nil)
	resp, err := srv.Client().Do(req) // Go asks for gzip and takes it apart
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if !resp.Uncompressed {
		t.Fatalf("the stream came as %q, not gzipped", resp.Header.Get("Content-Encoding"))
	}
	if v := resp.Header.Get("Vary"); !strings.Contains(v, "Accept-Encoding") {
		t.Errorf("Vary: %q, want Accept-Encoding in it (caches keep the encodings apart)", v)
	}
	events := bufio.NewReader(resp.Body)
	next := func() *pb.WatchUpdate {
		t.Helper()
		for {
			line, err := events.ReadBytes('\n')
			if err != nil {
				t.Fatalf("reading the gzipped stream: %v", err)
			}
			if data, ok := bytes.CutPrefix(line, []byte("data: ")); ok {
				u := &pb.WatchUpdate{}
				if err := protojson.Unmarshal(data, u); err != nil {
					t.Fatalf("an event's data: %v: %s", err, data)
				}
				return u
			}
		}
	}
	if u := next(); !u.GetSnapshot() || len(u.GetBoards()) != 40 {
		t.Fatalf("first event: snapshot %v with %d boards, want the 40", u.GetSnapshot(), len(u.GetBoards()))
	}
	// One board at a time: the reader has each before the next is made.
	for seq := uint64(2); seq <= 30; seq++ {
		id := fmt.Sprintf("b-%04d", seq)
		hub.Publish("R1", running(id, seq), 40+seq)
		u := next()
		if len(u.GetBoards()) != 1 || u.GetBoards()[0].GetBoardId() != id || u.GetBoards()[0].GetBoardSeq() != seq {
			t.Fatalf("after board %s's move %d the stream said %v", id, seq, u)
		}
	}
}

// The bytes of a gzipped stream are the gzip header and each update's
// SSEGzip as they are, which a gzip reader reads back as the plain
// stream's events; and a whole-hall snapshot goes in a fraction of its
// size (the saving the dashboards' feed is gzipped for).
func TestSSEGzipIsTheSameEventsSmaller(t *testing.T) {
	t.Parallel()
	hub := fanout.NewHub(0)
	for i := range 500 {
		hub.Publish("R1", running(fmt.Sprintf("b-%016x", i*7919), uint64(i%90+1)), uint64(i+1))
	}
	srv := sseServer(t, hub)
	// first reads the stream's first event as it comes on the wire,
	// with Accept-Encoding set by hand (Go then leaves the bytes alone).
	first := func(acceptEncoding string) (wire []byte, encoding string) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL, nil)
		req.Header.Set("Accept-Encoding", acceptEncoding)
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var b []byte
		buf := make([]byte, 64<<10)
		for {
			n, err := resp.Body.Read(buf)
			b = append(b, buf[:n]...)
			if err != nil {
				t.Fatalf("reading: %v", err)
			}
			plain := resp.Header.Get("Content-Encoding") == ""
			if plain && bytes.HasSuffix(b, []byte("\n\n")) || !plain && bytes.HasSuffix(b, []byte{0, 0, 0xff, 0xff}) && gunzipsTo(b, "\n\n") {
				return b, resp.Header.Get("Content-Encoding")
			}
		}
	}
	plain, enc := first("identity")
	if enc != "" {
		t.Fatalf("a client that does not take gzip got Content-Encoding %q", enc)
	}
	gz, enc := first("gzip, deflate, br, zstd")
	if enc != "gzip" {
		t.Fatalf("Chromium's Accept-Encoding got Content-Encoding %q", enc)
	}
	r, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(r)
	if err != io.ErrUnexpectedEOF { // the stream goes on: no trailer yet
		t.Fatalf("reading the gzipped event ended with %v", err)
	}
	if !bytes.Equal(got, plain) {
		t.Fatalf("the gzipped stream reads as %d bytes that are not the plain stream's %d", len(got), len(plain))
	}
	if 4*len(gz) > len(plain) {
		t.Errorf("a snapshot of 500 boards: %d bytes gzipped against %d plain; want a quarter or less", len(gz), len(plain))
	}
	t.Logf("a snapshot of 500 boards: %d bytes plain, %d gzipped (%.1f×)", len(plain), len(gz), float64(len(plain))/float64(len(gz)))
}

// gunzipsTo reports whether b, a gzip stream cut anywhere, reads to text
// that ends with suffix.
func gunzipsTo(b []byte, suffix string) bool {
	r, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return false
	}
	got, _ := io.ReadAll(r)
	return strings.HasSuffix(string(got), suffix)
}
