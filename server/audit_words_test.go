package server_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/chesshall/hallclock/formats/words"
	"github.com/chesshall/hallclock/internal/testkit/halltest"
	"github.com/chesshall/hallclock/internal/wirewords"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// Words for people are data (issue 34): an arbiter's action the rules
// refuse answers and enters the audit log as a kind and its parameters
// beside its English words, so a page reads it in Korean though the hall
// wrote it while it spoke English.
func TestRefusalIsKindAndParamsInAnswerAndAudit(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t)
	arb, ctx := h.Arbiter(t)
	r := h.NewRound(t, "Open", 1, &pb.ClockConfig{TimeControl: "90m+30s"})
	b, err := arb.AddBoard(ctx, &pb.AddBoardRequest{RoundId: r.GetRoundId(), Number: 1, White: &pb.Player{Name: "w"}, Black: &pb.Player{Name: "b"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := arb.UseVirtualClock(ctx, &pb.UseVirtualClockRequest{BoardId: b.GetBoardId(), Reason: "no clock"}); err != nil {
		t.Fatal(err)
	}
	if _, err := arb.BoardAction(ctx, &pb.BoardActionRequest{BoardId: b.GetBoardId(), Action: &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_START}}); err != nil {
		t.Fatal(err)
	}
	// Setting a running clock: refused, the clock must be stopped first.
	set := &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_SET_CLOCK, WhiteMs: 60_000, BlackMs: 60_000}
	resp, err := arb.BoardAction(ctx, &pb.BoardActionRequest{BoardId: b.GetBoardId(), Action: set, Reason: "wrong setting"})
	if err != nil {
		t.Fatal(err)
	}
	check := func(where string, w *pb.Words, english string) {
		t.Helper()
		if w.GetKind() != "refused.clock_running" || w.GetParams()["event"] != "set_clock" || w.GetParams()["rule"] == "" {
			t.Fatalf("%s: words %v, want kind refused.clock_running with the event and the rule", where, w)
		}
		if w.GetText() == "" || w.GetParams()["text"] != english {
			t.Errorf("%s: English %q, params' text %q; want the hall's English words %q", where, w.GetText(), w.GetParams()["text"], english)
		}
		if got, want := words.Render("ko", wirewords.Message(w)), "시계 설정 거부됨: 먼저 시계를 멈춰야 합니다"; got != want {
			t.Errorf("%s in Korean: %q, want %q", where, got, want)
		}
	}
	if resp.GetStatus() != pb.CommandStatus_COMMAND_STATUS_REFUSED {
		t.Fatalf("set_clock on a running clock: %v", resp)
	}
	check("the answer", resp.GetWords(), resp.GetMessage())
	log, err := arb.AuditLog(ctx, &pb.AuditLogRequest{BoardId: b.GetBoardId()})
	if err != nil {
		t.Fatal(err)
	}
	var refused *pb.AuditEntry
	for _, e := range log.GetEntries() {
		if strings.HasPrefix(e.GetWords().GetKind(), "refused.") {
			if refused != nil {
				t.Errorf("two entries with words: %v and %v", refused, e)
			}
			refused = e
		}
	}
	if refused == nil {
		t.Fatalf("no audit entry says a refusal in words: %v", log.GetEntries())
	}
	check("the audit entry", refused.GetWords(), resp.GetMessage())
	if refused.GetOutcome() != "refused: "+resp.GetMessage() {
		t.Errorf("outcome %q: the English outcome is kept as it was", refused.GetOutcome())
	}
	// The hall's own actions are words too: every kind the hall wrote has
	// its words in every catalogue, and a tournament made reads in Russian.
	hallWide, err := arb.AuditLog(ctx, &pb.AuditLogRequest{})
	if err != nil {
		t.Fatal(err)
	}
	made := false
	for _, e := range append(hallWide.GetEntries(), log.GetEntries()...) {
		w := e.GetWords()
		if w == nil {
			continue
		}
		if !words.Known(w.GetKind()) {
			t.Errorf("entry %q has kind %q, which no catalogue knows", e.GetWhat(), w.GetKind())
		}
		if w.GetKind() == "did.create_tournament" {
			made = true
			if got := words.Render("ru", wirewords.Message(w)); got != "создан турнир Open" {
				t.Errorf("a tournament made, in Russian: %q", got)
			}
		}
	}
	if !made {
		t.Errorf("no entry says the tournament was made: %v", hallWide.GetEntries())
	}
	// The pages read the same catalogue from the hall.
	res, err := h.HTTPClient().Get(h.HTTP(t) + "/words/audit.ko.json")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var cat map[string]string
	if err := json.NewDecoder(res.Body).Decode(&cat); err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("GET /words/audit.ko.json: %d, %v", res.StatusCode, err)
	}
	if cat["audit."+refused.GetWords().GetKind()] == "" || cat["audit.event.set_clock"] != "시계 설정" {
		t.Errorf("the Korean catalogue served lacks the entry's kind or its event: %d keys", len(cat))
	}
}
