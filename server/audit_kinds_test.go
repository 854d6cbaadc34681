package server_test

import (
	"strings"
	"testing"

	"github.com/chesshall/hallclock/formats/words"
	"github.com/chesshall/hallclock/internal/testkit/halltest"
	"github.com/chesshall/hallclock/internal/wirewords"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// The hall's own actions enter the audit as a kind and its parameters
// (issue 34, item 3), not only as English: a hall plan set, a token
// issued, a tablet's clock link made, a section's tie-breaks set, a board
// added, a round's broadcast set — each
// reads in Korean with every parameter written in (a term such as "the
// tournament's" in Korean too), and the clock link's expiry in the hall's
// zone.
func TestHallActionsAreKindsInTheAudit(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t)
	arb, ctx := h.Arbiter(t)
	r := h.NewRound(t, "Open", 1, &pb.ClockConfig{TimeControl: "90m+30s"})
	b, err := arb.AddBoard(ctx, &pb.AddBoardRequest{RoundId: r.GetRoundId(), Number: 1, White: &pb.Player{Name: "w"}, Black: &pb.Player{Name: "b"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := arb.SetPlan(ctx, &pb.SetPlanRequest{Tables: []*pb.PlanTable{{Table: 2, DeviceId: "CLK-009"}}}); err != nil {
		t.Fatal(err)
	}
	h.Token(t, pb.Role_ROLE_ARBITER, "Bo", "", "A")
	if _, err := arb.IssueClockLink(ctx, &pb.IssueClockLinkRequest{BoardId: b.GetBoardId()}); err != nil {
		t.Fatal(err)
	}
	if _, err := arb.SetTieBreaks(ctx, &pb.SetTieBreaksRequest{Tournament: "Open", Section: "A", TieBreaks: "WIN,SB"}); err != nil {
		t.Fatal(err)
	}
	public, relay := true, "https://relay.example/push"
	if _, err := arb.SetBroadcast(ctx, &pb.SetBroadcastRequest{RoundId: r.GetRoundId(), Public: &public, RelayUrl: &relay}); err != nil {
		t.Fatal(err)
	}
	log, err := arb.AuditLog(ctx, &pb.AuditLogRequest{})
	if err != nil {
		t.Fatal(err)
	}
	// each kind's entry (the one whose English says the first) and what
	// its Korean must say
	want := map[string][2]string{"did.set_plan_hall": {"CLK-009", "2: CLK-009"}, "did.issue_token": {"Bo", "Bo (심판)"},
		"did.clock_link": {"clock link", "UTC"}, "did.set_section_tie_breaks": {"WIN,SB", "WIN,SB (이전: 대회의 것)"},
		"did.add_board": {"add_board 1", "체스판 1 추가: w – b"}, "did.set_broadcast_relay": {"set_broadcast", "공개 예, 릴레이 " + relay}}
	for _, e := range log.GetEntries() {
		w := e.GetWords()
		pick, ok := want[w.GetKind()]
		if !ok || !strings.Contains(e.GetWhat(), pick[0]) {
			continue
		}
		mark := pick[1]
		delete(want, w.GetKind())
		if !words.Known(w.GetKind()) {
			t.Errorf("%s: no words in the catalogues", w.GetKind())
		}
		m := wirewords.Message(w)
		en, ko := words.Render("en", m), words.Render("ko", m)
		if en == ko || strings.Contains(ko, "{") || !strings.Contains(ko, mark) {
			t.Errorf("%s (%q) in Korean: %q, English %q; want Korean words with %q written in", w.GetKind(), e.GetWhat(), ko, en, mark)
		}
		if w.GetParams()["text"] != e.GetWhat() {
			t.Errorf("%s: the params' text %q is not the entry's English %q", w.GetKind(), w.GetParams()["text"], e.GetWhat())
		}
	}
	for kind := range want {
		t.Errorf("no audit entry of kind %s", kind)
	}
}
