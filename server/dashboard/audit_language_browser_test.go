package dashboard_test

import (
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/chesshall/hallclock/formats/words"
	"github.com/chesshall/hallclock/internal/testkit/halltest"
	"github.com/chesshall/hallclock/internal/testkit/longtest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// An audit entry the hall wrote while the page was English reads in
// Korean once the page is switched to Korean (issue 34): the hall keeps a
// refusal as a kind and its parameters, and the page writes them in its
// reader's language — on the audit panel and on the board's timeline —
// the words formats/words gives for Korean, not the English the hall
// wrote.
func TestAuditEntryReadsInTheLanguageSwitchedTo(t *testing.T) {
	longtest.Skip(t)
	t.Parallel()
	h := halltest.Start(t, halltest.OnLoopback())
	tb := newTable(t, h, "90m+30s", []boardSpec{{section: "A"}})
	b := tb.boards[0].GetBoardId()
	tb.start(t)

	p := openPage(t, h.HTTP(t), 1280, 900)
	p.signIn(h.Chief)
	p.waitHall(1)
	if got := evalAs[string](p, `document.documentElement.lang`); got != "en" {
		t.Fatalf("the page starts in %q, want English", got)
	}

	// While the page is English: a flag claimed that has not fallen.
	arb, ctx := h.Arbiter(t)
	r, err := arb.BoardAction(ctx, &pb.BoardActionRequest{BoardId: b, Reason: "claimed at the board", WaitMs: 5000,
		Action: &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_FLAG_CLAIM, Side: pb.Side_SIDE_WHITE}})
	if err != nil || r.GetStatus() != pb.CommandStatus_COMMAND_STATUS_REFUSED {
		t.Fatalf("a flag claim with no flag fallen: %v, %v; want it refused", r, err)
	}
	var kept *pb.AuditEntry
	for _, e := range tb.auditOf(t, b) {
		if strings.HasPrefix(e.GetOutcome(), "refused") {
			kept = e
		}
	}
	if kept == nil || kept.GetWords().GetKind() == "" || kept.GetWords().GetKind() == words.KindText {
		t.Fatalf("the refusal's audit entry %v keeps no kind", kept)
	}
	m := words.Message{Kind: kept.GetWords().GetKind(), Params: kept.GetWords().GetParams()}
	en, ko := words.Render("en", m), words.Render("ko", m)
	if en == ko || !strings.ContainsFunc(ko, func(r rune) bool { return unicode.Is(unicode.Hangul, r) }) {
		t.Fatalf("%s: Korean %q, English %q: no Korean words to read", m.Kind, ko, en)
	}

	const list = `document.getElementById("audit-list").textContent`
	p.click("Audit", "#audit-open")
	p.poll("the refusal in English", list+`.includes(`+jsString(en)+`)`, 5*time.Second)

	// The reader switches the page to Korean (it reloads, remembering it).
	evalAs[bool](p, `(() => { const s = document.querySelector(".lang-switch"); s.value = "ko"; s.dispatchEvent(new Event("change")); return true; })()`)
	p.poll("the dashboard in Korean", `document.documentElement.lang === "ko" && document.querySelectorAll(".tile").length === 1`, 15*time.Second)
	p.click("Audit", "#audit-open")
	p.poll("the refusal in Korean", list+`.includes(`+jsString(ko)+`)`, 5*time.Second)
	if got := evalAs[string](p, list); strings.Contains(got, en) || strings.Contains(got, kept.GetOutcome()) {
		t.Errorf("the Korean audit still says the English %q:\n%s", en, got)
	}

	// The board's timeline reads the same entry in Korean too.
	p.do("close the audit", keyEscape())
	p.click("open the board", tile(b))
	p.poll("the timeline in Korean", `[...document.querySelectorAll("#board .timeline li.refused")].some(l => l.textContent.includes(`+jsString(ko)+`))`, 5*time.Second)
}
