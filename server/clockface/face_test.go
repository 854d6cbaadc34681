package clockface_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/chesshall/hallclock/internal/testkit/browsertest"
	"github.com/chesshall/hallclock/internal/testkit/halltest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// face is one browser tab on the clock face, with the steps a test takes
// in it. Every uncaught exception or console error fails the test.
type face struct {
	t   *testing.T
	ctx context.Context
}

func openFace(t *testing.T, w, h int64) *face {
	t.Helper()
	ctx := browsertest.Tab(t)
	f := &face{t: t, ctx: ctx}
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(w, h)); err != nil {
		t.Fatalf("viewport: %v", err)
	}
	browsertest.FailOnConsoleErrors(t, ctx)
	return f
}

func (f *face) do(step string, a ...chromedp.Action[chromedp.Void]) {
	f.t.Helper()
	if err := chromedp.Do(f.ctx, a...); err != nil {
		f.t.Fatalf("%s: %v", step, err)
	}
}

// poll waits until js is true in the page, through a reload.
func (f *face) poll(step, js string, within time.Duration) {
	f.t.Helper()
	if err := browsertest.Poll(f.ctx, js, within); err != nil {
		f.t.Fatalf("%s: not within %s (%s): %v\n%s", step, within, js, err, f.dump())
	}
}

func (f *face) dump() string {
	s, _ := chromedp.Run(f.ctx, chromedp.Evaluate[string](`(document.body.innerText + " | state: " +
		(window.hallclockDevice ? window.hallclockDevice.state() : "no device")).slice(0, 3000)`))
	return s
}

func evalAs[T any](f *face, js string) T {
	f.t.Helper()
	v, err := chromedp.Run(f.ctx, chromedp.Evaluate[T](js, chromedp.EvalAwaitPromise))
	if err != nil {
		f.t.Fatalf("evaluate %s: %v", js, err)
	}
	return v
}

func (f *face) text(sel string) string {
	f.t.Helper()
	return evalAs[string](f, `(document.querySelector(`+jsString(sel)+`) || {textContent: ""}).textContent`)
}

// drawn waits until each selector's text (trimmed) is the one given: the
// device's state may be ahead of the screen by a frame (the face draws on
// animation frames, 50 ms apart, later under load). It does not fail: the
// caller then says which texts are not what they should be.
func (f *face) drawn(shown map[string]string, within time.Duration) {
	var all []string
	for sel, want := range shown {
		all = append(all, fmt.Sprintf(`((document.querySelector(%s) || {textContent: ""}).textContent.trim() === %s)`, jsString(sel), jsString(want)))
	}
	_ = browsertest.Poll(f.ctx, strings.Join(all, " && "), within)
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// faceState is what the device in the page says of itself
// (jsapi.FaceView, the fields the tests read).
type faceState struct {
	Assigned    bool   `json:"assigned"`
	BoardID     string `json:"board_id"`
	WhiteMs     int64  `json:"white_ms"`
	BlackMs     int64  `json:"black_ms"`
	Running     string `json:"running"`
	Status      string `json:"status"`
	Flag        string `json:"flag"`
	Result      string `json:"result"`
	Termination string `json:"termination"`
	WhiteMoves  int    `json:"white_moves"`
	BlackMoves  int    `json:"black_moves"`
	At          int64  `json:"at"`
	Connected   bool   `json:"connected"`
	Outbox      int    `json:"outbox"`
	PauseReason string `json:"pause_reason"`
	TimeUnknown bool   `json:"time_unknown"`
}

func (f *face) state() faceState {
	f.t.Helper()
	var s faceState
	if err := json.Unmarshal([]byte(evalAs[string](f, `window.hallclockDevice.state()`)), &s); err != nil {
		f.t.Fatal(err)
	}
	return s
}

// enrol opens /clock as the enrolment page leaves a browser: its
// credentials in localStorage (the contract with /clock/enrol).
func (f *face) enrol(base, deviceID, token string) {
	f.t.Helper()
	f.do("open the face", chromedp.Navigate(base+"/clock"))
	creds, _ := json.Marshal(map[string]string{"device_id": deviceID, "token": token, "label": "Table tablet"})
	evalAs[bool](f, `localStorage.setItem("hallclock.device", `+jsString(string(creds))+`), true`)
	f.reload()
}

// enrolByLink makes the browser the clock of board as a person does: the
// arbiter issues a clock link (IssueClockLink, as `hallctl clock-link`
// does), the browser opens it, the button is pressed and the enrolment
// page opens the face. It returns the credentials the page kept.
func (f *face) enrolByLink(h *halltest.Hall, base, board string) credentials {
	f.t.Helper()
	arb, ctx := h.Arbiter(f.t)
	l, err := arb.IssueClockLink(ctx, &pb.IssueClockLinkRequest{BoardId: board, BaseUrl: base})
	if err != nil {
		f.t.Fatalf("a clock link for board %s: %v", board, err)
	}
	f.do("open the clock link", navigate(l.GetUrl()))
	if err := browsertest.Click(f.ctx, "#enrol", 10*time.Second); err != nil {
		f.t.Fatalf("press the enrolment page's button: %v\n%s", err, f.dump())
	}
	f.poll("the face shown", `location.pathname === "/clock" && !document.getElementById("face").hidden && !!window.hallclockDevice`, 20*time.Second)
	return f.credentials()
}

// credentials is what the enrolment page keeps in the browser.
type credentials struct {
	DeviceID string `json:"device_id"`
	Token    string `json:"token"`
	Label    string `json:"label"`
}

func (f *face) credentials() credentials {
	f.t.Helper()
	var c credentials
	if err := json.Unmarshal([]byte(evalAs[string](f, `localStorage.getItem("hallclock.device") || "{}"`)), &c); err != nil || c.DeviceID == "" || c.Token == "" {
		f.t.Fatalf("the browser keeps no clock credentials (%+v, %v)", c, err)
	}
	return c
}

func (f *face) reload() {
	f.t.Helper()
	f.do("reload", chromedp.Reload())
	f.poll("the face shown", `!document.getElementById("face").hidden && !!window.hallclockDevice`, 20*time.Second)
}

// press is a finger on side's half of the clock.
func (f *face) press(side string) {
	f.t.Helper()
	ok := evalAs[bool](f, `(() => { const e = document.querySelector('.half[data-side="`+side+`"]'); if (!e) return false;
		e.dispatchEvent(new PointerEvent("pointerdown", {bubbles: true, cancelable: true})); return true; })()`)
	if !ok {
		f.t.Fatalf("no half for %s:\n%s", side, f.dump())
	}
}

// key is a key pressed on a laptop's keyboard (its code: "ShiftLeft").
func (f *face) key(code string) {
	f.t.Helper()
	evalAs[bool](f, `document.dispatchEvent(new KeyboardEvent("keydown", {code: `+jsString(code)+`, bubbles: true})), true`)
}

// recorded is every event the page's device recorded, from its outbox in
// localStorage (the journal keeps acknowledged events too), by seq.
type recordedEvent struct {
	Seq    uint64
	Kind   string
	Side   string
	T      int64
	Board  string
	Cmd    string
	Reason string
}

func (f *face) recorded(deviceID string) []recordedEvent {
	f.t.Helper()
	lines := evalAs[[]string](f, `(() => { const p = "hallclock.outbox.`+deviceID+`/";
		const h = JSON.parse(localStorage.getItem(p + "head")); const out = [];
		for (let i = 0; i < h.n; i++) out.push(localStorage.getItem(p + h.gen + "/" + i));
		return out; })()`)
	bySeq := map[uint64]recordedEvent{}
	for _, l := range lines {
		var rec struct {
			Op    string          `json:"op"`
			Event json.RawMessage `json:"event"`
		}
		if err := json.Unmarshal([]byte(l), &rec); err != nil {
			f.t.Fatalf("outbox line %q: %v", l, err)
		}
		if rec.Op != "event" {
			continue
		}
		var ev struct {
			Seq     string `json:"seq"`
			BoardID string `json:"boardId"`
			Action  struct {
				Kind string `json:"kind"`
				Side string `json:"side"`
				TMs  string `json:"tMs"`
			} `json:"action"`
			CommandID     string `json:"commandId"`
			CommandReason string `json:"commandReason"`
		}
		if err := json.Unmarshal(rec.Event, &ev); err != nil {
			f.t.Fatal(err)
		}
		var seq uint64
		var tms int64
		fmt.Sscan(ev.Seq, &seq)
		fmt.Sscan(ev.Action.TMs, &tms)
		if ev.Action.Side == "" {
			ev.Action.Side = pb.Side_SIDE_UNSPECIFIED.String() // protojson leaves the zero value out
		}
		bySeq[seq] = recordedEvent{Seq: seq, Kind: ev.Action.Kind, Side: ev.Action.Side, T: tms, Board: ev.BoardID, Cmd: ev.CommandID, Reason: ev.CommandReason}
	}
	var out []recordedEvent
	for _, e := range bySeq {
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Seq < out[j].Seq })
	return out
}

// boardEvents is the board's committed events as the hall's audit log
// (read from its database) lists them, in board order.
type boardEvent struct {
	BoardSeq uint64
	Kind     string
	Side     string
	T        int64
	Actor    string
}

func boardEvents(t *testing.T, h *halltest.Hall, boardID string) []boardEvent {
	t.Helper()
	arb, ctx := h.Arbiter(t)
	return auditEvents(t, arb, ctx, boardID)
}

func auditEvents(t *testing.T, arb pb.ArbiterClient, ctx context.Context, boardID string) []boardEvent {
	t.Helper()
	r, err := arb.AuditLog(ctx, &pb.AuditLogRequest{BoardId: boardID})
	if err != nil {
		t.Fatal(err)
	}
	var out []boardEvent
	for _, e := range r.GetEntries() {
		if e.GetBoardSeq() == 0 {
			continue
		}
		out = append(out, boardEvent{BoardSeq: e.GetBoardSeq(), Kind: e.GetAction().GetKind().String(), Side: e.GetAction().GetSide().String(),
			T: e.GetAction().GetTMs(), Actor: e.GetActor()})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].BoardSeq < out[j].BoardSeq })
	return out
}

// sameEvents checks that the hall holds every event the page recorded on
// the board, once each and in the page's order, at the page's instants,
// and nothing else from the device.
func sameEvents(t *testing.T, page []recordedEvent, hall []boardEvent, device string) {
	t.Helper()
	for i, e := range hall {
		if e.BoardSeq != uint64(i+1) {
			t.Errorf("the board's events are numbered %d at position %d: a gap or a duplicate", e.BoardSeq, i+1)
		}
	}
	var fromDevice []boardEvent
	for _, e := range hall {
		if e.Actor == "device:"+device {
			fromDevice = append(fromDevice, e)
		}
	}
	if len(fromDevice) != len(page) {
		t.Fatalf("the hall stored %d events from the page's device, the page recorded %d:\n hall %+v\n page %+v", len(fromDevice), len(page), fromDevice, page)
	}
	for i := range page {
		p, h := page[i], fromDevice[i]
		if p.Kind != h.Kind || p.Side != h.Side || p.T != h.T {
			t.Errorf("event %d: the page recorded %s %s at %d ms, the hall stored %s %s at %d ms", i+1, p.Kind, p.Side, p.T, h.Kind, h.Side, h.T)
		}
	}
}

func navigate(url string) chromedp.Action[chromedp.Void] { return chromedp.Navigate(url) }

func contains(s string, want ...string) bool {
	for _, w := range want {
		if !strings.Contains(s, w) {
			return false
		}
	}
	return true
}
