package main

import (
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"google.golang.org/protobuf/encoding/protojson"

	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// A sampled SSE watcher sees every board of every update, however long
// its data line: a merged update or a snapshot of thousands of boards is
// megabytes of JSON, longer than the watcher's read buffer. (The first
// buffer's worth of such a line was read after the buffer had been
// refilled, and those boards counted as never seen.)
func TestSSEWatcherSeesEveryBoardOfALongUpdate(t *testing.T) {
	const boards = 10000 // some 1.1 MB of JSON: several read buffers
	updates := [][]*pb.BoardState{nil, nil}
	f := &fleet{byBoard: map[string]*clock{}}
	for i := range boards {
		id := fmt.Sprintf("B%04d", i)
		f.byBoard[id] = &clock{board: id}
		updates[0] = append(updates[0], &pb.BoardState{BoardId: id, BoardSeq: 7, Result: "*", Fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"})
	}
	updates[1] = []*pb.BoardState{{BoardId: "B0001", BoardSeq: 8}} // and a short one after it
	var events [][]byte
	for i, bs := range updates {
		js, err := protojson.Marshal(&pb.WatchUpdate{Seq: uint64(i + 1), Snapshot: i == 0, Boards: bs})
		if err != nil {
			t.Fatal(err)
		}
		events = append(events, fmt.Appendf(nil, "id: %d\ndata: %s\n\n", i+1, js))
	}
	if n := len(events[0]); n < 3*sseReadBuffer {
		t.Fatalf("the long update is %d bytes, not several read buffers (%d)", n, sseReadBuffer)
	}
	for _, gz := range []bool{false, true} {
		t.Run(fmt.Sprintf("gzip=%v", gz), func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/event-stream")
				var out io.Writer = w
				var zw *gzip.Writer
				if gz && r.Header.Get("Accept-Encoding") == "gzip" {
					w.Header().Set("Content-Encoding", "gzip")
					zw = gzip.NewWriter(w)
					out = zw
				}
				for _, e := range events {
					_, _ = out.Write(e)
					if zw != nil {
						_ = zw.Flush()
					}
					w.(http.Flusher).Flush()
				}
				// The stream ends here; the watcher has read it all.
				if zw != nil {
					_ = zw.Close()
				}
			}))
			defer srv.Close()
			defer func(was bool) { sseGzip = was }(sseGzip)
			sseGzip = gz
			w := &watcher{set: &watcherSet{f: f}, sampled: true, first: make(chan struct{}), seen: map[string]uint64{}}
			err := w.sse(context.Background(), &http.Transport{DisableCompression: true}, srv.URL, "token")
			if err != io.EOF && err != io.ErrUnexpectedEOF {
				t.Fatalf("reading the stream: %v", err)
			}
			missed := 0
			for _, b := range updates[0] {
				want := b.GetBoardSeq()
				if b.GetBoardId() == "B0001" {
					want = 8
				}
				if got := w.seen[b.GetBoardId()]; got != want {
					if missed++; missed <= 3 {
						t.Errorf("board %s: seen at %d, want %d", b.GetBoardId(), got, want)
					}
				}
			}
			if missed > 0 {
				t.Errorf("%d of %d boards not seen as sent", missed, boards)
			}
			if got := w.set.updates.Load(); got != int64(len(events)) {
				t.Errorf("%d updates counted, want %d", got, len(events))
			}
		})
	}
}
