package server_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protojson"

	"github.com/chesshall/hallclock/internal/testkit/halltest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// sectionRound adds a round of two boards, board 1 in section A and board
// 2 in section B, each with a device, and returns them.
func sectionRound(t *testing.T, h *halltest.Hall, tc string) (a, b *pb.Board) {
	t.Helper()
	arb, ctx := h.Arbiter(t)
	r := h.NewRound(t, t.Name(), 1, &pb.ClockConfig{TimeControl: tc})
	var out []*pb.Board
	for i, sec := range []string{"A", "B"} {
		bd, err := arb.AddBoard(ctx, &pb.AddBoardRequest{RoundId: r.GetRoundId(), Number: int32(i + 1), Section: sec,
			White: &pb.Player{Name: "White " + sec}, Black: &pb.Player{Name: "Black " + sec}, DeviceId: "CLK-" + sec})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, bd)
	}
	return out[0], out[1]
}

// call posts a protojson body to /api/arbiter/<method> with the session
// cookie (if signed in) and the headers, and returns the status and body.
func (w *web) call(method, body string, header map[string]string) (int, string) {
	w.t.Helper()
	h := map[string]string{"Content-Type": "application/json"}
	for k, v := range header {
		h[k] = v
	}
	resp, b := w.send("POST", "/api/arbiter/"+method, strings.NewReader(body), h)
	return resp.StatusCode, b
}

// The web pages call the Arbiter service at POST /api/arbiter/<Method>
// through the gRPC door's role table, validation and error mapping: a
// signed-in browser may do what its token may do over gRPC, no more.
func TestArbiterOverHTTP(t *testing.T) {
	h := halltest.Start(t)
	a, b := sectionRound(t, h, "90m+30s")
	h.Device(t, a.GetDeviceId())
	h.Device(t, b.GetDeviceId())
	anna := h.Token(t, pb.Role_ROLE_ARBITER, "Anna", "", "A")
	feed := h.Token(t, pb.Role_ROLE_BROADCAST, "feed", "")
	dev := h.DeviceToken(t, a.GetDeviceId())
	bearer := func(tok string) map[string]string { return map[string]string{"Authorization": "Bearer " + tok} }
	start := func(board string) string {
		return `{"boardId":"` + board + `","action":{"kind":"ACTION_KIND_START"},"reason":"round 1 begins","waitMs":3000}`
	}
	w := newWeb(t, h)

	for _, c := range []struct {
		name, method, body string
		header             map[string]string
		want               int
		wantCode           string
	}{
		{"no credentials", "ListBoards", "{}", nil, 401, "Unauthenticated"},
		{"a wrong token", "ListBoards", "{}", bearer("hc_wrong"), 401, "Unauthenticated"},
		{"a device token", "ListBoards", "{}", bearer(dev), 403, "PermissionDenied"},
		{"broadcast acts", "BoardAction", start(a.GetBoardId()), bearer(feed), 403, "PermissionDenied"},
		{"broadcast reads the audit log", "AuditLog", `{"boardId":"` + a.GetBoardId() + `"}`, bearer(feed), 403, "PermissionDenied"},
		{"arbiter of A acts in B", "BoardAction", start(b.GetBoardId()), bearer(anna), 404, "NotFound"}, // as a board that does not exist
		{"arbiter issues a token", "IssueToken", `{"role":"ROLE_CHIEF_ARBITER","label":"me"}`, bearer(anna), 403, "PermissionDenied"},
		{"an unknown method", "DropTables", "{}", bearer(anna), 404, "Unimplemented"},
		{"not protojson", "ListBoards", `{"boards":`, bearer(anna), 400, "InvalidArgument"},
		{"an unknown field", "ListBoards", `{"roundNumber":1}`, bearer(anna), 400, "InvalidArgument"},
		{"validation", "BoardAction", `{"boardId":"` + strings.Repeat("x", 100) + `"}`, bearer(anna), 400, "InvalidArgument"},
	} {
		code, body := w.call(c.method, c.body, c.header)
		var e struct{ Code, Message string }
		_ = json.Unmarshal([]byte(body), &e)
		if code != c.want || e.Code != c.wantCode || e.Message == "" {
			t.Errorf("%s: %s = %d %s; want %d with code %s and a message", c.name, c.method, code, body, c.want, c.wantCode)
		}
	}

	// Anna, signed in by cookie: her section only, and the CSRF token.
	if resp, body := w.do("POST", "/signin", url.Values{"token": {anna}}, map[string]string{"Origin": w.base}); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("sign in: %d %s", resp.StatusCode, body)
	}
	csrf := map[string]string{"X-CSRF-Token": w.session().CSRF, "Origin": w.base}
	if code, body := w.call("BoardAction", start(a.GetBoardId()), map[string]string{"Origin": w.base}); code != 403 || !strings.Contains(body, "CSRF") {
		t.Errorf("a call without the CSRF token = %d %s, want 403 naming the CSRF token", code, body)
	}
	code, body := w.call("ListBoards", "{}", csrf)
	var list pb.ListBoardsResponse
	if err := protojson.Unmarshal([]byte(body), &list); code != 200 || err != nil || len(list.GetBoards()) != 1 || list.GetBoards()[0].GetSection() != "A" {
		t.Errorf("ListBoards as Anna = %d %s (%v), want section A's board only", code, body, err)
	}
	code, body = w.call("BoardAction", start(a.GetBoardId()), csrf)
	var got pb.BoardActionResponse
	if err := protojson.Unmarshal([]byte(body), &got); code != 200 || err != nil || got.GetStatus() != pb.CommandStatus_COMMAND_STATUS_APPLIED ||
		got.GetState().GetStatus() != pb.BoardStatus_BOARD_STATUS_RUNNING {
		t.Fatalf("starting board A = %d %s, want applied, running", code, body)
	}
	// A refusal of the rules is an answer, with the rules' message.
	code, body = w.call("BoardAction", `{"boardId":"`+a.GetBoardId()+`","action":{"kind":"ACTION_KIND_SET_CLOCK","whiteMs":60000,"blackMs":60000}}`, csrf)
	got.Reset()
	if err := protojson.Unmarshal([]byte(body), &got); code != 200 || err != nil || got.GetStatus() != pb.CommandStatus_COMMAND_STATUS_REFUSED || !strings.Contains(got.GetMessage(), "stop the clock") {
		t.Errorf("setting a running clock = %d %s, want REFUSED saying the clock must be stopped", code, body)
	}
	code, body = w.call("AuditLog", `{"boardId":"`+a.GetBoardId()+`"}`, csrf)
	var log pb.AuditLogResponse
	if err := protojson.Unmarshal([]byte(body), &log); code != 200 || err != nil {
		t.Fatalf("AuditLog = %d %s", code, body)
	}
	var started, refused bool
	for _, e := range log.GetEntries() {
		started = started || (e.GetActor() == "arbiter:Anna" && e.GetReason() == "round 1 begins")
		refused = refused || (e.GetActor() == "arbiter:Anna" && strings.HasPrefix(e.GetOutcome(), "refused"))
	}
	if !started || !refused {
		t.Errorf("audit log %v: want Anna's start with her reason and her refused setting", log.GetEntries())
	}
}
