package assist_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/device"
	"github.com/chromedp/chromedp/kb"

	"github.com/chesshall/hallclock/internal/mono"
	"github.com/chesshall/hallclock/internal/testkit/browsertest"
	"github.com/chesshall/hallclock/internal/testkit/halltest"
	"github.com/chesshall/hallclock/internal/testkit/longtest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/server"
)

// speechStub replaces the browser's speech synthesis before the page's
// scripts run: it keeps what the page gives it to say, so that the test
// sees every utterance — and that there is none unasked.
const speechStub = `
window.__spoken = [];
if (typeof window.SpeechSynthesisUtterance !== "function") {
  window.SpeechSynthesisUtterance = function (text) { this.text = text; this.lang = ""; };
}
Object.defineProperty(window, "speechSynthesis", { configurable: true, value: {
  speak(u) { window.__spoken.push({ text: u.text, lang: u.lang }); },
  cancel() {}, pause() {}, resume() {}, getVoices() { return []; },
} });`

// tab is the assistant's phone.
type tab struct {
	t   *testing.T
	ctx context.Context

	mu   sync.Mutex
	errs []string
}

func openTab(t *testing.T) *tab {
	t.Helper()
	p := &tab{t: t, ctx: browsertest.Tab(t)}
	if err := chromedp.Do(p.ctx, chromedp.Emulate(device.IPhone12)); err != nil {
		t.Fatalf("a phone: %v", err)
	}
	if _, err := chromedp.Call(p.ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: speechStub}); err != nil {
		t.Fatalf("the speech stub: %v", err)
	}
	go func() {
		for m, err := range chromedp.Console(p.ctx) {
			if err != nil {
				return
			}
			if m.IsException() || (m.Type == chromedp.ConsoleError && m.Source == "") {
				p.mu.Lock()
				p.errs = append(p.errs, m.String())
				p.mu.Unlock()
			}
		}
	}()
	t.Cleanup(func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		for _, e := range p.errs {
			t.Errorf("the page's console: %s", e)
		}
	})
	return p
}

func (p *tab) do(step string, a ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	if err := chromedp.Do(p.ctx, a...); err != nil {
		p.t.Fatalf("%s: %v", step, err)
	}
}

func evalAs[T any](p *tab, js string) T {
	p.t.Helper()
	v, err := chromedp.Run(p.ctx, chromedp.Evaluate[T](js))
	if err != nil {
		p.t.Fatalf("evaluate %s: %v", js, err)
	}
	return v
}

// poll waits until js is true in the page.
func (p *tab) poll(step, js string, within time.Duration) {
	p.t.Helper()
	if err := browsertest.Poll(p.ctx, js, within); err != nil {
		text, _ := chromedp.Run(p.ctx, chromedp.Evaluate[string](`document.body.innerText`))
		p.t.Fatalf("%s: not within %s (%s): %v\nthe page says: %s", step, within, js, err, text)
	}
}

func (p *tab) click(step, sel string) {
	p.t.Helper()
	if err := browsertest.Click(p.ctx, sel, 10*time.Second); err != nil {
		p.t.Fatalf("%s: %s: %v", step, sel, err)
	}
}

func (p *tab) status() string {
	return evalAs[string](p, `document.getElementById("status").textContent`)
}

type utterance struct{ Text, Lang string }

func (p *tab) spoken() []utterance {
	p.t.Helper()
	s := evalAs[string](p, `JSON.stringify(window.__spoken || null)`)
	var out []utterance
	if err := json.Unmarshal([]byte(s), &out); err != nil || s == "null" {
		p.t.Fatalf("the speech stub is not in the page (%s): %v", s, err)
	}
	return out
}

// shot saves a screenshot as a test artifact and, with HALL_SCREENSHOTS=1,
// as the documentation's copy in docs/screenshots.
func (p *tab) shot(name string) {
	p.t.Helper()
	evalAs[bool](p, `(window.scrollTo(0, 0), true)`)
	png, err := chromedp.Run(p.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		p.t.Fatalf("screenshot %s: %v", name, err)
	}
	p.t.Logf("screenshot: %s", browsertest.Artifact(p.t, name, png))
	if os.Getenv("HALL_SCREENSHOTS") != "" {
		_, file, _, _ := runtime.Caller(0)
		dir := filepath.Join(filepath.Dir(file), "..", "..", "docs", "screenshots")
		if err := os.WriteFile(filepath.Join(dir, name), png, 0o644); err != nil {
			p.t.Fatal(err)
		}
	}
}

// buttonNames reads the accessibility tree of the page as a screen reader
// gets it, and returns the name of every button in it.
func (p *tab) buttonNames() []string {
	p.t.Helper()
	tree, err := chromedp.Call(p.ctx, accessibility.GetFullAXTree, accessibility.GetFullAXTreeParams{})
	if err != nil {
		p.t.Fatalf("the accessibility tree: %v", err)
	}
	var names []string
	for _, n := range tree.Nodes {
		if n.Ignored || n.Role == nil || string(n.Role.Value) != `"button"` {
			continue
		}
		var name string
		if n.Name != nil {
			_ = json.Unmarshal(n.Name.Value, &name)
		}
		names = append(names, name)
	}
	return names
}

// The assistant's page on a phone, as a visually disabled player's
// assistant uses it through a game (FIDE 2018 Appendix D.2.10): signed in
// by the arbiter's link, he presses for his player once the move is made
// and the opponent's clock starts (D.2.3-D.2.4, D.2.10.3); the phone says
// the moves and the time used when the player asks, and never else
// (D.2.10.4); he stops the clock to call the arbiter (D.2.10.5, 6.11.2);
// he claims the opponent's flag (D.2.10.5). Every button has a name in
// the accessibility tree, the focus moves through them in reading order,
// and each action is audited as his.
func TestAssistantPage(t *testing.T) {
	longtest.Skip(t)
	clock := mono.NewFake(time.Now())
	h := halltest.Start(t, halltest.WithOptions(server.Options{Clock: clock}))
	arb, ctx := h.Arbiter(t)
	r := h.NewRound(t, "Blind Open", 2, &pb.ClockConfig{TimeControl: "3m+2s", Ruleset: "fide-2018",
		Regulations: &pb.Regulations{Supervision: pb.Supervision_SUPERVISION_INSUFFICIENT}})
	b, err := arb.AddBoard(ctx, &pb.AddBoardRequest{RoundId: r.GetRoundId(), Number: 4,
		White: &pb.Player{Name: "Anna Lindqvist"}, Black: &pb.Player{Name: "Boris Petrov"}})
	if err != nil {
		t.Fatal(err)
	}
	id := b.GetBoardId()
	// The arbiter sets the board under the appendix when Anna arrives with
	// her assistant (D.1, D.2.10); the board keeps a virtual clock.
	if _, err := arb.SetBlindPlay(ctx, &pb.SetBlindPlayRequest{BoardId: id, Reason: "Anna plays with her assistant",
		BlindPlay: &pb.BlindPlay{White: &pb.BlindPlayer{VisuallyDisabled: true, Assistant: true}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := arb.UseVirtualClock(ctx, &pb.UseVirtualClockRequest{BoardId: id, Reason: "the talking clock charges"}); err != nil {
		t.Fatal(err)
	}
	board := func() *pb.BoardState {
		t.Helper()
		got, err := arb.GetBoard(ctx, &pb.GetBoardRequest{BoardId: id})
		if err != nil {
			t.Fatal(err)
		}
		return got.GetState()
	}
	action := func(k pb.ActionKind) {
		t.Helper()
		resp, err := arb.BoardAction(ctx, &pb.BoardActionRequest{BoardId: id, Action: &pb.ClockAction{Kind: k}})
		if err != nil || resp.GetStatus() != pb.CommandStatus_COMMAND_STATUS_APPLIED {
			t.Fatalf("%s: %v, %v", k, resp, err)
		}
	}
	action(pb.ActionKind_ACTION_KIND_START)
	clock.Advance(12_300 * time.Millisecond) // Anna thinks

	link, err := arb.IssueAssistantLink(ctx, &pb.IssueAssistantLinkRequest{BoardId: id, Side: pb.Side_SIDE_WHITE, Label: "Maria"})
	if err != nil {
		t.Fatal(err)
	}
	base := h.HTTP(t)
	p := openTab(t)
	p.do("the assistant's link", chromedp.Navigate(base+link.GetSigninPath()))
	if !evalAs[bool](p, `location.pathname === "/assist"`) {
		// A sign-in page that asks before it spends the link: confirm.
		p.click("sign in", `form button[type=submit], form input[type=submit]`)
	}
	p.poll("the assistant's page", `location.pathname === "/assist" && !document.getElementById("actions").hidden &&
		(document.getElementById("press").getAttribute("aria-label") || "").includes("start Black's clock")`, 10*time.Second)
	if got := evalAs[string](p, `document.getElementById("title").textContent`); got != "Assistant of Anna Lindqvist (White)" {
		t.Errorf("the page's title = %q, want the assistant of Anna (White)", got)
	}
	if got := evalAs[string](p, `document.getElementById("board").textContent`); !strings.Contains(got, "Blind Open, round 2, board 4") {
		t.Errorf("the page names its board %q", got)
	}
	if n := evalAs[int](p, `document.querySelectorAll("a[href]").length`); n != 0 {
		t.Errorf("the page links %d places; the assistant has nowhere else to go", n)
	}

	// Every control has a name a screen reader says.
	names := p.buttonNames()
	want := []string{"Press the clock for White: Anna Lindqvist's move is made: start Black's clock",
		"Announce the moves and the time used: only when Anna Lindqvist asks",
		"Claim Black's flag: when Black's time has run out",
		"Stop the clock and call the arbiter: tap twice",
		"Sign out"}
	if strings.Join(names, "\n") != strings.Join(want, "\n") {
		t.Errorf("the buttons in the accessibility tree are named\n%q\nwant\n%q", names, want)
	}
	// The focus goes through them in reading order.
	var order []string
	for range want {
		p.do("Tab", chromedp.KeyEvent(kb.Tab))
		order = append(order, evalAs[string](p, `document.activeElement.id`))
	}
	if got := strings.Join(order, " "); got != "press announce flag stop signout-button" {
		t.Errorf("Tab goes through %q, want press, announce, flag, stop, sign out", got)
	}

	// D.2.10.3: he presses for Anna: her move is complete, Black's clock runs.
	p.click("press", "#press")
	p.poll("the press answered", `document.getElementById("status").textContent.startsWith("Pressed")`, 5*time.Second)
	if st := board(); st.GetWhite().GetMoves() != 1 || st.GetRunning() != pb.Side_SIDE_BLACK {
		t.Errorf("after the press: %v; want White's first move completed and Black's clock running", st)
	}
	if got := p.status(); got != "Pressed for White: Black's clock runs." {
		t.Errorf("the status line says %q", got)
	}
	// D.2.3-D.2.4: not again while Boris has the move; the hall says why.
	p.click("press again", "#press")
	p.poll("the refusal", `document.getElementById("status").textContent.startsWith("Refused")`, 5*time.Second)
	if got := p.status(); !strings.Contains(got, "black's move") || !strings.Contains(got, "D.2.3") {
		t.Errorf("a press while Black has the move: the status says %q; want the refusal citing D.2.3-D.2.4", got)
	}
	if s := p.spoken(); len(s) != 0 {
		t.Errorf("the phone spoke unasked: %v", s)
	}

	// D.2.10.4: Anna asks; the phone says the moves and the time used.
	clock.Advance(4 * time.Second) // Boris thinks
	p.click("announce", "#announce")
	p.poll("the announcement", `window.__spoken.length > 0`, 5*time.Second)
	spoken := p.spoken()
	words := "White: 1 move, 13 seconds used. Black: 0 moves, 4 seconds used."
	if len(spoken) != 1 || spoken[0].Text != words || spoken[0].Lang != "en" {
		t.Errorf("the phone said %v; want once, in English: %q", spoken, words)
	}
	p.poll("the clocks as they are", `/Black, Boris Petrov: 0 moves, 2 min 5[1-6] s left, [4-9] s used/.test(document.getElementById("side-black").textContent)`, 5*time.Second)
	p.shot("assistant-page.png")

	// D.2.10.5, 6.11.2: he stops the clock to call the arbiter — a second
	// tap, as a stopped clock is the arbiter's to restart.
	p.click("stop", "#stop")
	p.poll("armed", `document.getElementById("status").textContent.startsWith("Tap again")`, 5*time.Second)
	if st := board(); st.GetStatus() != pb.BoardStatus_BOARD_STATUS_RUNNING {
		t.Errorf("one tap stopped the clock: %v", st.GetStatus())
	}
	p.click("stop again", "#stop")
	p.poll("stopped", `document.getElementById("status").textContent.startsWith("The clock is stopped")`, 5*time.Second)
	if st := board(); st.GetStatus() != pb.BoardStatus_BOARD_STATUS_PAUSED {
		t.Errorf("after two taps the clock is %v, want paused", st.GetStatus())
	}
	action(pb.ActionKind_ACTION_KIND_RESUME) // the arbiter came

	// Boris's flag falls (3 minutes); Anna's assistant claims it (D.2.10.5).
	clock.Advance(3 * time.Minute)
	clock.Settle()
	halltest.Eventually(t, 5*time.Second, func() error {
		if board().GetBlack().FlagAtMs == nil {
			return fmt.Errorf("Black's flag has not fallen")
		}
		return nil
	})
	p.click("flag", "#flag")
	p.poll("the claim", `document.getElementById("status").textContent.startsWith("Flag claimed")`, 5*time.Second)
	if st := board(); st.GetResult() != "1-0" || st.GetTermination() != "time" {
		t.Errorf("after the claim: %s (%s), want 1-0 on time", st.GetResult(), st.GetTermination())
	}
	p.poll("the game over on the page", `document.getElementById("turn").textContent.startsWith("The game is over: 1-0")`, 5*time.Second)
	if s := p.spoken(); len(s) != 1 {
		t.Errorf("the phone spoke %d times, want only when asked (once): %v", len(s), s)
	}

	// Each action is audited as his, the words he had said with it.
	log, err := arb.AuditLog(ctx, &pb.AuditLogRequest{BoardId: id})
	if err != nil {
		t.Fatal(err)
	}
	var his []string
	for _, e := range log.GetEntries() {
		if e.GetActor() == "assistant:Maria" {
			his = append(his, e.GetWhat())
		}
	}
	for _, w := range []string{"press white", "announce to white (en, the words only: the board keeps a virtual clock, which has no voice): " + fmt.Sprintf("%q", words), "pause", "flag_claim white"} {
		if !contains(his, w) {
			t.Errorf("the audit log has no %q of the assistant's; his entries: %q", w, his)
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
