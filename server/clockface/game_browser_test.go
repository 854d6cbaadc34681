package clockface_test

import (
	"testing"
	"time"

	"github.com/chesshall/hallclock/internal/testkit/halltest"
	"github.com/chesshall/hallclock/internal/testkit/longtest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// startRound starts every board of the round of b.
func startRound(t *testing.T, h *halltest.Hall, b *pb.Board) {
	t.Helper()
	arb, ctx := h.Arbiter(t)
	r, err := arb.StartRound(ctx, &pb.StartRoundRequest{RoundId: b.GetRoundId()})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range r.GetBoards() {
		if s.GetStatus() != pb.CommandStatus_COMMAND_STATUS_APPLIED {
			t.Fatalf("starting board %s: %v %s", s.GetBoardId(), s.GetStatus(), s.GetMessage())
		}
	}
}

func getBoard(t *testing.T, h *halltest.Hall, id string) *pb.Board {
	t.Helper()
	arb, ctx := h.Arbiter(t)
	b, err := arb.GetBoard(ctx, &pb.GetBoardRequest{BoardId: id})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A browser without a clock's credentials says so plainly; enrolled by a
// clock link (the button pressed on the link's page) it is the board's
// clock: the
// arbiter starts the round, the players press their halves and keys, a
// press on the half not running does nothing, White's flag falls, and
// the hall's result, times and record are the page's.
func TestFacePlaysAGameToTheFlag(t *testing.T) {
	longtest.Skip(t)
	h := halltest.Start(t)
	boards := h.Round(t, "20s", 1)
	board := boards[0].GetBoardId()
	base := h.HTTP(t)
	f := openFace(t, 1280, 800)

	f.do("open the face without credentials", navigate(base+"/clock"))
	f.poll("says it is no clock", `!document.getElementById("message").hidden`, 5*time.Second)
	if got := f.text("#message"); !contains(got, "not a clock of the hall yet", "clock link from the arbiter") {
		t.Errorf("without credentials the page says %q", got)
	}

	// Enrolled by a real clock link: the tablet is a new device of the
	// hall, the board's clock from now on.
	dev := f.enrolByLink(h, base, board).DeviceID
	f.poll("on its board, online", `document.getElementById("link").textContent === "online" &&
		JSON.parse(hallclockDevice.state()).assigned &&
		document.getElementById("where").textContent.includes("board 1")`, 10*time.Second)
	arb, ctx := h.Arbiter(t)
	devs, err := arb.ListDevices(ctx, &pb.ListDevicesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	listed := false
	for _, d := range devs.GetDevices() {
		if d.GetDeviceId() == dev {
			listed = d.GetKind() == "tablet" && d.GetBoardId() == board && d.GetOnline()
		}
	}
	if !listed {
		t.Errorf("the enrolled browser %s is not listed as an online tablet on board %s: %v", dev, board, devs.GetDevices())
	}
	f.drawn(map[string]string{"#status": "Waiting for the start", "#half-a .player": "White 1", "#half-b .player": "Black 1"}, 5*time.Second)
	if got := f.text("#status"); got != "Waiting for the start" {
		t.Errorf("before the start the status says %q", got)
	}
	if got := f.text("#half-a .player") + "|" + f.text("#half-b .player"); got != "White 1|Black 1" {
		t.Errorf("the halves name %q, want White 1|Black 1", got)
	}

	startRound(t, h, boards[0])
	f.poll("White's clock runs", `document.getElementById("half-a").classList.contains("running")`, 15*time.Second)
	f.press("white")
	f.poll("Black's clock runs", `document.getElementById("half-b").classList.contains("running")`, 2*time.Second)
	f.press("white") // the half not running: nothing (the law's press, not the finger's)
	f.key("ShiftRight")
	f.poll("White's clock runs again", `JSON.parse(hallclockDevice.state()).white_moves === 1 &&
		JSON.parse(hallclockDevice.state()).running === "white"`, 2*time.Second)
	f.key("Space") // the running side's press: White's move
	f.poll("Black's clock runs", `JSON.parse(hallclockDevice.state()).running === "black"`, 2*time.Second)
	f.press("black")
	if s := f.state(); s.WhiteMoves != 2 || s.BlackMoves != 2 {
		t.Fatalf("after four presses the moves are %d and %d, want 2 and 2", s.WhiteMoves, s.BlackMoves)
	}

	// The flag's sound, counted (headless Chromium plays to no speaker).
	evalAs[bool](f, `window.beeps = 0; const osc = AudioContext.prototype.createOscillator;
		AudioContext.prototype.createOscillator = function () { window.beeps++; return osc.call(this); }; true`)
	// White's 20 seconds run out: the page counts tenths, then the flag.
	f.poll("tenths under ten seconds", `/^\d\.\d$/.test(document.querySelector("#half-a .time").textContent)`, 30*time.Second)
	f.poll("White's flag", `!document.querySelector("#half-a .flag").hidden &&
		document.getElementById("notice").textContent === "Result 0-1 — on time"`, 15*time.Second)
	f.poll("the flag's sound", `window.beeps >= 3`, 2*time.Second)
	f.poll("every event acknowledged", `JSON.parse(hallclockDevice.state()).outbox === 0`, 5*time.Second)

	page := f.state()
	hall := getBoard(t, h, board).GetState()
	if hall.GetResult() != page.Result || hall.GetTermination() != page.Termination || page.Result != "0-1" {
		t.Errorf("result: hall %s (%s), page %s (%s), want 0-1 on time", hall.GetResult(), hall.GetTermination(), page.Result, page.Termination)
	}
	if hall.GetWhite().GetRemainingMs() != page.WhiteMs || hall.GetBlack().GetRemainingMs() != page.BlackMs {
		t.Errorf("times: hall %d / %d ms, page %d / %d ms", hall.GetWhite().GetRemainingMs(), hall.GetBlack().GetRemainingMs(), page.WhiteMs, page.BlackMs)
	}
	sameEvents(t, f.recorded(dev), boardEvents(t, h, board), dev)
	if s := f.state(); s.Status != "finished" {
		t.Errorf("status %q after the flag", s.Status)
	}
	// A press after the end: refused by the law, recorded nowhere.
	n := len(f.recorded(dev))
	f.press("black")
	if m := len(f.recorded(dev)); m != n {
		t.Errorf("a press after the game ended recorded %d events", m-n)
	}
}
