package gateway_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/chesshall/hallclock/clockdev/sim"
	"github.com/chesshall/hallclock/internal/testkit/halltest"
	"github.com/chesshall/hallclock/internal/testkit/longtest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/server"
	"github.com/chesshall/hallclock/server/gateway"
)

// tmpDir is a directory on tmpfs when there is one: these tests check
// what the hall and its followers record, not the disk.
func tmpDir(t *testing.T) string {
	t.Helper()
	if fi, err := os.Stat("/dev/shm"); err == nil && fi.IsDir() {
		if dir, err := os.MkdirTemp("/dev/shm", "gateway-test-"); err == nil {
			t.Cleanup(func() { os.RemoveAll(dir) })
			return dir
		}
	}
	return t.TempDir()
}

// playRound plays one round of boards on e-boards to its end with the
// simulated fleet and returns the round's id.
func playRound(t *testing.T, h *publishedHall, speed float64, tournament string, boards int) string {
	t.Helper()
	f, err := sim.New(sim.Config{Target: h.Addr(), ChiefToken: h.Chief, Speed: speed, Seed: 7, DevicePrefix: "sim-" + h.ID,
		Rounds: []sim.RoundSpec{{Tournament: tournament, TimeControl: "60+1", Boards: boards, EBoard: true}}, Logger: testLogger()})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if _, err := f.Run(ctx); err != nil {
		t.Fatalf("fleet: %v", err)
	}
	arb, actx := h.Arbiter(t)
	rs, err := arb.ListRounds(actx, &pb.ListRoundsRequest{Tournament: tournament})
	if err != nil || len(rs.GetRounds()) != 1 {
		t.Fatalf("ListRounds(%s) = %v, %v", tournament, rs, err)
	}
	return rs.GetRounds()[0].GetRoundId()
}

// A gateway following a hall's stream serves what the hall serves: after
// a round played on e-boards, every board's state (Watch) is the hall's,
// and the round's PGN is the hall's, byte for byte. A round that is not
// public needs one of the hall's broadcast tokens, which the gateway
// checks offline against the stream, revocations included.
func TestGatewayServesTheHall(t *testing.T) {
	const speed = 120
	n := startNATS(t)
	h := startPublishedHall(t, n.URL(), "bergen", halltest.WithSpeed(speed), halltest.InDir(tmpDir(t)))
	hallURL := h.HTTP(t)
	g := startGateway(t, n.URL(), gateway.Options{Halls: []string{"bergen"}})
	token := h.Token(t, pb.Role_ROLE_BROADCAST, "gateway viewers", "")
	round := playRound(t, h, speed, "Bergen Blitz", 4)
	g.caughtUp(t, h)

	// Watch: the same states, as the chief sees them on the hall and a
	// broadcast viewer on the gateway.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	hallW := halltest.Watch(ctx, h.Conn(t), h.Chief)
	gwW := halltest.Watch(ctx, g.Conn, token)
	last, _ := h.Store.LastSeq(ctx)
	halltest.Eventually(t, 10*time.Second, func() error {
		if hallW.Seq() < last || gwW.Seq() < last {
			return fmt.Errorf("watchers at %d (hall) and %d (gateway), the hall at %d", hallW.Seq(), gwW.Seq(), last)
		}
		return nil
	})
	arb, actx := h.Arbiter(t)
	bs, err := arb.ListBoards(actx, &pb.ListBoardsRequest{RoundId: round})
	if err != nil || len(bs.GetBoards()) != 4 {
		t.Fatalf("ListBoards = %v, %v", bs, err)
	}
	finished := 0
	for _, b := range bs.GetBoards() {
		hs, gs := hallW.Last(b.GetBoardId()), gwW.Last(b.GetBoardId())
		if hs == nil || gs == nil || !proto.Equal(halltest.Ruled(hs), halltest.Ruled(gs)) {
			t.Errorf("board %d: the gateway shows\n%v\nthe hall\n%v", b.GetNumber(), gs, hs)
		}
		if hs.GetStatus() == pb.BoardStatus_BOARD_STATUS_FINISHED {
			finished++
		}
	}
	if finished != 4 {
		t.Errorf("%d of 4 games finished: the fleet should have played them out", finished)
	}

	// PGN: the same document.
	hallCode, hallPGN := get(t, hallURL+"/api/pgn/round/"+round, token)
	gwCode, gwPGN := get(t, g.URL+"/api/pgn/round/"+round, token)
	if hallCode != 200 || gwCode != 200 || hallPGN != gwPGN || strings.Count(gwPGN, "[%clk") < 20 {
		t.Errorf("PGN of the round: hall %d, gateway %d; equal %v; %d clocks\nhall:\n%.600s\ngateway:\n%.600s",
			hallCode, gwCode, hallPGN == gwPGN, strings.Count(gwPGN, "[%clk"), hallPGN, gwPGN)
	}

	// Without a token, the round is not the public's; then it is.
	if code, _ := get(t, g.URL+"/api/pgn/round/"+round, ""); code != http.StatusUnauthorized {
		t.Errorf("anonymous PGN of a private round on the gateway: %d, want 401", code)
	}
	if code, _ := get(t, g.URL+"/api/pgn/round/"+round, "hb_not-a-token"); code != http.StatusUnauthorized {
		t.Errorf("PGN with a bad token on the gateway: %d, want 401", code)
	}
	wc := pb.NewWatchClient(g.Conn)
	if err := firstRecv(wc.WatchRound(ctx, &pb.WatchRoundRequest{RoundId: round})); status.Code(err) != codes.Unauthenticated {
		t.Errorf("anonymous WatchRound of a private round = %v, want Unauthenticated", err)
	}
	public := true
	if _, err := arb.SetBroadcast(actx, &pb.SetBroadcastRequest{RoundId: round, Public: &public}); err != nil {
		t.Fatal(err)
	}
	halltest.Eventually(t, 10*time.Second, func() error {
		if code, body := get(t, g.URL+"/api/pgn/round/"+round, ""); code != 200 || body != hallPGN {
			return fmt.Errorf("anonymous PGN of the public round on the gateway: %d", code)
		}
		return nil
	})
	if err := firstRecv(wc.WatchRound(ctx, &pb.WatchRoundRequest{RoundId: round})); err != nil {
		t.Errorf("anonymous WatchRound of the public round = %v", err)
	}
	// The whole hall still needs a token.
	if err := firstRecv(wc.WatchHall(ctx, &pb.WatchHallRequest{})); status.Code(err) != codes.Unauthenticated {
		t.Errorf("anonymous WatchHall = %v, want Unauthenticated", err)
	}

	// Resuming: from the hall's last change nothing is due; beyond it is refused.
	tctx := halltest.Ctx(ctx, token)
	if err := firstRecv(wc.WatchHall(tctx, &pb.WatchHallRequest{FromSeq: last + 10})); status.Code(err) != codes.OutOfRange {
		t.Errorf("WatchHall from beyond the last change = %v, want OutOfRange", err)
	}
	wctx, wcancel := context.WithTimeout(tctx, 300*time.Millisecond)
	defer wcancel()
	if err := firstRecv(wc.WatchHall(wctx, &pb.WatchHallRequest{FromSeq: last})); status.Code(err) != codes.DeadlineExceeded {
		t.Errorf("WatchHall from the last change = %v, want nothing until the deadline", err)
	}

	// A revoked token stops working on the gateway too.
	toks, err := arb.ListTokens(actx, &pb.ListTokensRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tk := range toks.GetTokens() {
		if tk.GetLabel() == "gateway viewers" {
			if _, err := arb.RevokeToken(actx, &pb.RevokeTokenRequest{TokenId: tk.GetTokenId()}); err != nil {
				t.Fatal(err)
			}
		}
	}
	halltest.Eventually(t, 10*time.Second, func() error {
		if code, _ := get(t, g.URL+"/api/pgn/round/"+round, token); code != http.StatusUnauthorized {
			return fmt.Errorf("PGN with a revoked token on the gateway: %d, want 401", code)
		}
		return nil
	})
}

// firstRecv returns the error of a watch call or of its first message.
func firstRecv(stream interface {
	Recv() (*pb.WatchUpdate, error)
}, err error) error {
	if err != nil {
		return err
	}
	_, err = stream.Recv()
	return err
}

// A hall's broadcast delay holds on its gateways: the hall announces it
// in its stream, and a gateway shows the round as the hall shows it to a
// broadcast token — an hour late, so none of the moves just played.
func TestGatewayKeepsTheHallsDelay(t *testing.T) {
	longtest.Skip(t)
	const speed = 45
	n := startNATS(t)
	h := startPublishedHall(t, n.URL(), "delayed", halltest.WithOptions(server.Options{BroadcastDelay: time.Hour}),
		halltest.WithSpeed(speed), halltest.WallClock(), halltest.InDir(tmpDir(t)))
	hallURL := h.HTTP(t)
	g := startGateway(t, n.URL(), gateway.Options{Halls: []string{"delayed"}})
	token := h.Token(t, pb.Role_ROLE_BROADCAST, "delayed viewers", "")
	round := playRound(t, h, speed, "Delayed Blitz", 2)
	g.caughtUp(t, h)
	_, live := get(t, hallURL+"/api/pgn/round/"+round, h.Chief)
	_, hallDelayed := get(t, hallURL+"/api/pgn/round/"+round, token)
	code, gwDelayed := get(t, g.URL+"/api/pgn/round/"+round, token)
	if code != 200 || gwDelayed != hallDelayed {
		t.Errorf("the gateway's PGN (%d) differs from the hall's for a broadcast token:\n%s\nhall:\n%s", code, gwDelayed, hallDelayed)
	}
	if strings.Count(live, "[%clk") == 0 || strings.Count(gwDelayed, "[%clk") != 0 {
		t.Errorf("live PGN has %d clocks, the gateway's %d: want the moves live and none an hour late",
			strings.Count(live, "[%clk"), strings.Count(gwDelayed, "[%clk"))
	}
	view := federation(t, g.URL, token)["delayed"]
	if view.DelayMs != time.Hour.Milliseconds() {
		t.Errorf("the federation view shows the hall with a delay of %d ms, want an hour", view.DelayMs)
	}
	for _, r := range view.Rounds {
		for _, b := range r.Boards {
			if b.Status != "waiting" {
				t.Errorf("board %d shows %s an hour early", b.Number, b.Status)
			}
		}
	}
}
