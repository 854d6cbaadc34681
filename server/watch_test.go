package server_test

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"maps"
	"slices"
	"sort"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/chesshall/hallclock/clockdev"
	"github.com/chesshall/hallclock/internal/testkit/halltest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
	"github.com/chesshall/hallclock/server"
)

// fastWatch makes watchers coalesce over 10 ms instead of 100.
var fastWatch = halltest.WithOptions(server.Options{WatchInterval: 10 * time.Millisecond})

// watchStream reads a watch stream on its own goroutine.
type watchStream struct {
	updates chan *pb.WatchUpdate
	err     chan error
	cancel  context.CancelFunc
}

type opener func(ctx context.Context, c pb.WatchClient) (grpc.ServerStreamingClient[pb.WatchUpdate], error)

func watchHall(from uint64) opener {
	return func(ctx context.Context, c pb.WatchClient) (grpc.ServerStreamingClient[pb.WatchUpdate], error) {
		return c.WatchHall(ctx, &pb.WatchHallRequest{FromSeq: from})
	}
}

func watchRound(id string, from uint64) opener {
	return func(ctx context.Context, c pb.WatchClient) (grpc.ServerStreamingClient[pb.WatchUpdate], error) {
		return c.WatchRound(ctx, &pb.WatchRoundRequest{RoundId: id, FromSeq: from})
	}
}

func watchBoard(id string, from uint64) opener {
	return func(ctx context.Context, c pb.WatchClient) (grpc.ServerStreamingClient[pb.WatchUpdate], error) {
		return c.WatchBoard(ctx, &pb.WatchBoardRequest{BoardId: id, FromSeq: from})
	}
}

// openWatch opens a watch stream with token on a connection of its own.
func openWatch(t *testing.T, h *halltest.Hall, token string, open opener) *watchStream {
	t.Helper()
	ctx, cancel := context.WithCancel(halltest.Ctx(context.Background(), token))
	t.Cleanup(cancel)
	s, err := open(ctx, pb.NewWatchClient(h.Conn(t)))
	if err != nil {
		t.Fatal(err)
	}
	w := &watchStream{updates: make(chan *pb.WatchUpdate, 1024), err: make(chan error, 1), cancel: cancel}
	go func() {
		for {
			u, err := s.Recv()
			if err != nil {
				w.err <- err
				return
			}
			w.updates <- u
		}
	}()
	return w
}

// next returns the stream's next update, failing the test after timeout.
func (w *watchStream) next(t *testing.T, timeout time.Duration) *pb.WatchUpdate {
	t.Helper()
	select {
	case u := <-w.updates:
		return u
	case err := <-w.err:
		t.Fatalf("watch stream ended: %v", err)
	case <-time.After(timeout):
		t.Fatalf("no watch update in %s", timeout)
	}
	return nil
}

// end waits for the stream to end and returns its error.
func (w *watchStream) end(t *testing.T, timeout time.Duration) error {
	t.Helper()
	deadline := time.After(timeout)
	for {
		select {
		case <-w.updates:
		case err := <-w.err:
			return err
		case <-deadline:
			t.Fatalf("watch stream still open after %s", timeout)
		}
	}
}

// boardsNow returns every board's state as GetBoard gives it.
func getBoards(t *testing.T, h *halltest.Hall, ids []string) map[string]*pb.BoardState {
	t.Helper()
	arb, ctx := h.Arbiter(t)
	out := map[string]*pb.BoardState{}
	for _, id := range ids {
		b, err := arb.GetBoard(ctx, &pb.GetBoardRequest{BoardId: id})
		if err != nil {
			t.Fatal(err)
		}
		out[id] = b.GetState()
	}
	return out
}

// committed strips from a board state what differs between the committed
// state and GetBoard's projection to board time now: the time it describes,
// the wall clock, and the running side's clock.
func committedPart(s *pb.BoardState) *pb.BoardState {
	c := proto.Clone(s).(*pb.BoardState)
	c.AtMs, c.ServerUnixMs, c.NextDeadlineMs = 0, 0, 0
	// A running clock's remaining time, delay and time used move on with
	// the time of the projection.
	switch c.GetRunning() {
	case pb.Side_SIDE_WHITE:
		c.White.RemainingMs, c.White.DelayLeftMs, c.White.UsedMs = 0, 0, 0
	case pb.Side_SIDE_BLACK:
		c.Black.RemainingMs, c.Black.DelayLeftMs, c.Black.UsedMs = 0, 0, 0
	}
	return c
}

// watchView is what a watcher holds: the latest state of each board.
type watchView map[string]*pb.BoardState

// apply folds an update into the view.
func (v watchView) apply(u *pb.WatchUpdate) {
	if u.GetSnapshot() {
		clear(v)
	}
	for _, b := range u.GetBoards() {
		v[b.GetBoardId()] = b
	}
}

// catchUp reads updates into v until every board of want is at want's
// board_seq, and returns the updates read.
func (w *watchStream) catchUp(t *testing.T, v watchView, want map[string]*pb.BoardState) []*pb.WatchUpdate {
	t.Helper()
	var got []*pb.WatchUpdate
	deadline := time.Now().Add(5 * time.Second)
	for {
		behind := ""
		for id, s := range want {
			if h, ok := v[id]; !ok || h.GetBoardSeq() < s.GetBoardSeq() {
				behind = fmt.Sprintf("board %s at %d of %d", id, h.GetBoardSeq(), s.GetBoardSeq())
			}
		}
		if behind == "" {
			return got
		}
		left := time.Until(deadline)
		if left <= 0 {
			t.Fatalf("watcher did not catch up: %s", behind)
		}
		u := w.next(t, left)
		v.apply(u)
		got = append(got, u)
	}
}

func boardIDsOf(bs []*pb.Board) []string {
	var out []string
	for _, b := range bs {
		out = append(out, b.GetBoardId())
	}
	return out
}

func sortedUpdateIDs(u *pb.WatchUpdate) []string {
	out := updateBoardIDs(u)
	sort.Strings(out)
	return out
}

// addRound adds a tournament with one round of n boards, each with a
// device named prefix-<i> (or none if prefix is "").
func addOtherRound(t *testing.T, h *halltest.Hall, n int, prefix string) []*pb.Board {
	t.Helper()
	arb, ctx := h.Arbiter(t)
	tr, err := arb.CreateTournament(ctx, &pb.CreateTournamentRequest{Name: "second " + t.Name(), DefaultConfig: &pb.ClockConfig{TimeControl: "300+2"}})
	if err != nil {
		t.Fatal(err)
	}
	r, err := arb.CreateRound(ctx, &pb.CreateRoundRequest{TournamentId: tr.GetTournamentId(), Number: 1})
	if err != nil {
		t.Fatal(err)
	}
	var out []*pb.Board
	for i := 1; i <= n; i++ {
		req := &pb.AddBoardRequest{RoundId: r.GetRoundId(), Number: int32(i),
			White: &pb.Player{Name: fmt.Sprintf("W%d", i)}, Black: &pb.Player{Name: fmt.Sprintf("B%d", i)}}
		if prefix != "" {
			req.DeviceId = fmt.Sprintf("%s-%d", prefix, i)
		}
		b, err := arb.AddBoard(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}

func watchStartRound(t *testing.T, h *halltest.Hall, roundID string) {
	t.Helper()
	arb, ctx := h.Arbiter(t)
	r, err := arb.StartRound(ctx, &pb.StartRoundRequest{RoundId: roundID})
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range r.GetBoards() {
		if b.GetStatus() != pb.CommandStatus_COMMAND_STATUS_APPLIED {
			t.Fatalf("StartRound: board %s %v (%s), want APPLIED", b.GetBoardId(), b.GetStatus(), b.GetMessage())
		}
	}
}

// presses makes n moves on a device, alternating from whoever is to move.
func pressN(t *testing.T, d *clockdev.Device, n int) {
	t.Helper()
	for range n {
		press(t, d, d.State().ToMove)
	}
}

// The first message of WatchHall, WatchRound and WatchBoard is a snapshot
// holding every board in scope, and nothing else.
func TestWatchFirstMessageIsSnapshot(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t, fastWatch)
	r1 := h.Round(t, "300+2", 3)
	r2 := addOtherRound(t, h, 2, "")
	all := append(boardIDsOf(r1), boardIDsOf(r2)...)
	now := getBoards(t, h, all)
	for _, tc := range []struct {
		name string
		open opener
		want []string
	}{
		{"WatchHall", watchHall(0), all},
		{"WatchRound 1", watchRound(r1[0].GetRoundId(), 0), boardIDsOf(r1)},
		{"WatchRound 2", watchRound(r2[0].GetRoundId(), 0), boardIDsOf(r2)},
		{"WatchBoard", watchBoard(r1[1].GetBoardId(), 0), []string{r1[1].GetBoardId()}},
	} {
		u := openWatch(t, h, h.Chief, tc.open).next(t, 5*time.Second)
		want := slices.Clone(tc.want)
		sort.Strings(want)
		if !u.GetSnapshot() || !slices.Equal(sortedUpdateIDs(u), want) {
			t.Errorf("%s first message: snapshot %v, boards %v; want true, %v", tc.name, u.GetSnapshot(), sortedUpdateIDs(u), want)
		}
		if last := h.Server.Hub().LastSeq(); u.GetSeq() != last {
			t.Errorf("%s first message seq %d, want the hall's %d", tc.name, u.GetSeq(), last)
		}
		for _, b := range u.GetBoards() {
			if !proto.Equal(committedPart(b), committedPart(now[b.GetBoardId()])) {
				t.Errorf("%s: board %s is %v, GetBoard says %v", tc.name, b.GetBoardId(), b, now[b.GetBoardId()])
			}
		}
	}
}

// After presses, updates arrive with seq never going down and each board's
// board_seq never going down, until the watcher holds what GetBoard says;
// the last seq is the store's last hall-wide seq.
func TestWatchUpdatesAfterPresses(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t, fastWatch)
	boards := h.Round(t, "300+2", 2)
	d0, d1 := h.Device(t, boards[0].GetDeviceId()), h.Device(t, boards[1].GetDeviceId())
	w := openWatch(t, h, h.Chief, watchRound(boards[0].GetRoundId(), 0))
	v := watchView{}
	first := w.next(t, 5*time.Second)
	v.apply(first)
	watchStartRound(t, h, boards[0].GetRoundId())
	pressN(t, d0, 4)
	pressN(t, d1, 2)
	halltest.Synced(t, d0)
	halltest.Synced(t, d1)
	want := getBoards(t, h, boardIDsOf(boards))
	ups := w.catchUp(t, v, want)
	seq, boardSeq := first.GetSeq(), map[string]uint64{}
	for _, u := range ups {
		if u.GetSeq() < seq {
			t.Errorf("update seq %d after %d", u.GetSeq(), seq)
		}
		seq = u.GetSeq()
		for _, b := range u.GetBoards() {
			if b.GetBoardSeq() < boardSeq[b.GetBoardId()] {
				t.Errorf("board %s: board_seq %d after %d", b.GetBoardId(), b.GetBoardSeq(), boardSeq[b.GetBoardId()])
			}
			boardSeq[b.GetBoardId()] = b.GetBoardSeq()
		}
	}
	if seq <= first.GetSeq() {
		t.Errorf("seq after 8 events is %d, want more than the snapshot's %d", seq, first.GetSeq())
	}
	last, err := h.Store.LastSeq(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if seq != last {
		t.Errorf("watcher's last seq %d, want the store's last hall-wide seq %d", seq, last)
	}
	for id, s := range want {
		if !proto.Equal(committedPart(v[id]), committedPart(s)) {
			t.Errorf("watcher holds board %s as\n %v\nGetBoard says\n %v", id, v[id], s)
		}
	}
}

// A watcher that disconnects mid-game and reconnects with the last seq it
// received gets exactly the boards changed meanwhile (a board added too):
// nothing it already had, nothing missing, and ends with GetBoard's states.
func TestWatchResume(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t, fastWatch)
	boards := h.Round(t, "300+2", 3)
	var devs []*clockdev.Device
	for _, b := range boards {
		devs = append(devs, h.Device(t, b.GetDeviceId()))
	}
	roundID := boards[0].GetRoundId()
	watchStartRound(t, h, roundID)
	w := openWatch(t, h, h.Chief, watchHall(0))
	v := watchView{}
	for _, d := range devs {
		pressN(t, d, 2)
		halltest.Synced(t, d)
	}
	ups := w.catchUp(t, v, getBoards(t, h, boardIDsOf(boards)))
	last := ups[len(ups)-1].GetSeq()
	held := maps.Clone(v)
	w.cancel()
	_ = w.end(t, 5*time.Second)

	// Play on while the watcher is away: boards 0 and 2 move, board 1 does
	// not, and a board is added to the round.
	pressN(t, devs[0], 2)
	pressN(t, devs[2], 3)
	halltest.Synced(t, devs[0])
	halltest.Synced(t, devs[2])
	arb, ctx := h.Arbiter(t)
	added, err := arb.AddBoard(ctx, &pb.AddBoardRequest{RoundId: roundID, Number: 4, White: &pb.Player{Name: "Late"}, Black: &pb.Player{Name: "Comer"}})
	if err != nil {
		t.Fatal(err)
	}
	all := append(boardIDsOf(boards), added.GetBoardId())
	want := getBoards(t, h, all)

	w = openWatch(t, h, h.Chief, watchHall(last))
	ups = w.catchUp(t, v, want)
	if ups[0].GetSnapshot() {
		t.Errorf("first update after resuming from %d is a snapshot, want only the changes", last)
	}
	received := map[string]int{}
	for _, u := range ups {
		for _, b := range u.GetBoards() {
			received[b.GetBoardId()]++
			if had, ok := held[b.GetBoardId()]; ok && b.GetBoardSeq() <= had.GetBoardSeq() {
				t.Errorf("after resuming, board %s at board_seq %d, which it had (%d)", b.GetBoardId(), b.GetBoardSeq(), had.GetBoardSeq())
			}
		}
	}
	wantChanged := []string{boards[0].GetBoardId(), boards[2].GetBoardId(), added.GetBoardId()}
	sort.Strings(wantChanged)
	gotChanged := slices.Sorted(maps.Keys(received))
	if !slices.Equal(gotChanged, wantChanged) {
		t.Errorf("after resuming, boards received %v, want exactly the changed %v", gotChanged, wantChanged)
	}
	for _, id := range all {
		if !proto.Equal(committedPart(v[id]), committedPart(want[id])) {
			t.Errorf("after resuming the watcher holds board %s as\n %v\nGetBoard says\n %v", id, v[id], want[id])
		}
	}
	// Nothing more is pending: a further update would be a duplicate.
	select {
	case u := <-w.updates:
		t.Errorf("after catching up, an extra update %v", u)
	case <-time.After(100 * time.Millisecond):
	}
}

// WatchRound of a round that does not exist is refused.
func TestWatchRoundUnknown(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t)
	err := openWatch(t, h, h.Chief, watchRound("r-nosuchround", 0)).end(t, 5*time.Second)
	if c := status.Code(err); c != codes.InvalidArgument && c != codes.NotFound {
		t.Errorf("WatchRound(unknown) = %v, want InvalidArgument or NotFound", err)
	}
}

// A watcher of a round never sees boards of another round, and a watcher of
// a board never sees another board, while both rounds are played.
func TestWatchScopeIsolation(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t, fastWatch)
	r1 := h.Round(t, "300+2", 2)
	r2 := addOtherRound(t, h, 2, "CLK-2")
	var devs []*clockdev.Device
	for _, b := range append(slices.Clone(r1), r2...) {
		devs = append(devs, h.Device(t, b.GetDeviceId()))
	}
	wr := openWatch(t, h, h.Chief, watchRound(r1[0].GetRoundId(), 0))
	wb := openWatch(t, h, h.Chief, watchBoard(r2[1].GetBoardId(), 0))
	wh := openWatch(t, h, h.Chief, watchHall(0))
	watchStartRound(t, h, r1[0].GetRoundId())
	watchStartRound(t, h, r2[0].GetRoundId())
	for i, d := range devs {
		pressN(t, d, i+1)
	}
	for _, d := range devs {
		halltest.Synced(t, d)
	}
	all := append(boardIDsOf(r1), boardIDsOf(r2)...)
	now := getBoards(t, h, all)
	// The hall watcher catching up shows every change has been published.
	wh.catchUp(t, watchView{}, now)
	for _, tc := range []struct {
		name  string
		w     *watchStream
		scope []string
	}{
		{"WatchRound", wr, boardIDsOf(r1)},
		{"WatchBoard", wb, []string{r2[1].GetBoardId()}},
	} {
		want := map[string]*pb.BoardState{}
		for _, id := range tc.scope {
			want[id] = now[id]
		}
		v := watchView{}
		tc.w.catchUp(t, v, want)
		for id := range v {
			if !slices.Contains(tc.scope, id) {
				t.Errorf("%s of %v received board %s", tc.name, tc.scope, id)
			}
		}
	}
}

// Shutdown ends every watch stream promptly with Unavailable: graceful
// shutdown does not wait for open streams.
func TestWatchShutdownEndsStreams(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t, fastWatch)
	boards := h.Round(t, "300+2", 2)
	var ws []*watchStream
	for _, open := range []opener{
		watchHall(0), watchHall(0), watchRound(boards[0].GetRoundId(), 0),
		watchBoard(boards[0].GetBoardId(), 0), watchBoard(boards[1].GetBoardId(), 0),
	} {
		w := openWatch(t, h, h.Chief, open)
		w.next(t, 5*time.Second)
		ws = append(ws, w)
	}
	const grace = 2 * time.Second
	start := time.Now()
	h.Server.Shutdown(grace)
	if d := time.Since(start); d > grace+time.Second {
		t.Errorf("Shutdown(%v) with 5 watch streams open took %v, want at most %v", grace, d, grace+time.Second)
	}
	for i, w := range ws {
		if err := w.end(t, 2*time.Second); status.Code(err) != codes.Unavailable {
			t.Errorf("watch stream %d ended with %v, want %v", i, err, codes.Unavailable)
		}
	}
}

func selfSigned(t *testing.T) (*tls.Config, *x509.CertPool) {
	cfg, pool, _ := halltest.SelfSigned(t)
	return cfg, pool
}

// The hall serves over TLS: a client trusting its certificate watches the
// hall (and a device plays through it); a plain-text client gets nowhere.
func TestWatchOverTLS(t *testing.T) {
	t.Parallel()
	cfg, pool := selfSigned(t)
	for _, tr := range []struct {
		name string
		opts []halltest.Option
	}{{"bufconn", nil}, {"loopback", []halltest.Option{halltest.OnLoopback()}}} {
		t.Run(tr.name, func(t *testing.T) {
			h := halltest.Start(t, append(tr.opts, fastWatch, halltest.WithTLS(cfg, pool))...)
			boards := h.Round(t, "300+2", 1)
			d := h.Device(t, boards[0].GetDeviceId())
			w := openWatch(t, h, h.Chief, watchHall(0))
			v := watchView{}
			if u := w.next(t, 5*time.Second); !u.GetSnapshot() || len(u.GetBoards()) != 1 {
				t.Errorf("first message over TLS: %v, want a snapshot of 1 board", u)
			} else {
				v.apply(u)
			}
			watchStartRound(t, h, boards[0].GetRoundId())
			press(t, d, rules.White)
			halltest.Synced(t, d)
			w.catchUp(t, v, getBoards(t, h, boardIDsOf(boards)))

			if tr.name == "loopback" {
				conn, err := grpc.NewClient(h.Addr(), grpc.WithTransportCredentials(insecure.NewCredentials()))
				if err != nil {
					t.Fatal(err)
				}
				defer conn.Close()
				ctx, cancel := context.WithTimeout(halltest.Ctx(context.Background(), h.Chief), 2*time.Second)
				defer cancel()
				_, err = pb.NewArbiterClient(conn).ListBoards(ctx, &pb.ListBoardsRequest{})
				if c := status.Code(err); c != codes.Unavailable && c != codes.DeadlineExceeded {
					t.Errorf("plain-text ListBoards against a TLS server = %v, want Unavailable", err)
				}
			}
		})
	}
}

// updateBoardIDs lists the boards of an update, in its order.
func updateBoardIDs(u *pb.WatchUpdate) []string {
	var ids []string
	for _, b := range u.GetBoards() {
		ids = append(ids, b.GetBoardId())
	}
	return ids
}
