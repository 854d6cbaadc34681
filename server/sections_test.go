package server_test

import (
	"context"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/chesshall/hallclock/internal/testkit/halltest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// An arbiter limited to a section watches only that section's boards, on
// the hall and round streams as on ListBoards.
func TestSectionArbiterWatchesOnlyTheirSection(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t)
	arb, ctx := h.Arbiter(t)
	tr, err := arb.CreateTournament(ctx, &pb.CreateTournamentRequest{Name: "Open", DefaultConfig: &pb.ClockConfig{TimeControl: "90m+30s"}})
	if err != nil {
		t.Fatal(err)
	}
	r, err := arb.CreateRound(ctx, &pb.CreateRoundRequest{TournamentId: tr.GetTournamentId(), Number: 1})
	if err != nil {
		t.Fatal(err)
	}
	inA := map[string]bool{}
	for i, sec := range []string{"A", "B", "A", "B"} {
		b, err := arb.AddBoard(ctx, &pb.AddBoardRequest{RoundId: r.GetRoundId(), Number: int32(i + 1), Section: sec,
			White: &pb.Player{Name: "w"}, Black: &pb.Player{Name: "b"}})
		if err != nil {
			t.Fatal(err)
		}
		if sec == "A" {
			inA[b.GetBoardId()] = true
		}
	}
	tokA := h.Token(t, pb.Role_ROLE_ARBITER, "Anna", "", "A")
	wc := pb.NewWatchClient(h.Conn(t))
	for name, open := range map[string]func(context.Context) (interface {
		Recv() (*pb.WatchUpdate, error)
	}, error){
		"hall": func(c context.Context) (interface {
			Recv() (*pb.WatchUpdate, error)
		}, error) {
			return wc.WatchHall(c, &pb.WatchHallRequest{})
		},
		"round": func(c context.Context) (interface {
			Recv() (*pb.WatchUpdate, error)
		}, error) {
			return wc.WatchRound(c, &pb.WatchRoundRequest{RoundId: r.GetRoundId()})
		},
	} {
		c, cancel := context.WithTimeout(halltest.Ctx(context.Background(), tokA), 5*time.Second)
		s, err := open(c)
		if err != nil {
			t.Fatal(err)
		}
		u, err := s.Recv()
		cancel()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(u.GetBoards()) != len(inA) {
			t.Errorf("%s snapshot for section A has %d boards, want %d", name, len(u.GetBoards()), len(inA))
		}
		for _, b := range u.GetBoards() {
			if !inA[b.GetBoardId()] {
				t.Errorf("%s snapshot for section A shows board %s of another section", name, b.GetBoardId())
			}
		}
	}
}

// Revoking a token ends the streams already open with it.
func TestRevokeEndsOpenStreams(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t)
	boards := h.Round(t, "300", 1)
	d := h.Device(t, boards[0].GetDeviceId())
	arb, ctx := h.Arbiter(t)
	tok := h.Token(t, pb.Role_ROLE_BROADCAST, "feed", "")
	stream, err := pb.NewWatchClient(h.Conn(t)).WatchHall(halltest.Ctx(context.Background(), tok), &pb.WatchHallRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := stream.Recv(); err != nil {
		t.Fatal(err)
	}
	list, err := arb.ListTokens(ctx, &pb.ListTokensRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tk := range list.GetTokens() {
		if tk.GetLabel() == "feed" || tk.GetDeviceId() == boards[0].GetDeviceId() {
			if _, err := arb.RevokeToken(ctx, &pb.RevokeTokenRequest{TokenId: tk.GetTokenId()}); err != nil {
				t.Fatal(err)
			}
		}
	}
	done := make(chan error, 1)
	go func() {
		for {
			if _, err := stream.Recv(); err != nil {
				done <- err
				return
			}
		}
	}()
	select {
	case err := <-done:
		if status.Code(err) != codes.Unauthenticated {
			t.Errorf("watch stream ended with %v, want Unauthenticated", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("watch stream still open 5 s after its token was revoked")
	}
	halltest.Eventually(t, 5*time.Second, func() error {
		if d.Status().Connected {
			return status.Error(codes.Internal, "device still connected after its token was revoked")
		}
		return nil
	})
}
