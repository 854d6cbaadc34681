package server_test

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"

	"github.com/chesshall/hallclock/clockdev"
	"github.com/chesshall/hallclock/internal/testkit/halltest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
	"github.com/chesshall/hallclock/server/auth"
)

// The assistant of a visually disabled player (FIDE 2018 Appendix D.2.10)
// signs in with a token scoped to one board and one side. On that board
// he may do what the appendix lets him, checked by the rules; everything
// else of the hall is refused.

// assistantHall is a round of two boards under the appendix (White
// visually disabled, with an assistant, 2018 rules), each with a clock,
// and the assistant of board 1's White.
type assistantHall struct {
	h      *halltest.Hall
	mine   *pb.Board // the assistant's board
	other  *pb.Board
	devs   []*clockdev.Device
	token  string // the assistant's bearer token
	actx   context.Context
	label  string
	arb    pb.ArbiterClient
	chief  context.Context
	roundR string
}

func newAssistantHall(t *testing.T) *assistantHall {
	t.Helper()
	h := halltest.Start(t)
	boards := h.Round(t, "90m+30s", 2, &pb.ClockConfig{Ruleset: "fide-2018", BlindPlay: whiteBlind()})
	arb, ctx := h.Arbiter(t)
	a := &assistantHall{h: h, mine: boards[0], other: boards[1], arb: arb, chief: ctx, roundR: boards[0].GetRoundId(), label: "Maria"}
	for _, b := range boards {
		a.devs = append(a.devs, h.Device(t, b.GetDeviceId()))
	}
	resp, err := arb.IssueToken(ctx, &pb.IssueTokenRequest{Role: pb.Role_ROLE_ASSISTANT, Label: a.label, BoardId: a.mine.GetBoardId(), Side: pb.Side_SIDE_WHITE})
	if err != nil {
		t.Fatalf("IssueToken(ROLE_ASSISTANT): %v", err)
	}
	a.token, a.actx = resp.GetToken(), halltest.Ctx(context.Background(), resp.GetToken())
	return a
}

// The assistant's token is issued only for a side the board gives an
// assistant (D.2.10; D.2.11: a sighted player's, when the visually
// disabled player has none), by the chief or an arbiter of the board's
// section, and listed with its board and side.
func TestAssistantTokens(t *testing.T) {
	t.Parallel()
	a := newAssistantHall(t)
	if _, err := a.arb.IssueToken(a.chief, &pb.IssueTokenRequest{Role: pb.Role_ROLE_ASSISTANT, Label: "x", BoardId: a.mine.GetBoardId(), Side: pb.Side_SIDE_BLACK}); codeOf(err) != codes.FailedPrecondition ||
		!strings.Contains(err.Error(), "D.2.10") {
		t.Errorf("IssueToken(the sighted Black's assistant, who has none) = %v, want FailedPrecondition citing D.2.10", err)
	}
	if _, err := a.arb.IssueToken(a.chief, &pb.IssueTokenRequest{Role: pb.Role_ROLE_ASSISTANT, Label: "x", Side: pb.Side_SIDE_WHITE}); codeOf(err) != codes.InvalidArgument {
		t.Errorf("IssueToken(an assistant of no board) = %v, want InvalidArgument", err)
	}
	link, err := a.arb.IssueAssistantLink(a.chief, &pb.IssueAssistantLinkRequest{BoardId: a.mine.GetBoardId(), Side: pb.Side_SIDE_WHITE})
	if err != nil || !strings.HasPrefix(link.GetSigninPath(), "/signin?code=sc_") || link.GetLabel() != "TestAssistantTokens 1.1 white" {
		t.Errorf("IssueAssistantLink = %v, %v; want a one-time sign-in path, labelled by the board and side", link, err)
	}
	deputyB := halltest.Ctx(context.Background(), a.h.Token(t, pb.Role_ROLE_ARBITER, "Bert", "", "B"))
	if _, err := a.arb.IssueAssistantLink(deputyB, &pb.IssueAssistantLinkRequest{BoardId: a.mine.GetBoardId(), Side: pb.Side_SIDE_WHITE}); codeOf(err) != codes.NotFound {
		t.Errorf("IssueAssistantLink by an arbiter of another section = %v, want NotFound (another section's board is none of his)", err)
	}
	list, err := a.arb.ListTokens(a.chief, &pb.ListTokensRequest{})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, tk := range list.GetTokens() {
		if tk.GetRole() == pb.Role_ROLE_ASSISTANT {
			n++
			if tk.GetBoardId() != a.mine.GetBoardId() || tk.GetSide() != pb.Side_SIDE_WHITE {
				t.Errorf("ListTokens: assistant %v, want board %s, white", tk, a.mine.GetBoardId())
			}
		}
	}
	if n != 2 {
		t.Errorf("ListTokens lists %d assistants' tokens, want 2 (the token and the link's)", n)
	}
	if e := findAudit(auditWhats(t, a.arb, a.chief, a.mine.GetBoardId()), "issue_token assistant Maria"); e == nil {
		t.Errorf("the board's audit log does not name its assistant's token")
	}
}

// On his board the assistant does what the appendix lets him, as the
// rules judge it: he presses for his player once the move is made — the
// opponent's clock starts (D.2.3-D.2.4, D.2.10.3) — asks for the
// announcement (D.2.10.4), claims a flag (D.2.10.5), stops the clock to
// call the arbiter (D.2.10.5, 6.11.2). The sighted opponent's clock, and
// every action of the arbiter's, is not his (D.2.5, D.2.10); each is
// audited as his.
func TestAssistantOnHisBoard(t *testing.T) {
	t.Parallel()
	a := newAssistantHall(t)
	id := a.mine.GetBoardId()
	act(t, a.arb, a.chief, id, &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_START}, pb.CommandStatus_COMMAND_STATUS_APPLIED)

	if b, err := a.arb.GetBoard(a.actx, &pb.GetBoardRequest{BoardId: id}); err != nil || b.GetWhite().GetName() != "White 1" {
		t.Fatalf("GetBoard(his board) = %v, %v", b, err)
	}
	r := act(t, a.arb, a.actx, id, &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_PRESS, Side: pb.Side_SIDE_WHITE}, pb.CommandStatus_COMMAND_STATUS_APPLIED)
	if st := r.GetState(); st.GetWhite().GetMoves() != 1 || st.GetRunning() != pb.Side_SIDE_BLACK {
		t.Errorf("after the assistant's press: %v; want White's move completed and Black's clock running", st)
	}
	if st := a.devs[0].State(); st.P[rules.White].Moves != 1 {
		t.Errorf("the clock on the table has White at %d moves, want 1: the press travels through it", st.P[rules.White].Moves)
	}
	// D.2.3-D.2.4: not while the opponent has the move.
	act(t, a.arb, a.actx, id, &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_PRESS, Side: pb.Side_SIDE_WHITE}, pb.CommandStatus_COMMAND_STATUS_REFUSED)
	// D.2.5: the sighted Black presses his own clock.
	_, err := a.arb.BoardAction(a.actx, &pb.BoardActionRequest{BoardId: id, Action: &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_PRESS, Side: pb.Side_SIDE_BLACK}})
	if codeOf(err) != codes.PermissionDenied || !strings.Contains(err.Error(), "D.2.5") {
		t.Errorf("the assistant presses for Black: %v, want PermissionDenied citing D.2.5", err)
	}
	// D.2.10.5: a flag claim for his player; Black's flag has not fallen.
	act(t, a.arb, a.actx, id, &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_FLAG_CLAIM, Side: pb.Side_SIDE_WHITE}, pb.CommandStatus_COMMAND_STATUS_REFUSED)
	// D.2.10.4: the announcement to his player, not to the other.
	ann, err := a.arb.Announce(a.actx, &pb.AnnounceRequest{BoardId: id, Side: pb.Side_SIDE_WHITE})
	if err != nil || ann.GetAnnounce().GetRequestedBy() != "assistant:Maria" || ann.GetAnnounce().GetWhiteMoves() != 1 {
		t.Errorf("Announce(white) by the assistant = %v, %v; want the words of White's 1 move, asked by assistant:Maria", ann, err)
	}
	if _, err := a.arb.Announce(a.actx, &pb.AnnounceRequest{BoardId: id, Side: pb.Side_SIDE_BLACK}); codeOf(err) != codes.PermissionDenied {
		t.Errorf("Announce(black) by White's assistant = %v, want PermissionDenied", err)
	}

	// Every action of the arbiter's, or the players' own, is refused to
	// him (D.2.10 lists his); a flag is the clock's to report.
	for k := range pb.ActionKind_name {
		kind := pb.ActionKind(k)
		switch kind {
		case pb.ActionKind_ACTION_KIND_UNSPECIFIED, pb.ActionKind_ACTION_KIND_PRESS, pb.ActionKind_ACTION_KIND_FLAG_CLAIM,
			pb.ActionKind_ACTION_KIND_PAUSE, pb.ActionKind_ACTION_KIND_ADJOURN:
			continue
		}
		t.Run(kind.String(), func(t *testing.T) {
			action := &pb.ClockAction{Kind: kind, Side: pb.Side_SIDE_WHITE, Ms: 60_000, WhiteMs: 60_000, BlackMs: 60_000, Result: "1-0",
				Termination: "normal", Fen: "8/8/8/4k3/8/8/8/4K3 w - - 0 1", Decision: pb.QuickplayDecision_QUICKPLAY_DECISION_DRAW, Move: 1}
			for _, dry := range []bool{false, true} {
				_, err := a.arb.BoardAction(a.actx, &pb.BoardActionRequest{BoardId: id, Action: action, DryRun: dry})
				want := codes.PermissionDenied
				if kind == pb.ActionKind_ACTION_KIND_FLAG {
					want = codes.InvalidArgument
				}
				if codeOf(err) != want {
					t.Errorf("BoardAction(%s, dry run %v) by the assistant = %v, want %v", kind, dry, err, want)
				}
			}
		})
	}

	// D.2.10.5, 6.11.2: he stops the clock to call the arbiter; only the
	// arbiter restarts it.
	act(t, a.arb, a.actx, id, &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_PAUSE}, pb.CommandStatus_COMMAND_STATUS_APPLIED)
	if _, err := a.arb.BoardAction(a.actx, &pb.BoardActionRequest{BoardId: id, Action: &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_RESUME}}); codeOf(err) != codes.PermissionDenied {
		t.Errorf("the assistant restarts the clock: %v, want PermissionDenied", err)
	}

	// Every request of his is audited as his.
	var mine []string
	for _, e := range auditWhats(t, a.arb, a.chief, id) {
		if e.GetActor() == "assistant:Maria" {
			mine = append(mine, e.GetWhat()+": "+e.GetOutcome())
		}
	}
	for _, want := range []string{"press white: pending", "pause: pending", "press black: refused", "resume: refused", "flag_claim white: refused", "set_clock"} {
		if !slices.ContainsFunc(mine, func(e string) bool { return strings.HasPrefix(e, want) }) {
			t.Errorf("audit: no entry of the assistant's %q (his entries: %q)", want, mine)
		}
	}
	if !strings.HasPrefix(findAudit(auditWhats(t, a.arb, a.chief, id), "announce to white").GetActor(), "assistant:Maria") {
		t.Errorf("the assistant's announcement is not audited as his")
	}
}

// Everything of the hall beyond his board and his duties is refused to
// the assistant's token: every method of every service (gRPC), each with
// the other board where it names one, and every path of the HTTP port,
// by bearer token and by the session his link signs in.
func TestAssistantIsRefusedEverythingElse(t *testing.T) {
	t.Parallel()
	a := newAssistantHall(t)
	conn := a.h.Conn(t)
	mayCall := map[string]bool{"/hall.v1.Arbiter/BoardAction": true, "/hall.v1.Arbiter/GetBoard": true, "/hall.v1.Arbiter/Announce": true}
	services := pb.File_hall_v1_hall_proto.Services()
	for i := range services.Len() {
		sd := services.Get(i)
		for j := range sd.Methods().Len() {
			md := sd.Methods().Get(j)
			full := "/" + string(sd.FullName()) + "/" + string(md.Name())
			t.Run(full, func(t *testing.T) {
				req := dynamicpb.NewMessage(md.Input())
				if f := md.Input().Fields().ByName("board_id"); f != nil {
					req.Set(f, protoreflect.ValueOfString(a.other.GetBoardId()))
				}
				if f := md.Input().Fields().ByName("side"); f != nil {
					req.Set(f, protoreflect.ValueOfEnum(protoreflect.EnumNumber(pb.Side_SIDE_WHITE)))
				}
				if f := md.Input().Fields().ByName("action"); f != nil {
					act := &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_PRESS, Side: pb.Side_SIDE_WHITE}
					req.Set(f, protoreflect.ValueOfMessage(act.ProtoReflect()))
				}
				err := invoke(a.actx, conn, full, md, req)
				if codeOf(err) != codes.PermissionDenied {
					t.Errorf("%s by the assistant of another board = %v, want PermissionDenied", full, err)
				}
				if mayCall[full] && !strings.Contains(err.Error(), "may act on board "+a.mine.GetBoardId()+" only") {
					t.Errorf("%s on another board: %v; want it refused for its board", full, err)
				}
			})
		}
	}

	// The HTTP port, as a bearer token and as the session of his link.
	w := newWeb(t, a.h)
	link, err := a.arb.IssueAssistantLink(a.chief, &pb.IssueAssistantLinkRequest{BoardId: a.mine.GetBoardId(), Side: pb.Side_SIDE_WHITE, Label: "Maria"})
	if err != nil {
		t.Fatal(err)
	}
	code := strings.TrimPrefix(link.GetSigninPath(), "/signin?code=")
	if resp, body := w.do("POST", "/api/session", url.Values{"code": {code}}, nil); resp.StatusCode != 200 {
		t.Fatalf("signing in with the assistant's link = %d %s", resp.StatusCode, body)
	}
	in := w.session()
	if in.Role != auth.RoleAssistant || in.Board != a.mine.GetBoardId() || in.Side != "white" {
		t.Fatalf("the link signs in as %+v; want White's assistant of board %s", in, a.mine.GetBoardId())
	}
	cookie := w.cookie
	mine, other, round := a.mine.GetBoardId(), a.other.GetBoardId(), a.roundR
	type path struct{ method, path, body string }
	paths := []path{
		{"GET", "/api/boards", ""}, {"GET", "/api/boards?round=" + round, ""},
		{"GET", "/api/watch", ""}, {"GET", "/api/watch?board=" + mine, ""}, {"GET", "/api/watch?round=" + round, ""},
		{"GET", "/api/broadcasts", ""}, {"GET", "/api/backup", ""}, {"GET", "/api/stream", ""},
		{"GET", "/api/pgn/round/" + round, ""}, {"GET", "/api/pgn/board/" + mine, ""}, {"GET", "/api/pgn/board/" + other, ""},
		{"GET", "/api/display/round/" + round, ""}, {"GET", "/api/display/round/" + round + "/live", ""},
	}
	onOther := map[string]string{
		"BoardAction": `{"boardId": "` + other + `", "action": {"kind": "ACTION_KIND_PRESS", "side": "SIDE_WHITE"}}`,
		"GetBoard":    `{"boardId": "` + other + `"}`,
		"Announce":    `{"boardId": "` + other + `", "side": "SIDE_WHITE"}`,
	}
	for _, m := range pb.Arbiter_ServiceDesc.Methods {
		body, ok := onOther[m.MethodName]
		if !ok {
			body = "{}"
		}
		if ok != mayCall["/hall.v1.Arbiter/"+m.MethodName] {
			t.Fatalf("the test names %s a method of the assistant's: %v; the door: %v", m.MethodName, ok, mayCall)
		}
		paths = append(paths, path{"POST", "/api/arbiter/" + m.MethodName, body})
	}
	for _, how := range []string{"bearer", "session"} {
		for _, p := range paths {
			t.Run(how+" "+p.method+" "+p.path, func(t *testing.T) {
				header := map[string]string{"Content-Type": "application/json"}
				w.cookie = nil
				if how == "bearer" {
					header["Authorization"] = "Bearer " + a.token
				} else {
					w.cookie, header["X-CSRF-Token"] = cookie, in.CSRF
				}
				resp, body := w.send(p.method, p.path, strings.NewReader(p.body), header)
				// Forbidden, or — a session is no credential the public
				// feeds know — treated as anyone, to whom the round is not
				// public.
				if resp.StatusCode != http.StatusForbidden && !(how == "session" && resp.StatusCode == http.StatusUnauthorized) {
					t.Errorf("%s %s as the assistant (%s) = %d %.200s; want it refused", p.method, p.path, how, resp.StatusCode, body)
				}
			})
		}
	}
	// What is his: his page, his session, his board. (The dashboard's and
	// the display's pages are shells any browser loads; what they show
	// comes from the paths above.)
	w.cookie = cookie
	for _, p := range []string{"/assist", "/assist/assist.js", "/api/session"} {
		if resp, body := w.do("GET", p, nil, nil); resp.StatusCode != 200 {
			t.Errorf("GET %s as the assistant = %d %.200s, want 200", p, resp.StatusCode, body)
		}
	}
	status, body := w.call("GetBoard", `{"boardId": "`+mine+`"}`, map[string]string{"X-CSRF-Token": in.CSRF})
	var b pb.Board
	if status != 200 || protojson.Unmarshal([]byte(body), &b) != nil || b.GetBoardId() != mine {
		t.Errorf("GetBoard(his board) over HTTP = %d %.200s", status, body)
	}
}

// invoke calls a method of the hall, unary or streaming, with req, and
// returns its error (a stream's first).
func invoke(ctx context.Context, conn *grpc.ClientConn, full string, md protoreflect.MethodDescriptor, req *dynamicpb.Message) error {
	if !md.IsStreamingClient() && !md.IsStreamingServer() {
		return conn.Invoke(ctx, full, req, dynamicpb.NewMessage(md.Output()))
	}
	s, err := conn.NewStream(ctx, &grpc.StreamDesc{ServerStreams: md.IsStreamingServer(), ClientStreams: md.IsStreamingClient()}, full)
	if err != nil {
		return err
	}
	if err := s.SendMsg(req); err != nil && err != io.EOF {
		return err
	}
	_ = s.CloseSend()
	return s.RecvMsg(dynamicpb.NewMessage(md.Output()))
}
