package server_test

import (
	"context"
	"log/slog"
	"net"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/metadata"
	rpb "google.golang.org/grpc/reflection/grpc_reflection_v1"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/test/bufconn"
	"google.golang.org/protobuf/types/known/emptypb"

	"github.com/chesshall/hallclock/internal/ident"
	"github.com/chesshall/hallclock/internal/testkit/halltest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/server"
	"github.com/chesshall/hallclock/storage"
)

// sectionHall is a hall with one round of two boards, board 1 in section
// "A" and board 2 in section "B", each with a device that is not connected.
type sectionHall struct {
	h          *halltest.Hall
	tournament string
	round      string
	a, b       *pb.Board
}

func startSectionHall(t *testing.T, opts ...halltest.Option) *sectionHall {
	t.Helper()
	h := halltest.Start(t, opts...)
	arb, ctx := h.Arbiter(t)
	tr, err := arb.CreateTournament(ctx, &pb.CreateTournamentRequest{Name: t.Name(), DefaultConfig: &pb.ClockConfig{TimeControl: "90m+30s"}})
	if err != nil {
		t.Fatal(err)
	}
	r, err := arb.CreateRound(ctx, &pb.CreateRoundRequest{TournamentId: tr.GetTournamentId(), Number: 1})
	if err != nil {
		t.Fatal(err)
	}
	sh := &sectionHall{h: h, tournament: tr.GetTournamentId(), round: r.GetRoundId()}
	for i, sec := range []string{"A", "B"} {
		b, err := arb.AddBoard(ctx, &pb.AddBoardRequest{RoundId: r.GetRoundId(), Number: int32(i + 1), Section: sec,
			White: &pb.Player{Name: "White " + sec}, Black: &pb.Player{Name: "Black " + sec}, DeviceId: "CLK-" + sec})
		if err != nil {
			t.Fatal(err)
		}
		if sec == "A" {
			sh.a = b
		} else {
			sh.b = b
		}
	}
	return sh
}

// doorCall is one call through the door, made with a given context.
type doorCall struct {
	name string
	do   func(ctx context.Context) error
}

// firstUpdate opens a watch stream and waits for its first message.
func firstUpdate(open func(ctx context.Context) (grpc.ServerStreamingClient[pb.WatchUpdate], error)) func(context.Context) error {
	return func(ctx context.Context) error {
		ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		s, err := open(ctx)
		if err != nil {
			return err
		}
		_, err = s.Recv()
		return err
	}
}

// doorCalls lists calls on the section hall. Calls that create things use
// fresh numbers each time; RevokeToken revokes a token the chief issues
// just before.
func (sh *sectionHall) doorCalls(t *testing.T) []doorCall {
	h := sh.h
	conn := h.Conn(t)
	arb, watch := pb.NewArbiterClient(conn), pb.NewWatchClient(conn)
	chiefArb, chiefCtx := h.Arbiter(t)
	var n atomic.Int32
	n.Store(10)
	addBoard := func(section string) func(context.Context) error {
		return func(ctx context.Context) error {
			_, err := arb.AddBoard(ctx, &pb.AddBoardRequest{RoundId: sh.round, Number: n.Add(1), Section: section,
				White: &pb.Player{Name: "W"}, Black: &pb.Player{Name: "B"}})
			return err
		}
	}
	pause := func(b *pb.Board) func(context.Context) error {
		return func(ctx context.Context) error {
			_, err := arb.BoardAction(ctx, &pb.BoardActionRequest{BoardId: b.GetBoardId(),
				Action: &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_PAUSE}, WaitMs: -1})
			return err
		}
	}
	getBoard := func(b *pb.Board) func(context.Context) error {
		return func(ctx context.Context) error {
			_, err := arb.GetBoard(ctx, &pb.GetBoardRequest{BoardId: b.GetBoardId()})
			return err
		}
	}
	auditLog := func(b *pb.Board) func(context.Context) error {
		return func(ctx context.Context) error {
			_, err := arb.AuditLog(ctx, &pb.AuditLogRequest{BoardId: b.GetBoardId()})
			return err
		}
	}
	watchBoard := func(b *pb.Board) func(context.Context) error {
		return firstUpdate(func(ctx context.Context) (grpc.ServerStreamingClient[pb.WatchUpdate], error) {
			return watch.WatchBoard(ctx, &pb.WatchBoardRequest{BoardId: b.GetBoardId()})
		})
	}
	return []doorCall{
		{"CreateTournament", func(ctx context.Context) error {
			_, err := arb.CreateTournament(ctx, &pb.CreateTournamentRequest{Name: "Open", DefaultConfig: &pb.ClockConfig{TimeControl: "90m+30s"}})
			return err
		}},
		{"CreateRound", func(ctx context.Context) error {
			_, err := arb.CreateRound(ctx, &pb.CreateRoundRequest{TournamentId: sh.tournament, Number: n.Add(1)})
			return err
		}},
		{"AddBoard A", addBoard("A")},
		{"AddBoard B", addBoard("B")},
		{"BoardAction A", pause(sh.a)},
		{"BoardAction B", pause(sh.b)},
		{"GetBoard A", getBoard(sh.a)},
		{"GetBoard B", getBoard(sh.b)},
		{"ListBoards", func(ctx context.Context) error {
			_, err := arb.ListBoards(ctx, &pb.ListBoardsRequest{})
			return err
		}},
		{"AuditLog A", auditLog(sh.a)},
		{"AuditLog B", auditLog(sh.b)},
		{"ListDevices", func(ctx context.Context) error {
			_, err := arb.ListDevices(ctx, &pb.ListDevicesRequest{})
			return err
		}},
		{"IssueToken", func(ctx context.Context) error {
			_, err := arb.IssueToken(ctx, &pb.IssueTokenRequest{Role: pb.Role_ROLE_BROADCAST, Label: "feed"})
			return err
		}},
		{"RevokeToken", func(ctx context.Context) error {
			tok, err := chiefArb.IssueToken(chiefCtx, &pb.IssueTokenRequest{Role: pb.Role_ROLE_BROADCAST, Label: "to revoke"})
			if err != nil {
				t.Fatalf("chief IssueToken: %v", err)
			}
			_, err = arb.RevokeToken(ctx, &pb.RevokeTokenRequest{TokenId: tok.GetTokenId()})
			return err
		}},
		{"ListTokens", func(ctx context.Context) error {
			_, err := arb.ListTokens(ctx, &pb.ListTokensRequest{})
			return err
		}},
		{"WatchHall", firstUpdate(func(ctx context.Context) (grpc.ServerStreamingClient[pb.WatchUpdate], error) {
			return watch.WatchHall(ctx, &pb.WatchHallRequest{})
		})},
		{"WatchRound", firstUpdate(func(ctx context.Context) (grpc.ServerStreamingClient[pb.WatchUpdate], error) {
			return watch.WatchRound(ctx, &pb.WatchRoundRequest{RoundId: sh.round})
		})},
		{"WatchBoard A", watchBoard(sh.a)},
		{"WatchBoard B", watchBoard(sh.b)},
	}
}

const (
	doorOK     = codes.OK
	doorDenied = codes.PermissionDenied
)

// roleRules says what each role may do; a call missing from a role's map
// is refused (PermissionDenied).
var roleRules = map[string]map[string]codes.Code{
	// The chief arbiter may do everything.
	"chief": {
		"CreateTournament": doorOK, "CreateRound": doorOK, "AddBoard A": doorOK, "AddBoard B": doorOK, "BoardAction A": doorOK,
		"BoardAction B": doorOK, "GetBoard A": doorOK, "GetBoard B": doorOK, "ListBoards": doorOK, "AuditLog A": doorOK, "AuditLog B": doorOK,
		"ListDevices": doorOK, "IssueToken": doorOK, "RevokeToken": doorOK, "ListTokens": doorOK, "WatchHall": doorOK, "WatchRound": doorOK,
		"WatchBoard A": doorOK, "WatchBoard B": doorOK,
	},
	// An arbiter limited to section A acts and reads there only, and has
	// nothing to do with events, rounds and tokens.
	"arbiter A": {
		"AddBoard A": doorOK, "BoardAction A": doorOK, "GetBoard A": doorOK, "ListBoards": doorOK, "AuditLog A": doorOK,
		"ListDevices": doorOK, "WatchHall": doorOK, "WatchRound": doorOK, "WatchBoard A": doorOK,
		// A board of another section is one that does not exist.
		"BoardAction B": codes.NotFound, "GetBoard B": codes.NotFound, "AuditLog B": codes.NotFound, "WatchBoard B": codes.NotFound,
	},
	// A broadcast feed reads.
	"broadcast": {
		"GetBoard A": doorOK, "GetBoard B": doorOK, "ListBoards": doorOK, "WatchHall": doorOK, "WatchRound": doorOK,
		"WatchBoard A": doorOK, "WatchBoard B": doorOK,
	},
	// A device only speaks ClockLink.
	"device": {},
}

// Every role is refused, at the door or by its board's section, what it
// may not do, and allowed what it may.
func TestDoorRoles(t *testing.T) {
	t.Parallel()
	sh := startSectionHall(t)
	h := sh.h
	tokens := map[string]string{
		"chief":     h.Chief,
		"arbiter A": h.Token(t, pb.Role_ROLE_ARBITER, "Anna", "", "A"),
		"broadcast": h.Token(t, pb.Role_ROLE_BROADCAST, "feed", ""),
		"device":    h.Token(t, pb.Role_ROLE_DEVICE, "CLK-A", "CLK-A"),
	}
	calls := sh.doorCalls(t)
	for role, allowed := range roleRules {
		ctx := halltest.Ctx(context.Background(), tokens[role])
		for _, c := range calls {
			want, ok := allowed[c.name]
			if !ok {
				want = doorDenied
			}
			if got := status.Code(c.do(ctx)); got != want {
				t.Errorf("%s: %s = %v, want %v", role, c.name, got, want)
			}
		}
	}
}

// An arbiter limited to section A lists only section A's boards; the chief
// and broadcast feeds list both.
func TestDoorListBoardsBySection(t *testing.T) {
	t.Parallel()
	sh := startSectionHall(t)
	h := sh.h
	arb := pb.NewArbiterClient(h.Conn(t))
	for _, tc := range []struct {
		who     string
		token   string
		section string
		want    []string
	}{
		{"arbiter A", h.Token(t, pb.Role_ROLE_ARBITER, "Anna", "", "A"), "", []string{"A"}},
		{"arbiter A asking for B", h.Token(t, pb.Role_ROLE_ARBITER, "Anna 2", "", "A"), "B", nil},
		{"arbiter of all sections", h.Token(t, pb.Role_ROLE_ARBITER, "Bob", ""), "", []string{"A", "B"}},
		{"broadcast", h.Token(t, pb.Role_ROLE_BROADCAST, "feed", ""), "", []string{"A", "B"}},
		{"chief", h.Chief, "", []string{"A", "B"}},
		{"chief asking for B", h.Chief, "B", []string{"B"}},
	} {
		resp, err := arb.ListBoards(halltest.Ctx(context.Background(), tc.token), &pb.ListBoardsRequest{Section: tc.section})
		if err != nil {
			t.Errorf("%s: ListBoards: %v", tc.who, err)
			continue
		}
		var got []string
		for _, b := range resp.GetBoards() {
			got = append(got, b.GetSection())
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: ListBoards sections = %v, want %v", tc.who, got, tc.want)
		}
	}
}

// A call without a token, with an unknown one, another scheme, or a revoked
// one is Unauthenticated; revocation takes effect at once.
func TestDoorAuthentication(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t)
	conn := h.Conn(t)
	arb, watch := pb.NewArbiterClient(conn), pb.NewWatchClient(conn)
	chiefArb, chiefCtx := h.Arbiter(t)
	tok, err := chiefArb.IssueToken(chiefCtx, &pb.IssueTokenRequest{Role: pb.Role_ROLE_BROADCAST, Label: "feed"})
	if err != nil {
		t.Fatal(err)
	}
	feed := halltest.Ctx(context.Background(), tok.GetToken())
	if _, err := arb.ListBoards(feed, &pb.ListBoardsRequest{}); err != nil {
		t.Fatalf("ListBoards with a fresh broadcast token: %v", err)
	}
	if _, err := chiefArb.RevokeToken(chiefCtx, &pb.RevokeTokenRequest{TokenId: tok.GetTokenId()}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		ctx  context.Context
	}{
		{"no token", context.Background()},
		{"unknown token", halltest.Ctx(context.Background(), "hc_notatokenatall")},
		{"empty bearer", metadata.AppendToOutgoingContext(context.Background(), "authorization", "Bearer ")},
		{"basic scheme", metadata.AppendToOutgoingContext(context.Background(), "authorization", "Basic "+h.Chief)},
		{"revoked token", feed},
	} {
		if _, err := arb.ListBoards(tc.ctx, &pb.ListBoardsRequest{}); status.Code(err) != codes.Unauthenticated {
			t.Errorf("%s: ListBoards = %v, want %v", tc.name, err, codes.Unauthenticated)
		}
		err := firstUpdate(func(ctx context.Context) (grpc.ServerStreamingClient[pb.WatchUpdate], error) {
			return watch.WatchHall(ctx, &pb.WatchHallRequest{})
		})(tc.ctx)
		if status.Code(err) != codes.Unauthenticated {
			t.Errorf("%s: WatchHall = %v, want %v", tc.name, err, codes.Unauthenticated)
		}
	}
	// Revoking twice is harmless; an unknown token id is NotFound.
	if _, err := chiefArb.RevokeToken(chiefCtx, &pb.RevokeTokenRequest{TokenId: tok.GetTokenId()}); err != nil {
		t.Errorf("RevokeToken a second time = %v, want nil", err)
	}
	if _, err := chiefArb.RevokeToken(chiefCtx, &pb.RevokeTokenRequest{TokenId: "tok-nosuchtoken"}); status.Code(err) != codes.NotFound {
		t.Errorf("RevokeToken(unknown) = %v, want %v", err, codes.NotFound)
	}
	lt, err := chiefArb.ListTokens(chiefCtx, &pb.ListTokensRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for _, ti := range lt.GetTokens() {
		if ti.GetTokenId() == tok.GetTokenId() && !ti.GetRevoked() {
			t.Errorf("ListTokens shows %s revoked = false, want true", ti.GetTokenId())
		}
	}
}

// A device token speaks for its own device only: a Hello naming another
// device is refused.
func TestDoorDeviceSpeaksForItself(t *testing.T) {
	t.Parallel()
	sh := startSectionHall(t)
	h := sh.h
	link := pb.NewClockLinkClient(h.Conn(t))
	ctx := halltest.Ctx(context.Background(), h.DeviceToken(t, "CLK-A"))
	for _, tc := range []struct {
		hello string
		want  codes.Code
	}{
		{"CLK-B", codes.PermissionDenied},
		{"CLK-A", codes.OK},
	} {
		cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		stream, err := link.Connect(cctx)
		if err != nil {
			cancel()
			t.Fatal(err)
		}
		if err := stream.Send(&pb.DeviceMessage{Msg: &pb.DeviceMessage_Hello{Hello: &pb.Hello{DeviceId: tc.hello}}}); err != nil {
			t.Errorf("send Hello(%s): %v", tc.hello, err)
		}
		m, err := stream.Recv()
		if got := status.Code(err); got != tc.want {
			t.Errorf("Hello(%s) with CLK-A's token: %v, want %v", tc.hello, err, tc.want)
		}
		if tc.want == codes.OK && m.GetWelcome() == nil {
			t.Errorf("Hello(%s) with CLK-A's token: first message %v, want a Welcome", tc.hello, m)
		}
		cancel()
	}
	// Other roles may not connect a clock at all.
	for _, tok := range []string{h.Chief, h.Token(t, pb.Role_ROLE_BROADCAST, "feed", "")} {
		cctx, cancel := context.WithTimeout(halltest.Ctx(context.Background(), tok), 5*time.Second)
		stream, err := link.Connect(cctx)
		if err == nil {
			_ = stream.Send(&pb.DeviceMessage{Msg: &pb.DeviceMessage_Hello{Hello: &pb.Hello{DeviceId: "CLK-A"}}})
			_, err = stream.Recv()
		}
		if status.Code(err) != codes.PermissionDenied {
			t.Errorf("Connect with a non-device token = %v, want %v", err, codes.PermissionDenied)
		}
		cancel()
	}
}

// Health checks and reflection need no token.
func TestDoorHealthAndReflectionWithoutToken(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t)
	conn := h.Conn(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	resp, err := healthpb.NewHealthClient(conn).Check(ctx, &healthpb.HealthCheckRequest{})
	if err != nil || resp.GetStatus() != healthpb.HealthCheckResponse_SERVING {
		t.Errorf("health Check without a token = %v, %v; want SERVING", resp, err)
	}
	stream, err := rpb.NewServerReflectionClient(conn).ServerReflectionInfo(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := stream.Send(&rpb.ServerReflectionRequest{MessageRequest: &rpb.ServerReflectionRequest_ListServices{}}); err != nil {
		t.Fatal(err)
	}
	r, err := stream.Recv()
	if err != nil {
		t.Fatalf("reflection ListServices without a token: %v", err)
	}
	var got []string
	for _, s := range r.GetListServicesResponse().GetService() {
		got = append(got, s.GetName())
	}
	for _, want := range []string{"hall.v1.Arbiter", "hall.v1.ClockLink", "hall.v1.Watch", "grpc.health.v1.Health"} {
		if !slices.Contains(got, want) {
			t.Errorf("reflection lists %v, want it to include %s", got, want)
		}
	}
	_ = stream.CloseSend()
}

// validationCases are requests with one bad field each: InvalidArgument,
// with a message naming the field (or saying what is wrong with it).
func validationCases(sh *sectionHall) []struct {
	name string
	call func(arb pb.ArbiterClient, ctx context.Context) error
	want string
} {
	board, round, tour := sh.a.GetBoardId(), sh.round, sh.tournament
	action := func(a *pb.ClockAction) func(pb.ArbiterClient, context.Context) error {
		return func(arb pb.ArbiterClient, ctx context.Context) error {
			_, err := arb.BoardAction(ctx, &pb.BoardActionRequest{BoardId: board, Action: a, WaitMs: -1})
			return err
		}
	}
	tournament := func(r *pb.CreateTournamentRequest) func(pb.ArbiterClient, context.Context) error {
		return func(arb pb.ArbiterClient, ctx context.Context) error {
			_, err := arb.CreateTournament(ctx, r)
			return err
		}
	}
	createRound := func(r *pb.CreateRoundRequest) func(pb.ArbiterClient, context.Context) error {
		return func(arb pb.ArbiterClient, ctx context.Context) error { _, err := arb.CreateRound(ctx, r); return err }
	}
	addBoard := func(r *pb.AddBoardRequest) func(pb.ArbiterClient, context.Context) error {
		return func(arb pb.ArbiterClient, ctx context.Context) error { _, err := arb.AddBoard(ctx, r); return err }
	}
	issue := func(r *pb.IssueTokenRequest) func(pb.ArbiterClient, context.Context) error {
		return func(arb pb.ArbiterClient, ctx context.Context) error { _, err := arb.IssueToken(ctx, r); return err }
	}
	white, black := &pb.Player{Name: "W"}, &pb.Player{Name: "B"}
	tc := func(s string) *pb.ClockConfig { return &pb.ClockConfig{TimeControl: s} }
	i32 := func(v int32) *int32 { return &v }
	type vc = struct {
		name string
		call func(arb pb.ArbiterClient, ctx context.Context) error
		want string
	}
	return []vc{
		{"tournament without a name", tournament(&pb.CreateTournamentRequest{}), "name"},
		{"tournament named blanks", tournament(&pb.CreateTournamentRequest{Name: "   "}), "name"},
		{"tournament name too long", tournament(&pb.CreateTournamentRequest{Name: strings.Repeat("x", 201)}), "name"},
		{"time control 40/", tournament(&pb.CreateTournamentRequest{Name: "Open", DefaultConfig: tc("40/")}), "move count without a time"},
		{"unknown ruleset", tournament(&pb.CreateTournamentRequest{Name: "Open", DefaultConfig: &pb.ClockConfig{Ruleset: "fide-1900"}}), "ruleset"},
		{"round number 0", createRound(&pb.CreateRoundRequest{TournamentId: tour}), "number"},
		{"round without tournament", createRound(&pb.CreateRoundRequest{Number: 2}), "tournament_id"},
		{"round time control 40/", createRound(&pb.CreateRoundRequest{TournamentId: tour, Number: 2, Config: tc("40/")}), "move count without a time"},
		{"board number 0", addBoard(&pb.AddBoardRequest{RoundId: round, White: white, Black: black}), "number"},
		{"board without round", addBoard(&pb.AddBoardRequest{Number: 9, White: white, Black: black}), "round_id"},
		{"board without white", addBoard(&pb.AddBoardRequest{RoundId: round, Number: 9, Black: black}), "white"},
		{"board with black unnamed", addBoard(&pb.AddBoardRequest{RoundId: round, Number: 9, White: white, Black: &pb.Player{}}), "black.name"},
		{"board rating 5000", addBoard(&pb.AddBoardRequest{RoundId: round, Number: 9, White: &pb.Player{Name: "W", Rating: 5000}, Black: black}), "white.rating"},
		{"board ruleset", addBoard(&pb.AddBoardRequest{RoundId: round, Number: 9, White: white, Black: black, Config: &pb.ClockConfig{Ruleset: "uscf"}}), "ruleset"},
		{"board time control 40/", addBoard(&pb.AddBoardRequest{RoundId: round, Number: 9, White: white, Black: black, Config: tc("40/")}), "move count without a time"},
		{"action without board", func(arb pb.ArbiterClient, ctx context.Context) error {
			_, err := arb.BoardAction(ctx, &pb.BoardActionRequest{Action: &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_PAUSE}})
			return err
		}, "board_id"},
		{"no action", action(nil), "action"},
		{"action without kind", action(&pb.ClockAction{}), "action.kind"},
		{"action of unknown kind", action(&pb.ClockAction{Kind: 99}), "action.kind"},
		{"press without side", action(&pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_PRESS}), "side"},
		{"ADD_TIME without ms", action(&pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_ADD_TIME, Side: pb.Side_SIDE_WHITE}), "ms"},
		{"QUICKPLAY_CLAIM without decision", action(&pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_QUICKPLAY_CLAIM, Side: pb.Side_SIDE_WHITE}), "decision"},
		{"SET_CLOCK white -1 ms", action(&pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_SET_CLOCK, WhiteMs: -1, BlackMs: 1000}), "white_ms"},
		{"SET_CLOCK black -1 ms", action(&pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_SET_CLOCK, WhiteMs: 1000, BlackMs: -1}), "black_ms"},
		{"SET_CLOCK black -1 moves", action(&pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_SET_CLOCK, WhiteMs: 1000, BlackMs: 1000, BlackMoves: i32(-1)}), "black_moves"},
		{"RESULT without result", action(&pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_RESULT}), "result"},
		{"POSITION without fen", action(&pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_POSITION}), "fen"},
		{"FLAG declared by an arbiter", action(&pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_FLAG, Side: pb.Side_SIDE_WHITE}), "FLAG_CLAIM"},
		{"wait_ms too large", func(arb pb.ArbiterClient, ctx context.Context) error {
			_, err := arb.BoardAction(ctx, &pb.BoardActionRequest{BoardId: board, Action: &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_PAUSE}, WaitMs: 60_001})
			return err
		}, "wait_ms"},
		{"reason too long", func(arb pb.ArbiterClient, ctx context.Context) error {
			_, err := arb.BoardAction(ctx, &pb.BoardActionRequest{BoardId: board, Action: &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_PAUSE}, Reason: strings.Repeat("é", 201)})
			return err
		}, "reason"},
		{"token without role", issue(&pb.IssueTokenRequest{Label: "x"}), "role"},
		{"token without label", issue(&pb.IssueTokenRequest{Role: pb.Role_ROLE_BROADCAST}), "label"},
		{"device token without device", issue(&pb.IssueTokenRequest{Role: pb.Role_ROLE_DEVICE, Label: "clock"}), "device_id"},
		{"broadcast token bound to a device", issue(&pb.IssueTokenRequest{Role: pb.Role_ROLE_BROADCAST, Label: "feed", DeviceId: "CLK-A"}), "device_id"},
		{"broadcast token with sections", issue(&pb.IssueTokenRequest{Role: pb.Role_ROLE_BROADCAST, Label: "feed", Sections: []string{"A"}}), "sections"},
		{"audit limit -1", func(arb pb.ArbiterClient, ctx context.Context) error {
			_, err := arb.AuditLog(ctx, &pb.AuditLogRequest{BoardId: board, Limit: -1})
			return err
		}, "limit"},
		{"GetBoard without board", func(arb pb.ArbiterClient, ctx context.Context) error {
			_, err := arb.GetBoard(ctx, &pb.GetBoardRequest{})
			return err
		}, "board_id"},
		{"AssignDevice without device", func(arb pb.ArbiterClient, ctx context.Context) error {
			_, err := arb.AssignDevice(ctx, &pb.AssignDeviceRequest{BoardId: board})
			return err
		}, "device_id"},
		{"StartRound without round", func(arb pb.ArbiterClient, ctx context.Context) error {
			_, err := arb.StartRound(ctx, &pb.StartRoundRequest{})
			return err
		}, "round_id"},
		{"RevokeToken without id", func(arb pb.ArbiterClient, ctx context.Context) error {
			_, err := arb.RevokeToken(ctx, &pb.RevokeTokenRequest{})
			return err
		}, "token_id"},
	}
}

// Every Arbiter request with a bad field gets InvalidArgument and a
// message naming the field; nothing of it is stored.
func TestDoorValidation(t *testing.T) {
	t.Parallel()
	sh := startSectionHall(t)
	arb, ctx := sh.h.Arbiter(t)
	before, err := arb.GetBoard(ctx, &pb.GetBoardRequest{BoardId: sh.a.GetBoardId()})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range validationCases(sh) {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.call(arb, ctx)
			st := status.Convert(err)
			if st.Code() != codes.InvalidArgument {
				t.Errorf("%s: code %v (%v), want %v", tc.name, st.Code(), err, codes.InvalidArgument)
				return
			}
			if !strings.Contains(st.Message(), tc.want) {
				t.Errorf("%s: message %q, want it to name %q", tc.name, st.Message(), tc.want)
			}
		})
	}
	after, err := arb.GetBoard(ctx, &pb.GetBoardRequest{BoardId: sh.a.GetBoardId()})
	if err != nil {
		t.Fatal(err)
	}
	if after.GetState().GetBoardSeq() != before.GetState().GetBoardSeq() || len(after.GetPending()) != 0 {
		t.Errorf("after invalid requests board_seq %d with %d pending, want %d with 0",
			after.GetState().GetBoardSeq(), len(after.GetPending()), before.GetState().GetBoardSeq())
	}
	// Watch requests are validated too.
	watch := pb.NewWatchClient(sh.h.Conn(t))
	for name, open := range map[string]func(context.Context) (grpc.ServerStreamingClient[pb.WatchUpdate], error){
		"board_id": func(ctx context.Context) (grpc.ServerStreamingClient[pb.WatchUpdate], error) {
			return watch.WatchBoard(ctx, &pb.WatchBoardRequest{})
		},
		"round_id": func(ctx context.Context) (grpc.ServerStreamingClient[pb.WatchUpdate], error) {
			return watch.WatchRound(ctx, &pb.WatchRoundRequest{})
		},
	} {
		err := firstUpdate(open)(ctx)
		if st := status.Convert(err); st.Code() != codes.InvalidArgument || !strings.Contains(st.Message(), name) {
			t.Errorf("watch without %s = %v, want %v naming %s", name, err, codes.InvalidArgument, name)
		}
	}
}

// The rules' refusals of an arbiter's action come back inside the response
// (status REFUSED, with the reason), not as an error, and are audited.
func TestDoorRefusalInResponse(t *testing.T) {
	t.Parallel()
	sh := startSectionHall(t)
	arb, ctx := sh.h.Arbiter(t)
	for _, a := range []*pb.ClockAction{
		{Kind: pb.ActionKind_ACTION_KIND_PAUSE},                                // the clock has not started
		{Kind: pb.ActionKind_ACTION_KIND_PRESS, Side: pb.Side_SIDE_BLACK},      // nor is it Black's move
		{Kind: pb.ActionKind_ACTION_KIND_FLAG_CLAIM, Side: pb.Side_SIDE_WHITE}, // no flag has fallen
	} {
		r, err := arb.BoardAction(ctx, &pb.BoardActionRequest{BoardId: sh.a.GetBoardId(), Action: a, Reason: "test", WaitMs: -1})
		if err != nil {
			t.Errorf("BoardAction(%v) error %v, want a REFUSED response", a, err)
			continue
		}
		if r.GetStatus() != pb.CommandStatus_COMMAND_STATUS_REFUSED || r.GetMessage() == "" || r.GetCommandId() != "" {
			t.Errorf("BoardAction(%v) = %v %q command %q, want REFUSED with a reason and no command", a, r.GetStatus(), r.GetMessage(), r.GetCommandId())
		}
		if r.GetState().GetBoardId() != sh.a.GetBoardId() || r.GetState().GetStatus() != pb.BoardStatus_BOARD_STATUS_WAITING {
			t.Errorf("BoardAction(%v) state %v, want board %s still waiting", a, r.GetState(), sh.a.GetBoardId())
		}
	}
	// A board without a clock device cannot take a clock command: that is
	// an error, FailedPrecondition, not a refusal of the rules.
	bare, err := arb.AddBoard(ctx, &pb.AddBoardRequest{RoundId: sh.round, Number: 3, White: &pb.Player{Name: "W"}, Black: &pb.Player{Name: "B"}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = arb.BoardAction(ctx, &pb.BoardActionRequest{BoardId: bare.GetBoardId(), Action: &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_START}, WaitMs: -1})
	if status.Code(err) != codes.FailedPrecondition {
		t.Errorf("START on a board without a device = %v, want %v", err, codes.FailedPrecondition)
	}
	log, err := arb.AuditLog(ctx, &pb.AuditLogRequest{BoardId: sh.a.GetBoardId()})
	if err != nil {
		t.Fatal(err)
	}
	refused := 0
	for _, e := range log.GetEntries() {
		if strings.HasPrefix(e.GetOutcome(), "refused") {
			refused++
		}
	}
	if refused != 3 {
		t.Errorf("audit log has %d refusals, want 3", refused)
	}
}

// Unknown boards, rounds, tournaments and tokens are NotFound.
func TestDoorNotFound(t *testing.T) {
	t.Parallel()
	sh := startSectionHall(t)
	arb, ctx := sh.h.Arbiter(t)
	watch := pb.NewWatchClient(sh.h.Conn(t))
	const nb = "b-nosuchboard"
	for _, tc := range []struct {
		name string
		call func() error
	}{
		{"GetBoard", func() error { _, err := arb.GetBoard(ctx, &pb.GetBoardRequest{BoardId: nb}); return err }},
		{"BoardAction", func() error {
			_, err := arb.BoardAction(ctx, &pb.BoardActionRequest{BoardId: nb, Action: &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_PAUSE}})
			return err
		}},
		{"AuditLog", func() error { _, err := arb.AuditLog(ctx, &pb.AuditLogRequest{BoardId: nb}); return err }},
		{"AssignDevice", func() error {
			_, err := arb.AssignDevice(ctx, &pb.AssignDeviceRequest{BoardId: nb, DeviceId: "CLK-X"})
			return err
		}},
		{"SwapDevices", func() error {
			_, err := arb.SwapDevices(ctx, &pb.SwapDevicesRequest{BoardA: sh.a.GetBoardId(), BoardB: nb})
			return err
		}},
		{"UseVirtualClock", func() error { _, err := arb.UseVirtualClock(ctx, &pb.UseVirtualClockRequest{BoardId: nb}); return err }},
		{"AddBoard", func() error {
			_, err := arb.AddBoard(ctx, &pb.AddBoardRequest{RoundId: "r-nosuchround", Number: 1, White: &pb.Player{Name: "W"}, Black: &pb.Player{Name: "B"}})
			return err
		}},
		{"CreateRound", func() error {
			_, err := arb.CreateRound(ctx, &pb.CreateRoundRequest{TournamentId: "t-nosuchtournament", Number: 1})
			return err
		}},
		{"StartRound", func() error {
			_, err := arb.StartRound(ctx, &pb.StartRoundRequest{RoundId: "r-nosuchround"})
			return err
		}},
		{"RevokeToken", func() error {
			_, err := arb.RevokeToken(ctx, &pb.RevokeTokenRequest{TokenId: "tok-nosuchtoken"})
			return err
		}},
		{"WatchBoard", func() error {
			return firstUpdate(func(ctx context.Context) (grpc.ServerStreamingClient[pb.WatchUpdate], error) {
				return watch.WatchBoard(ctx, &pb.WatchBoardRequest{BoardId: nb})
			})(ctx)
		}},
	} {
		if err := tc.call(); status.Code(err) != codes.NotFound {
			t.Errorf("%s of something unknown = %v, want %v", tc.name, err, codes.NotFound)
		}
	}
}

// Tokens are stored hashed: no stored field holds the secret or any
// stretch of it, and the stored hash is storage.HashSecret of the secret.
func TestDoorTokensStoredHashed(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t)
	arb, ctx := h.Arbiter(t)
	secrets := map[string]string{} // token id → secret
	for _, r := range []*pb.IssueTokenRequest{
		{Role: pb.Role_ROLE_DEVICE, Label: "clock 1", DeviceId: "CLK-001"},
		{Role: pb.Role_ROLE_ARBITER, Label: "Anna", Sections: []string{"A", "B"}},
		{Role: pb.Role_ROLE_CHIEF_ARBITER, Label: "deputy chief"},
		{Role: pb.Role_ROLE_BROADCAST, Label: "feed"},
	} {
		resp, err := arb.IssueToken(ctx, r)
		if err != nil {
			t.Fatal(err)
		}
		secrets[resp.GetTokenId()] = resp.GetToken()
	}
	recs, err := h.Store.Tokens(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	for _, rec := range recs {
		secret, ok := secrets[rec.ID]
		if !ok {
			continue // the chief's first token
		}
		found++
		if rec.Hash != ident.HashSecret(secret) {
			t.Errorf("token %s: stored hash %q, want HashSecret(secret) %q", rec.ID, rec.Hash, ident.HashSecret(secret))
		}
		fields := append([]string{rec.ID, rec.Hash, rec.Role, rec.Label, rec.DeviceID}, rec.Sections...)
		for _, f := range fields {
			if part := sharedStretch(f, secret, 8); part != "" {
				t.Errorf("token %s: stored field %q holds %q of the secret", rec.ID, f, part)
			}
		}
	}
	if found != len(secrets) {
		t.Errorf("found %d of the %d issued tokens in the store", found, len(secrets))
	}
	// ListTokens shows no secret either.
	lt, err := arb.ListTokens(ctx, &pb.ListTokensRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range secrets {
		if part := sharedStretch(lt.String(), secret, 8); part != "" {
			t.Errorf("ListTokens holds %q of a secret", part)
		}
	}
}

// sharedStretch returns a substring of secret at least n long that s
// contains, or "". The secret's fixed prefix ("hc_") does not count.
func sharedStretch(s, secret string, n int) string {
	secret = strings.TrimPrefix(secret, "hc_")
	for i := 0; i+n <= len(secret); i++ {
		if strings.Contains(s, secret[i:i+n]) {
			return secret[i : i+n]
		}
	}
	return ""
}

// A panic in a handler becomes codes.Internal (the recovery interceptor),
// and the server goes on serving.
//
// No handler of the hall panics on purpose, so the test registers a
// panicking service on the server's own gRPC server, behind the same
// interceptor chain. Only health and reflection pass the door without a
// token, and a service not in the door's table is refused before its
// handler, so the test service takes a name under "grpc.reflection.".
func TestDoorPanicBecomesInternal(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st, err := storage.Open(ctx, filepath.Join(t.TempDir(), "hall.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := server.New(ctx, st, server.Options{Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	const svc = "grpc.reflection.halltest.Panicker"
	srv.GRPC().RegisterService(&grpc.ServiceDesc{
		ServiceName: svc,
		HandlerType: (*any)(nil),
		Methods: []grpc.MethodDesc{{MethodName: "Unary", Handler: func(_ any, ctx context.Context, dec func(any) error, icp grpc.UnaryServerInterceptor) (any, error) {
			in := new(emptypb.Empty)
			if err := dec(in); err != nil {
				return nil, err
			}
			h := func(context.Context, any) (any, error) { panic("a bug in a handler") }
			return icp(ctx, in, &grpc.UnaryServerInfo{FullMethod: "/" + svc + "/Unary"}, h)
		}}},
		Streams: []grpc.StreamDesc{{StreamName: "Stream", ServerStreams: true, Handler: func(any, grpc.ServerStream) error {
			panic("a bug in a stream handler")
		}}},
	}, struct{}{})
	l := bufconn.Listen(1 << 20)
	go srv.ServeGRPC(l)
	t.Cleanup(func() { srv.Shutdown(time.Second); st.Close() })
	conn, err := grpc.NewClient("passthrough:///bufnet", grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return l.DialContext(ctx) }))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()

	err = conn.Invoke(cctx, "/"+svc+"/Unary", &emptypb.Empty{}, &emptypb.Empty{})
	if st := status.Convert(err); st.Code() != codes.Internal || !strings.Contains(st.Message(), "a bug in a handler") {
		t.Errorf("unary call that panics = %v, want %v", err, codes.Internal)
	}
	stream, err := conn.NewStream(cctx, &grpc.StreamDesc{ServerStreams: true}, "/"+svc+"/Stream")
	if err == nil {
		if err = stream.SendMsg(&emptypb.Empty{}); err == nil {
			_ = stream.CloseSend()
			err = stream.RecvMsg(&emptypb.Empty{})
		}
	}
	if status.Code(err) != codes.Internal {
		t.Errorf("stream that panics = %v, want %v", err, codes.Internal)
	}
	resp, err := healthpb.NewHealthClient(conn).Check(cctx, &healthpb.HealthCheckRequest{})
	if err != nil || resp.GetStatus() != healthpb.HealthCheckResponse_SERVING {
		t.Errorf("health after panics = %v, %v; want SERVING", resp, err)
	}
}
