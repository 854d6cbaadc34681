package dashboard_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/chesshall/hallclock/clockdev"
	"github.com/chesshall/hallclock/internal/testkit/browsertest"
	"github.com/chesshall/hallclock/internal/testkit/halltest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// page is one browser tab on the dashboard, with the steps a test takes in
// it. Every uncaught exception or console error of the page fails the test.
type page struct {
	t    *testing.T
	ctx  context.Context
	base string
}

// openPage opens a tab of the tests' browser (or skips), w×h pixels, with
// its own cookies.
func openPage(t *testing.T, base string, w, h int64) *page {
	t.Helper()
	ctx := browsertest.Tab(t)
	p := &page{t: t, ctx: ctx, base: base}
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(w, h)); err != nil {
		t.Fatalf("viewport: %v", err)
	}
	browsertest.FailOnConsoleErrors(t, ctx)
	return p
}

func (p *page) do(step string, a ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	if err := chromedp.Do(p.ctx, a...); err != nil {
		p.t.Fatalf("%s: %v", step, err)
	}
}

// poll waits until js is true in the page, through navigations (a form
// submitted, a redirect).
func (p *page) poll(step, js string, within time.Duration) {
	p.t.Helper()
	if err := browsertest.Poll(p.ctx, js, within); err != nil {
		p.t.Fatalf("%s: not within %s (%s): %v\n%s", step, within, js, err, p.dump())
	}
}

// dump says what the page shows, for a failing step.
func (p *page) dump() string {
	s, _ := chromedp.Run(p.ctx, chromedp.Evaluate[string](`(document.getElementById("banner").textContent + " | live: " +
		document.getElementById("live").textContent + " | dialog: " + (document.getElementById("action-dialog").open ?
		document.getElementById("action-dialog").innerText : "closed") + " | " + document.body.innerText).slice(0, 2500)`))
	return s
}

func evalAs[T any](p *page, js string) T {
	p.t.Helper()
	v, err := chromedp.Run(p.ctx, chromedp.Evaluate[T](js, chromedp.EvalAwaitPromise))
	if err != nil {
		p.t.Fatalf("evaluate %s: %v", js, err)
	}
	return v
}

func (p *page) text(sel string) string {
	p.t.Helper()
	return evalAs[string](p, `(document.querySelector(`+jsString(sel)+`) || {textContent: ""}).textContent`)
}

// confirm confirms the open action once the rules have answered.
func (p *page) confirm() {
	p.t.Helper()
	p.poll("the confirmation ready", `!document.getElementById("action-confirm").disabled`, 3*time.Second)
	p.click("confirm", "#action-confirm")
}

func (p *page) click(step, sel string) {
	p.t.Helper()
	if err := browsertest.Click(p.ctx, sel, 10*time.Second); err != nil {
		p.t.Fatalf("%s: %s: %v", step, sel, err)
	}
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// tile is the CSS selector of a board's tile.
func tile(boardID string) string { return `.tile[data-board="` + boardID + `"]` }

// readmeShots are the screenshots the README shows (docs/screenshots).
var readmeShots = map[string]bool{"dashboard-hall-201.png": true, "dashboard-board.png": true, "dashboard-attention.png": true,
	"dashboard-hallview-201.png": true, "dashboard-phone.png": true, "dashboard-offline.png": true, "dashboard-standings.png": true}

// shot saves a screenshot (the page, or one element) as a test artifact
// and, with HALL_SCREENSHOTS=1, as the README's copy in docs/screenshots.
func (p *page) shot(name, sel string) {
	p.t.Helper()
	var png []byte
	var err error
	if sel == "" {
		png, err = chromedp.Run(p.ctx, chromedp.CaptureScreenshot())
	} else {
		png, err = chromedp.Run(p.ctx, chromedp.Screenshot(chromedp.CSS(sel)))
	}
	if err != nil {
		p.t.Fatalf("screenshot %s: %v", name, err)
	}
	p.t.Logf("screenshot: %s", browsertest.Artifact(p.t, name, png))
	if os.Getenv("HALL_SCREENSHOTS") != "" && readmeShots[name] {
		_, file, _, _ := runtime.Caller(0)
		dir := filepath.Join(filepath.Dir(file), "..", "..", "docs", "screenshots")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			p.t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), png, 0o644); err != nil {
			p.t.Fatal(err)
		}
	}
}

// signIn signs in through the sign-in form with a token.
func (p *page) signIn(token string) {
	p.t.Helper()
	p.do("open the sign-in form", chromedp.Navigate(p.base+"/signin?next=/"))
	p.do("the sign-in form", chromedp.WaitVisible(chromedp.ID("token")))
	p.do("sign in", chromedp.SendKeys(chromedp.ID("token"), token), chromedp.Submit(chromedp.ID("signin")))
}

// useLink opens a one-time sign-in link and presses its button (opening
// it alone signs nobody in).
func (p *page) useLink(url string) {
	p.t.Helper()
	p.do("open the sign-in link", navigate(url))
	p.click("sign in with the link", "#link-signin")
}

// waitHall waits for the live hall showing n tiles.
func (p *page) waitHall(n int) {
	p.t.Helper()
	p.poll(fmt.Sprintf("%d tiles, live", n), fmt.Sprintf(`document.querySelectorAll(".tile").length === %d && document.getElementById("live").textContent === "live"`, n), 15*time.Second)
}

// table is a hall for the browser tests: a tournament with one round of
// boards in sections, each with a clock device that was switched on before
// its board was made (as the demo's fleet does).
type table struct {
	h      *halltest.Hall
	round  *pb.Round
	boards []*pb.Board
	devs   map[string]*clockdev.Device // by board id
	cancel map[string]context.CancelFunc
}

// boardSpec is one board of a table: its section and, if set, its own
// configuration.
type boardSpec struct {
	section string
	config  *pb.ClockConfig
	battery int // the clock's battery (per cent) in its heartbeats; 0: mains powered
	// voices make the clock a talking clock speaking them (FIDE 2018
	// D.2.6.1); what it says goes nowhere.
	voices []string
}

func newTable(t *testing.T, h *halltest.Hall, tc string, specs []boardSpec) *table {
	t.Helper()
	return newEvent(t, h, "Nordic Open", "CLK", tc, specs)
}

// newEvent is newTable for a tournament of another name, round 3, its
// clocks named <clocks>-001...
func newEvent(t *testing.T, h *halltest.Hall, tournament, clocks, tc string, specs []boardSpec) *table {
	t.Helper()
	arb, ctx := h.Arbiter(t)
	r := h.NewRound(t, tournament, 3, &pb.ClockConfig{TimeControl: tc})
	tb := &table{h: h, round: r, devs: map[string]*clockdev.Device{}, cancel: map[string]context.CancelFunc{}}
	devs := make([]*clockdev.Device, len(specs))
	for i, s := range specs {
		var cfg clockdev.Config
		if s.battery > 0 {
			cfg.BatteryPct = func() int { return s.battery }
		}
		if s.voices != nil {
			cfg.Speak, cfg.Voices = func(clockdev.Speech) {}, s.voices
		}
		devs[i] = h.Spare(t, fmt.Sprintf("%s-%03d", clocks, i+1), cfg)
	}
	number := map[string]int32{}
	for i, s := range specs {
		number[s.section]++
		b, err := arb.AddBoard(ctx, &pb.AddBoardRequest{RoundId: r.GetRoundId(), Number: number[s.section], Section: s.section,
			White: player(2*i + 1), Black: player(2*i + 2), DeviceId: fmt.Sprintf("%s-%03d", clocks, i+1), Config: s.config})
		if err != nil {
			t.Fatal(err)
		}
		tb.boards = append(tb.boards, b)
		tb.devs[b.GetBoardId()] = devs[i]
	}
	for _, d := range devs {
		halltest.Eventually(t, 5*time.Second, func() error {
			if d.Assignment() == nil {
				return fmt.Errorf("a device has no board yet")
			}
			return nil
		})
	}
	return tb
}

var surnames = []string{"Carlsen", "Nakamura", "Caruana", "Firouzja", "Gukesh", "Praggnanandhaa", "Giri", "Nepomniachtchi", "So", "Abdusattorov",
	"Erigaisi", "Duda", "Rapport", "Keymer", "Wei", "Vachier-Lagrave", "Aronian", "Mamedyarov", "Dominguez", "Le"}
var forenames = []string{"Magnus", "Hikaru", "Fabiano", "Alireza", "Dommaraju", "Rameshbabu", "Anish", "Ian", "Wesley", "Nodirbek", "Arjun", "Jan-Krzysztof",
	"Richard", "Vincent", "Yi", "Maxime", "Levon", "Shakhriyar", "Leinier", "Quang Liem"}

func player(n int) *pb.Player {
	i := (n - 1) % len(surnames)
	return &pb.Player{Name: surnames[i] + ", " + forenames[i], Rating: int32(2800 - 3*n), FideId: fmt.Sprint(1503000 + n), Federation: "NOR", StartRank: int32(n)}
}

// start starts every clock of the table's round.
func (tb *table) start(t *testing.T) {
	t.Helper()
	arb, ctx := tb.h.Arbiter(t)
	r, err := arb.StartRound(ctx, &pb.StartRoundRequest{RoundId: tb.round.GetRoundId()})
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range r.GetBoards() {
		if b.GetStatus() != pb.CommandStatus_COMMAND_STATUS_APPLIED {
			t.Fatalf("starting board %s: %v %s", b.GetBoardId(), b.GetStatus(), b.GetMessage())
		}
	}
}

// act takes a board action as the chief and wants it applied.
func (tb *table) act(t *testing.T, boardID string, a *pb.ClockAction) *pb.BoardActionResponse {
	t.Helper()
	arb, ctx := tb.h.Arbiter(t)
	r, err := arb.BoardAction(ctx, &pb.BoardActionRequest{BoardId: boardID, Action: a, Reason: "test", WaitMs: 5000})
	if err != nil || r.GetStatus() != pb.CommandStatus_COMMAND_STATUS_APPLIED {
		t.Fatalf("BoardAction(%v) = %v, %v", a, r, err)
	}
	return r
}

// auditOf returns a board's audit log.
func (tb *table) auditOf(t *testing.T, boardID string) []*pb.AuditEntry {
	t.Helper()
	arb, ctx := tb.h.Arbiter(t)
	r, err := arb.AuditLog(ctx, &pb.AuditLogRequest{BoardId: boardID})
	if err != nil {
		t.Fatal(err)
	}
	return r.GetEntries()
}

func (tb *table) code(t *testing.T) string {
	t.Helper()
	code, err := tb.h.Server.Sessions().IssueCode(context.Background(), tb.h.Chief)
	if err != nil {
		t.Fatal(err)
	}
	return code
}

func contains(s string, want ...string) bool {
	for _, w := range want {
		if !strings.Contains(s, w) {
			return false
		}
	}
	return true
}

func navigate(url string) chromedp.Action[chromedp.Void] { return chromedp.Navigate(url) }

func sendKeys(sel, keys string) chromedp.Action[chromedp.Void] {
	return chromedp.SendKeys(chromedp.CSS(sel), keys)
}

func keyEscape() chromedp.Action[chromedp.Void] { return chromedp.KeyEvent(kb.Escape) }

// setSelect chooses an option and tells the page, as a person's choice
// does (input, then change).
func setSelect(sel, value string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { const e = document.querySelector(`+jsString(sel)+`);
			e.value = `+jsString(value)+`; e.dispatchEvent(new Event("input", {bubbles: true}));
			e.dispatchEvent(new Event("change", {bubbles: true})); return true; })()`))
		return err
	})
}

// boardOf reads a board as the chief.
func (tb *table) boardOf(t *testing.T, boardID string) *pb.Board {
	t.Helper()
	arb, ctx := tb.h.Arbiter(t)
	b, err := arb.GetBoard(ctx, &pb.GetBoardRequest{BoardId: boardID})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// confirmApplied confirms the open action with a reason and waits until
// the hall applied it, then closes the confirmation.
func (p *page) confirmApplied(reason string) {
	p.t.Helper()
	if reason != "" {
		p.do("give a reason", sendKeys("#action-reason", reason))
	}
	p.confirm()
	p.poll("applied", `document.getElementById("action-outcome").textContent.startsWith("Applied")`, 5*time.Second)
	p.click("close", "#action-confirm")
}

// shown returns the ids of the boards whose tiles the filters leave
// shown, space-separated, in the page's order.
func (p *page) shown() string {
	p.t.Helper()
	return evalAs[string](p, `[...document.querySelectorAll(".tile")].filter(t => !t.hidden && t.offsetParent !== null).map(t => t.dataset.board).join(" ")`)
}

// applied returns the last entry of a board's audit log that applied an
// action of kind (nil if none).
func (tb *table) applied(t *testing.T, boardID string, kind pb.ActionKind) *pb.AuditEntry {
	t.Helper()
	var last *pb.AuditEntry
	for _, e := range tb.auditOf(t, boardID) {
		if e.GetAction().GetKind() == kind && e.GetAfter() != nil {
			last = e
		}
	}
	return last
}
