package gateway_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/chesshall/hallclock/formats/hallstream"
	"github.com/chesshall/hallclock/internal/testkit/halltest"
	"github.com/chesshall/hallclock/internal/testkit/streamtest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/server/gateway"
)

// replay publishes a message of the hall's stream again, as someone with
// write access to the hall's NATS would: its body and the hall's headers
// (signature and all), without NATS's own (the message id the stream
// de-duplicates by, the expected last sequence). It returns the stream
// sequence the copy got.
func replay(t *testing.T, js jetstream.JetStream, m streamtest.Message) uint64 {
	t.Helper()
	subject, _, err := hallstream.Encode(m.Message)
	if err != nil {
		t.Fatal(err)
	}
	msg := nats.NewMsg(subject)
	msg.Data = m.Data
	for k, v := range m.Header {
		if !strings.HasPrefix(k, "Nats-") {
			msg.Header[k] = v
		}
	}
	ack, err := js.PublishMsg(context.Background(), msg)
	if err != nil {
		t.Fatalf("replaying stream message %d: %v", m.StreamSeq, err)
	}
	return ack.Sequence
}

// hallMessages reads the hall's stream whole.
func hallMessages(t *testing.T, nc *nats.Conn, hall string) []streamtest.Message {
	t.Helper()
	ms, err := streamtest.ReadAll(context.Background(), nc, hall)
	if err != nil {
		t.Fatal(err)
	}
	return ms
}

// passed waits until the gateway has read the hall's stream past seq.
func (g *runningGateway) passed(t *testing.T, hall string, seq uint64) {
	t.Helper()
	halltest.Eventually(t, 10*time.Second, func() error {
		if at, _, _ := g.Progress(hall); at < seq {
			return fmt.Errorf("the gateway read the stream to %d, not yet %d", at, seq)
		}
		return nil
	})
}

// metric returns the line of /metrics that starts with name.
func metric(t *testing.T, url, name string) string {
	t.Helper()
	_, body := get(t, url+"/metrics", "")
	for _, l := range strings.Split(body, "\n") {
		if strings.HasPrefix(l, name) {
			return l
		}
	}
	return ""
}

// The hall's own signed "token issued" message, published again after
// the token's revocation, does not bring the token back: its outbox
// number is below the revocation's, so the gateway refuses it (counted
// and logged) and the private round stays closed to the token.
func TestGatewayRefusesAReplayedTokenMessage(t *testing.T) {
	n := startNATS(t)
	h := startPublishedHall(t, n.URL(), "bergen", halltest.InDir(tmpDir(t)))
	g := startGateway(t, n.URL(), gateway.Options{Halls: []string{"bergen"}})
	round := h.Round(t, "180+2", 1)[0].GetRoundId()
	token := h.Token(t, pb.Role_ROLE_BROADCAST, "replayed", "")
	g.caughtUp(t, h)
	pgn := g.URL + "/api/pgn/round/" + round
	halltest.Eventually(t, 10*time.Second, func() error {
		if code, _ := get(t, pgn, token); code != http.StatusOK {
			return fmt.Errorf("PGN of the private round with the token: %d, want 200", code)
		}
		return nil
	})
	arb, actx := h.Arbiter(t)
	toks, err := arb.ListTokens(actx, &pb.ListTokensRequest{})
	if err != nil {
		t.Fatal(err)
	}
	revoked := ""
	for _, tk := range toks.GetTokens() {
		if tk.GetLabel() == "replayed" {
			revoked = tk.GetTokenId()
			if _, err := arb.RevokeToken(actx, &pb.RevokeTokenRequest{TokenId: revoked}); err != nil {
				t.Fatal(err)
			}
		}
	}
	halltest.Eventually(t, 10*time.Second, func() error {
		if code, _ := get(t, pgn, token); code != http.StatusUnauthorized {
			return fmt.Errorf("PGN with the revoked token: %d, want 401", code)
		}
		return nil
	})

	nc := connect(t, n.URL())
	js, _ := jetstream.New(nc)
	var issued *streamtest.Message
	for _, m := range hallMessages(t, nc, "bergen") {
		if m.Kind == hallstream.KindToken && m.ID == revoked && !m.Token.Revoked {
			issued = &m
			break
		}
	}
	if issued == nil {
		t.Fatalf("no message issuing token %s in the stream", revoked)
	}
	seq := replay(t, js, *issued)
	g.passed(t, "bergen", seq)
	if code, _ := get(t, pgn, token); code != http.StatusUnauthorized {
		t.Errorf("after the token's issue was replayed, PGN with the revoked token: %d, want 401", code)
	}
	if got, want := metric(t, g.URL, `hall_gateway_replayed_total{hall="bergen"}`), `hall_gateway_replayed_total{hall="bergen"} 1`; got != want {
		t.Errorf("metrics say %q, want %q", got, want)
	}
	// The hall's next messages are applied as ever.
	after := h.NewRound(t, "after the replay", 1, nil).GetRoundId()
	halltest.Eventually(t, 10*time.Second, func() error {
		if code, _ := get(t, g.URL+"/api/pgn/round/"+after, ""); code != http.StatusUnauthorized {
			return fmt.Errorf("the hall's round after the replay: %d, want 401 (known, private)", code)
		}
		return nil
	})
}

// The stream's first message (marked Hall-Start) published again does not
// start the hall again on the gateway: its watchers go on, and what the
// gateway had of the hall stays.
func TestGatewayRefusesAReplayedHallStart(t *testing.T) {
	n := startNATS(t)
	h := startPublishedHall(t, n.URL(), "bergen", halltest.InDir(tmpDir(t)))
	g := startGateway(t, n.URL(), gateway.Options{Halls: []string{"bergen"}})
	before := h.Round(t, "180+2", 1)[0].GetRoundId()
	token := h.Token(t, pb.Role_ROLE_BROADCAST, "watcher", "")
	g.caughtUp(t, h)
	// caughtUp follows the hall's events; the token's issue is a message
	// of its own, which may reach the gateway a moment later.
	halltest.Eventually(t, 10*time.Second, func() error {
		if code, _ := get(t, g.URL+"/api/pgn/round/"+before, token); code != http.StatusOK {
			return fmt.Errorf("PGN of the round with the new broadcast token: %d, want 200", code)
		}
		return nil
	})

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	watch, err := pb.NewWatchClient(g.Conn).WatchHall(halltest.Ctx(ctx, token), &pb.WatchHallRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := watch.Recv(); err != nil {
		t.Fatalf("the watcher's first update: %v", err)
	}

	nc := connect(t, n.URL())
	js, _ := jetstream.New(nc)
	first := hallMessages(t, nc, "bergen")[0]
	if first.Header.Get(hallstream.HeaderStart) != "1" {
		t.Fatalf("the stream's first message is not marked %s: %v", hallstream.HeaderStart, first.Header)
	}
	seq := replay(t, js, first)
	g.passed(t, "bergen", seq)
	if code, _ := get(t, g.URL+"/api/pgn/round/"+before, token); code != http.StatusOK {
		t.Errorf("after the replayed start, PGN of the round from before: %d, want 200", code)
	}
	if got, want := metric(t, g.URL, `hall_gateway_replayed_total{hall="bergen"}`), `hall_gateway_replayed_total{hall="bergen"} 1`; got != want {
		t.Errorf("metrics say %q, want %q", got, want)
	}

	// The watcher is still there: the hall's next board reaches it.
	arb, actx := h.Arbiter(t)
	b, err := arb.AddBoard(actx, &pb.AddBoardRequest{RoundId: before, Number: 2, DeviceId: "CLK-002",
		White: &pb.Player{Name: "White 2"}, Black: &pb.Player{Name: "Black 2"}})
	if err != nil {
		t.Fatal(err)
	}
	board := b.GetBoardId()
	for {
		u, err := watch.Recv()
		if err != nil {
			t.Fatalf("the watcher was cut after the replayed start: %v", err)
		}
		for _, b := range u.GetBoards() {
			if b.GetBoardId() == board {
				return
			}
		}
	}
}
