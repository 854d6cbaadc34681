package clockface_test

import (
	"fmt"
	"github.com/chesshall/hallclock/internal/testkit/relay"
	"testing"
	"time"

	"github.com/chesshall/hallclock/internal/testkit/halltest"
	"github.com/chesshall/hallclock/internal/testkit/longtest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// pressTo presses side's half and waits for the other side's clock to run.
func (f *face) pressTo(side, next string) {
	f.t.Helper()
	f.press(side)
	f.poll(next+"'s clock runs", `JSON.parse(hallclockDevice.state()).running === "`+next+`"`, 3*time.Second)
}

// faceInAGame starts a hall with one board of 5 minutes, reached through a
// relay the test can shut, and a face enrolled as its clock CLK-001 that
// has started the game and pressed once for each side.
func faceInAGame(t *testing.T) (*halltest.Hall, string, *relay.Door, *face) {
	t.Helper()
	h := halltest.Start(t)
	boards := h.Round(t, "5m", 1)
	hall := relay.Open(t, h.HTTP(t))
	f := openFace(t, 1280, 800)
	f.enrol(hall.URL(), "CLK-001", h.DeviceToken(t, "CLK-001"))
	f.poll("online, on its board", `document.getElementById("link").textContent === "online" && JSON.parse(hallclockDevice.state()).assigned`, 10*time.Second)
	startRound(t, h, boards[0])
	f.poll("White's clock runs", `JSON.parse(hallclockDevice.state()).running === "white"`, 15*time.Second)
	f.pressTo("white", "black")
	f.pressTo("black", "white")
	return h, boards[0].GetBoardId(), hall, f
}

// The hall stops in the middle of a game (its port closes, its
// connections are cut) and a new server starts on its database: the page
// keeps counting and keeps every press, says how many it keeps, and once
// the hall is back sends them; the hall stores each once, in order, at
// the page's instants.
func TestFaceKeepsTimeWhenTheHallStops(t *testing.T) {
	longtest.Skip(t)
	h, board, hall, f := faceInAGame(t)
	f.poll("sent", `JSON.parse(hallclockDevice.state()).outbox === 0`, 5*time.Second)

	hall.Shut()
	h.RestartAfter(t, func() {
		f.poll("offline", `document.getElementById("link").textContent.startsWith("offline")`, 10*time.Second)
		at := f.state().At
		f.pressTo("white", "black")
		f.pressTo("black", "white")
		f.pressTo("white", "black")
		f.poll("the presses kept, said", `document.getElementById("link").textContent === "offline — 3 presses kept"`, 2*time.Second)
		f.poll("the clock counts on", fmt.Sprintf(`JSON.parse(hallclockDevice.state()).at > %d + 500`, at), 3*time.Second)
	})
	hall.Open(h.HTTP(t))
	f.poll("online again, everything sent", `document.getElementById("link").textContent === "online" &&
		JSON.parse(hallclockDevice.state()).outbox === 0`, 20*time.Second)

	page := f.recorded("CLK-001")
	sameEvents(t, page, boardEvents(t, h, board), "CLK-001")
	if len(page) != 6 { // the start, five presses
		t.Errorf("the page recorded %d events, want the start and five presses: %+v", len(page), page)
	}
	s, hs := f.state(), getBoard(t, h, board).GetState()
	if s.WhiteMoves != int(hs.GetWhite().GetMoves()) || s.BlackMoves != int(hs.GetBlack().GetMoves()) || s.WhiteMoves != 3 {
		t.Errorf("moves: page %d/%d, hall %d/%d, want 3/2", s.WhiteMoves, s.BlackMoves, hs.GetWhite().GetMoves(), hs.GetBlack().GetMoves())
	}
}

// The page is reloaded mid-game: it comes back on the same board with the
// time that passed counted and goes on. Reloaded while the hall cannot be
// reached and without its note of the time, it says it cannot know and
// the arbiter must check the clock. The arbiter's pause, with its reason,
// and his time given reach the face.
func TestFaceReloadedAndTheArbiter(t *testing.T) {
	longtest.Skip(t)
	h, board, hall, f := faceInAGame(t)
	before, wall := f.state(), time.Now()

	f.reload()
	f.poll("back on its board", `JSON.parse(hallclockDevice.state()).assigned`, 5*time.Second)
	after, gone := f.state(), time.Since(wall)
	if after.BoardID != board || after.Running != "white" || after.WhiteMoves != 1 || after.BlackMoves != 1 || after.TimeUnknown {
		t.Fatalf("after the reload: %+v", after)
	}
	// White's clock ran while the page reloaded: at least the time between
	// the two readings minus a second of the note's age, and not more
	// than the wall time that passed.
	used := before.WhiteMs - after.WhiteMs
	if used < gone.Milliseconds()-1500 || used > gone.Milliseconds()+1500 {
		t.Errorf("White's clock lost %d ms over a reload of %s", used, gone)
	}
	f.pressTo("white", "black")
	f.poll("online, sent", `document.getElementById("link").textContent === "online" && JSON.parse(hallclockDevice.state()).outbox === 0`, 10*time.Second)
	sameEvents(t, f.recorded("CLK-001"), boardEvents(t, h, board), "CLK-001")

	// The arbiter pauses the clock and gives Black a minute.
	arb, ctx := h.Arbiter(t)
	blackBefore := f.state().BlackMs
	if r, err := arb.BoardAction(ctx, &pb.BoardActionRequest{BoardId: board, Action: &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_PAUSE},
		Reason: "a phone rang", WaitMs: 5000}); err != nil || r.GetStatus() != pb.CommandStatus_COMMAND_STATUS_APPLIED {
		t.Fatalf("pause: %v %v", r, err)
	}
	f.poll("the pause and its reason", `document.getElementById("notice").textContent === "Paused by the arbiter — a phone rang"`, 5*time.Second)
	if r, err := arb.BoardAction(ctx, &pb.BoardActionRequest{BoardId: board, Action: &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_ADD_TIME,
		Side: pb.Side_SIDE_BLACK, Ms: 60000}, Reason: "the opponent's phone", WaitMs: 5000}); err != nil || r.GetStatus() != pb.CommandStatus_COMMAND_STATUS_APPLIED {
		t.Fatalf("add time: %v %v", r, err)
	}
	f.poll("a minute more for Black", fmt.Sprintf(`JSON.parse(hallclockDevice.state()).black_ms >= %d + 59000`, blackBefore), 5*time.Second)
	f.reload()
	f.poll("the pause's reason kept across a reload", `document.getElementById("notice").textContent === "Paused by the arbiter — a phone rang"`, 5*time.Second)

	// Reloaded without its note of the time (a tablet whose storage kept
	// the outbox but not the note): the page cannot know how long it was
	// closed, and says so until the arbiter sets the clock.
	f.do("leave the face", navigate(hall.URL()+"/clockface/face.css"))
	evalAs[bool](f, `localStorage.removeItem("hallclock.wall.CLK-001"), true`)
	f.do("open the face again", navigate(hall.URL()+"/clock"))
	// Online again first: the arbiter's command reaches a connected clock.
	f.poll("cannot know, online", `document.getElementById("notice").textContent.includes("cannot know how long") &&
		JSON.parse(hallclockDevice.state()).connected`, 10*time.Second)
	s := f.state()
	if r, err := arb.BoardAction(ctx, &pb.BoardActionRequest{BoardId: board, Action: &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_SET_CLOCK,
		WhiteMs: s.WhiteMs, BlackMs: s.BlackMs}, Reason: "checked", WaitMs: 5000}); err != nil || r.GetStatus() != pb.CommandStatus_COMMAND_STATUS_APPLIED {
		t.Fatalf("set clock: %v %v", r, err)
	}
	// The note that kept the pause's reason is gone, but the hall sends
	// it with the board: the face still says why the clock is paused.
	f.poll("the arbiter set the clock", `document.getElementById("notice").textContent === "Paused by the arbiter — a phone rang"`, 5*time.Second)
}
