package halltest

import (
	"context"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// Watcher follows the whole hall through Watch.WatchHall as the chief
// arbiter and keeps the last state of every board. A stream that ends (the
// server restarts, a slow watcher is cut off) is resumed from the last
// sequence number seen, as a real watcher would.
type Watcher struct {
	mu     sync.Mutex
	latest map[string]*pb.BoardState
	seq    uint64
}

// WatchHall starts a Watcher; it stops at the end of the test.
func (h *Hall) WatchHall(t testing.TB) *Watcher {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	return Watch(ctx, h.Conn(t), h.Chief)
}

// Watch starts a Watcher of the hall at conn with token (chief or arbiter),
// until ctx ends.
func Watch(ctx context.Context, conn grpc.ClientConnInterface, token string) *Watcher {
	w := &Watcher{latest: map[string]*pb.BoardState{}}
	ctx = Ctx(ctx, token)
	client := pb.NewWatchClient(conn)
	go func() {
		for ctx.Err() == nil {
			stream, err := client.WatchHall(ctx, &pb.WatchHallRequest{FromSeq: w.Seq()})
			if err != nil {
				time.Sleep(10 * time.Millisecond)
				continue
			}
			for {
				u, err := stream.Recv()
				if err != nil {
					if status.Code(err) == codes.OutOfRange {
						w.mu.Lock()
						w.seq = 0 // the hall was restored: start over with a snapshot
						w.mu.Unlock()
					}
					break
				}
				w.mu.Lock()
				for _, b := range u.GetBoards() {
					w.latest[b.GetBoardId()] = b
				}
				w.seq = max(w.seq, u.GetSeq())
				w.mu.Unlock()
			}
			time.Sleep(10 * time.Millisecond)
		}
	}()
	return w
}

// Last returns the last state seen of a board, nil if none.
func (w *Watcher) Last(boardID string) *pb.BoardState {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.latest[boardID]
}

// Seq returns the highest sequence number seen.
func (w *Watcher) Seq() uint64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.seq
}

// Ruled keeps what the rules and the log decide of a board state, clearing
// the live fields (wall time, device online, pending commands, alerts,
// source) and the last ruling (which says who ruled and when: the server's
// record, not the rules'), for comparing states across restarts and
// replays.
func Ruled(s *pb.BoardState) *pb.BoardState {
	c := proto.Clone(s).(*pb.BoardState)
	c.ServerUnixMs, c.DeviceOnline, c.PendingCommands, c.Alerts, c.Source, c.LastRuling = 0, false, 0, nil, 0, nil
	return c
}
