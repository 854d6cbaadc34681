package clockface_test

import (
	"testing"
	"time"

	"github.com/chesshall/hallclock/internal/testkit/halltest"
	"github.com/chesshall/hallclock/internal/testkit/longtest"
)

// A second browser with the same device's credentials (the token copied
// from the first) takes the clock over, against the real hall: the newer
// is the board's clock and plays, the older says plainly that another
// browser is this clock now and does not come back — if it did, it would
// take the clock back from the newer, which stays undisturbed.
func TestFaceTakenOverStops(t *testing.T) {
	longtest.Skip(t)
	h := halltest.Start(t)
	boards := h.Round(t, "5m", 1)
	board := boards[0].GetBoardId()
	base := h.HTTP(t)

	older := openFace(t, 1280, 800) // a browser context of its own: its own storage
	creds := older.enrolByLink(h, base, board)
	older.poll("the older online, on its board", `document.getElementById("link").textContent === "online" && JSON.parse(hallclockDevice.state()).assigned`, 10*time.Second)

	newer := openFace(t, 1280, 800)
	newer.enrol(base, creds.DeviceID, creds.Token)
	newer.poll("the newer online, on its board", `document.getElementById("link").textContent === "online" && JSON.parse(hallclockDevice.state()).assigned`, 10*time.Second)
	older.poll("the older says another browser has it", `!document.getElementById("message").hidden &&
		document.getElementById("message-title").textContent === "Another browser is this clock now"`, 10*time.Second)

	// The newer plays: the round starts on it and its press is the hall's.
	startRound(t, h, boards[0])
	newer.poll("White's clock runs on the newer", `document.getElementById("half-a").classList.contains("running")`, 15*time.Second)
	newer.press("white")
	newer.poll("the newer's press acknowledged", `JSON.parse(hallclockDevice.state()).white_moves === 1 &&
		JSON.parse(hallclockDevice.state()).outbox === 0`, 5*time.Second)
	sameEvents(t, newer.recorded(creds.DeviceID), boardEvents(t, h, board), creds.DeviceID)

	// The older does not come back: nothing within more than its longest
	// wait between attempts (2 s). Only waiting can show that nothing
	// happens.
	time.Sleep(5 * time.Second)
	if s := older.state(); s.Connected {
		t.Error("the older browser is connected again after it was taken over")
	}
	if got := older.text("#message-title"); got != "Another browser is this clock now" {
		t.Errorf("the older browser now says %q", got)
	}
	if !evalAs[bool](newer, `document.getElementById("message").hidden && document.getElementById("link").textContent === "online"`) {
		t.Errorf("the newer browser lost the clock (the older came back?): %s", newer.dump())
	}
	if s := newer.state(); !s.Connected || s.WhiteMoves != 1 {
		t.Errorf("the newer browser's clock: connected %v, White's moves %d; want connected, 1", s.Connected, s.WhiteMoves)
	}
}
