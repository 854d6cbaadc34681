package gateway_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/chesshall/hallclock/formats/hallstream"
	"github.com/chesshall/hallclock/internal/natsrun"
	"github.com/chesshall/hallclock/internal/testkit/halltest"
	"github.com/chesshall/hallclock/internal/testkit/longtest"
	"github.com/chesshall/hallclock/server/gateway"
)

// consumers lists the consumers of a stream, as the NATS server has them.
func consumers(t *testing.T, n *natsrun.Node, stream string) []*server.ConsumerInfo {
	t.Helper()
	jsz, err := n.Server().Jsz(&server.JSzOptions{Accounts: true, Streams: true, Consumer: true, Config: true})
	if err != nil {
		t.Fatal(err)
	}
	var out []*server.ConsumerInfo
	for _, a := range jsz.AccountDetails {
		for _, s := range a.Streams {
			if s.Name == stream {
				out = append(out, s.Consumer...)
			}
		}
	}
	return out
}

// userConn connects as the nkey user whose seed is at path.
func userConn(t *testing.T, url, seed string, opts ...nats.Option) *nats.Conn {
	t.Helper()
	auth, err := nats.NkeyOptionFromSeed(seed)
	if err != nil {
		t.Fatal(err)
	}
	nc, err := nats.Connect(url, append([]nats.Option{auth, nats.MaxReconnects(-1), nats.ReconnectWait(50 * time.Millisecond)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	return nc
}

// The gateways' NATS user may follow and nothing more: on a server with
// the embedded hall's users, a gateway follows a hall through consumers
// that keep nothing (ephemeral), while the same user cannot delete the
// live gateway's consumer nor create a durable one — neither through
// JetStream's current API nor its legacy subjects.
func TestGatewayUserOnlyFollows(t *testing.T) {
	dir := t.TempDir()
	hallSeed, gwSeed := filepath.Join(dir, "hall.nk"), filepath.Join(dir, "gateway.nk")
	hallKey, err := natsrun.UserSeed(hallSeed)
	if err != nil {
		t.Fatal(err)
	}
	gwKey, err := natsrun.UserSeed(gwSeed)
	if err != nil {
		t.Fatal(err)
	}
	n, err := natsrun.Start(natsrun.Options{Dir: filepath.Join(dir, "nats"),
		Users: []natsrun.User{natsrun.HallUser(hallKey, "bergen"), natsrun.FollowerUser(gwKey)}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(n.Shutdown)
	h := startPublishedHallOn(t, userConn(t, n.URL(), hallSeed), "bergen", halltest.InDir(tmpDir(t)))
	g := startGateway(t, n.URL(), gateway.Options{Conn: userConn(t, n.URL(), gwSeed), Halls: []string{"bergen"}})
	h.Round(t, "180+2", 1)
	g.caughtUp(t, h)
	stream := hallstream.StreamName("bergen")
	var live []*server.ConsumerInfo
	halltest.Eventually(t, 10*time.Second, func() error {
		if live = consumers(t, n, stream); len(live) != 1 || live[0].Config.Durable != "" {
			return fmt.Errorf("consumers of the hall's stream while a gateway follows: %d, want 1 ephemeral (%+v)", len(live), live)
		}
		return nil
	})

	// Someone with the gateways' credentials. A request to a subject the
	// user may not publish to gets no answer: the server tells the
	// connection of the violation, and the attempt ends there instead of
	// at its timeout.
	violations := make(chan error, 8)
	nc := userConn(t, n.URL(), gwSeed, nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) {
		if errors.Is(err, nats.ErrPermissionViolation) {
			violations <- err
		}
	}))
	js, _ := jetstream.New(nc)
	try := func(what string, f func(ctx context.Context) error) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		done := make(chan error, 1)
		go func() { done <- f(ctx) }()
		select {
		case <-violations: // refused: not the user's to publish
			cancel()
			<-done
		case err := <-done:
			if err == nil {
				t.Errorf("the gateways' user could %s", what)
			}
		}
	}
	try("delete the live gateway's consumer", func(ctx context.Context) error {
		return js.DeleteConsumer(ctx, stream, live[0].Name)
	})
	try("create a durable consumer", func(ctx context.Context) error {
		_, err := js.CreateConsumer(ctx, stream, jetstream.ConsumerConfig{Durable: "squatter", AckPolicy: jetstream.AckExplicitPolicy})
		return err
	})
	legacy := func(subject string, cfg map[string]any) func(ctx context.Context) error {
		return func(ctx context.Context) error {
			body, _ := json.Marshal(map[string]any{"stream_name": stream, "config": cfg})
			m, err := nc.RequestWithContext(ctx, subject, body)
			if err != nil {
				return err
			}
			var resp struct {
				Error *struct{ Description string } `json:"error"`
			}
			if err := json.Unmarshal(m.Data, &resp); err != nil || resp.Error != nil {
				return fmt.Errorf("refused: %v %+v", err, resp.Error)
			}
			return nil
		}
	}
	try("create a durable consumer by the legacy subject", legacy("$JS.API.CONSUMER.DURABLE.CREATE."+stream+".squatter2",
		map[string]any{"durable_name": "squatter2", "ack_policy": "explicit"}))
	try("create a durable consumer by the legacy ephemeral subject", legacy("$JS.API.CONSUMER.CREATE."+stream,
		map[string]any{"durable_name": "squatter3", "ack_policy": "explicit"}))
	for _, c := range consumers(t, n, stream) {
		if c.Config.Durable != "" {
			t.Errorf("a durable consumer %q of the hall's stream", c.Name)
		}
	}

	// The gateway still follows.
	after := h.NewRound(t, "after the attempts", 1, nil).GetRoundId()
	halltest.Eventually(t, 10*time.Second, func() error {
		if code, _ := get(t, g.URL+"/api/pgn/round/"+after, ""); code != http.StatusUnauthorized {
			return fmt.Errorf("the hall's round after the attempts: %d, want 401 (known, private)", code)
		}
		return nil
	})
}

// A gateway whose consumer goes (deleted, its NATS node lost) notices the
// silence and follows on from where it was with a new one.
func TestGatewayFollowsOnWhenItsConsumerGoes(t *testing.T) {
	longtest.Skip(t) // three heartbeats of silence: seconds
	n := startNATS(t)
	h := startPublishedHall(t, n.URL(), "bergen", halltest.InDir(tmpDir(t)))
	g := startGateway(t, n.URL(), gateway.Options{Halls: []string{"bergen"}})
	h.Round(t, "180+2", 1)
	g.caughtUp(t, h)
	stream := hallstream.StreamName("bergen")
	var live []*server.ConsumerInfo
	halltest.Eventually(t, 10*time.Second, func() error {
		if live = consumers(t, n, stream); len(live) != 1 {
			return fmt.Errorf("%d consumers of the hall's stream, want the gateway's", len(live))
		}
		return nil
	})
	js, _ := jetstream.New(connect(t, n.URL()))
	if err := js.DeleteConsumer(context.Background(), stream, live[0].Name); err != nil {
		t.Fatal(err)
	}
	after := h.NewRound(t, "after the consumer went", 1, nil).GetRoundId()
	halltest.Eventually(t, 30*time.Second, func() error {
		if code, _ := get(t, g.URL+"/api/pgn/round/"+after, ""); code != http.StatusUnauthorized {
			return fmt.Errorf("the hall's round after the consumer went: %d, want 401 (known, private)", code)
		}
		return nil
	})
	if got := consumers(t, n, stream); len(got) != 1 || got[0].Name == live[0].Name {
		t.Errorf("consumers after: %d, want one new one", len(got))
	}
}
