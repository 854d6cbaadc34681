package clockface_test

import (
	"strings"
	"testing"
	"time"

	"github.com/chesshall/hallclock/internal/testkit/halltest"
	"github.com/chesshall/hallclock/internal/testkit/longtest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// On a board played under the appendix for visually disabled players the
// face is a talking clock: the visually disabled player's half has a
// button that says the moves and the time used, and the hall's Announce
// (his assistant's or the arbiter's, at his request) is said, with the
// browser's speech synthesis in the player's language.
func TestFaceTalksUnderTheAppendix(t *testing.T) {
	longtest.Skip(t)
	h := halltest.Start(t)
	boards := h.Round(t, "5m", 1, &pb.ClockConfig{BlindPlay: &pb.BlindPlay{White: &pb.BlindPlayer{VisuallyDisabled: true, Assistant: true, Language: "en"}}})
	board := boards[0].GetBoardId()
	f := openFace(t, 1280, 800)
	f.enrol(h.HTTP(t), "CLK-001", h.DeviceToken(t, "CLK-001"))
	f.poll("online, on its board", `document.getElementById("link").textContent === "online" && JSON.parse(hallclockDevice.state()).assigned`, 10*time.Second)
	// What the page says, kept aside (headless Chromium has no voice).
	evalAs[bool](f, `window.said = []; speechSynthesis.speak = (u) => window.said.push(u.lang + ": " + u.text); true`)
	// The board comes with the device's assignment, just after the hall
	// welcomed it (online).
	f.poll("a button on the visually disabled player's half (White's) only", `JSON.parse(hallclockDevice.state()).assigned &&
		!document.getElementById("say-a").hidden && document.getElementById("say-b").hidden`, 5*time.Second)
	startRound(t, h, boards[0])
	f.poll("White's clock runs", `JSON.parse(hallclockDevice.state()).running === "white"`, 15*time.Second)
	f.pressTo("white", "black")

	evalAs[bool](f, `document.getElementById("say-a").click(), true`)
	f.poll("the button said", `window.said.length === 1`, 3*time.Second)
	arb, ctx := h.Arbiter(t)
	if _, err := arb.Announce(ctx, &pb.AnnounceRequest{BoardId: board, Side: pb.Side_SIDE_WHITE, Reason: "the player asked"}); err != nil {
		t.Fatal(err)
	}
	f.poll("the hall's words said", `window.said.length === 2`, 5*time.Second)
	said := evalAs[[]string](f, `window.said`)
	for _, s := range said {
		if !strings.HasPrefix(s, "en: ") || !strings.Contains(s, "White: 1 move") || !strings.Contains(s, "Black: 0 moves") {
			t.Errorf("said %q: want English words of the moves and times", s)
		}
	}
}
