package gateway_test

import (
	"strings"
	"testing"
	"time"

	"github.com/chesshall/hallclock/internal/testkit/halltest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/server"
	"github.com/chesshall/hallclock/server/gateway"
)

// A gateway serves the public: an arbiter's reason for a pause ("phone
// rang") never reaches it — the hall's stream leaves it out — and its PGN
// says the clock was paused, as the hall's public PGN does, without the
// arbiter's words.
func TestGatewayServesNoArbitersReasons(t *testing.T) {
	n := startNATS(t)
	h := startPublishedHall(t, n.URL(), "bergen", halltest.WithOptions(server.Options{HeartbeatInterval: time.Hour}))
	g := startGateway(t, n.URL(), gateway.Options{Halls: []string{"bergen"}})
	token := h.Token(t, pb.Role_ROLE_BROADCAST, "gateway viewers", "")
	boards := h.Round(t, "5400+30", 1)
	roundID, boardID := boards[0].GetRoundId(), boards[0].GetBoardId()
	h.Device(t, boards[0].GetDeviceId())
	arb, ctx := h.Arbiter(t)
	public := true
	if _, err := arb.SetBroadcast(ctx, &pb.SetBroadcastRequest{RoundId: roundID, Public: &public}); err != nil {
		t.Fatal(err)
	}
	for _, kind := range []pb.ActionKind{pb.ActionKind_ACTION_KIND_START, pb.ActionKind_ACTION_KIND_PAUSE} {
		if _, err := arb.BoardAction(ctx, &pb.BoardActionRequest{BoardId: boardID, Action: &pb.ClockAction{Kind: kind},
			Reason: "phone rang", WaitMs: 5000}); err != nil {
			t.Fatal(err)
		}
	}
	g.caughtUp(t, h)
	_, hallPGN := get(t, h.HTTP(t)+"/api/pgn/round/"+roundID, "")
	for _, tok := range []string{"", token} {
		code, pgn := get(t, g.URL+"/api/pgn/round/"+roundID, tok)
		if code != 200 || strings.Contains(pgn, "phone rang") || !strings.Contains(pgn, "{Clock paused}") || pgn != hallPGN {
			t.Errorf("the gateway's PGN (token %q): %d\n%s\nwant the pause without its reason, as the hall's public PGN:\n%s", tok, code, pgn, hallPGN)
		}
	}
}
