package broadcast_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/chesshall/hallclock/formats/pgn"
	"github.com/chesshall/hallclock/internal/i18n"
	"github.com/chesshall/hallclock/internal/mono"
	"github.com/chesshall/hallclock/internal/testkit/browsertest"
	"github.com/chesshall/hallclock/internal/testkit/longtest"
	"github.com/chesshall/hallclock/rules"
	"github.com/chesshall/hallclock/server/broadcast"
)

const afterE4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"

// A board without an e-board has no position to show: the display draws
// no diagram for it (the starting position would make a finished game look
// unplayed) but both clocks and, once the game is over, its result large
// in the diagram's place; a board whose position is known keeps its
// diagram. A round whose every game is over says "round finished", not
// "live".
func TestDisplayBoardsWithoutAPosition(t *testing.T) {
	longtest.Skip(t)
	h := newHall(t, mono.Real(), "90m+30s", 3)
	h.setPublic(true)
	for _, b := range []string{"b1", "b2", "b3"} {
		h.commit(b, rules.Event{Kind: rules.KindStart, T: 0})
	}
	e4 := press(rules.White, "e4", 1500)
	e4.FEN = afterE4
	h.commit("b1", e4)                             // an e-board
	h.commit("b2", press(rules.White, "e4", 1500)) // a clock only: the move, no position
	h.commit("b3", press(rules.White, "", 2000))   // a clock only
	h.commit("b3", rules.Event{Kind: rules.KindResult, Result: rules.WhiteWins, Termination: rules.TermNormal, T: 60_000})
	base := serveLive(t, h)
	d := openDisplay(t)
	if err := chromedp.Do(d.ctx, chromedp.EmulateViewport(1920, 1080), chromedp.Navigate(base+"/display/round/r5")); err != nil {
		t.Fatal(err)
	}
	d.poll("three boards, the third finished", `document.querySelectorAll("section.board").length === 3 &&
		document.querySelector('[data-board="3"] .result').textContent === "1-0"`, 10*time.Second)
	if d.eval("b1", `document.querySelector('[data-board="1"] svg') && document.querySelector('[data-board="1"] svg').dataset.fen === "`+afterE4+`" ? 1 : 0`) != 1 {
		t.Errorf("the e-board's position is not drawn")
	}
	for _, n := range []string{"2", "3"} {
		card := `document.querySelector('[data-board="` + n + `"]')`
		if d.eval("board "+n, card+`.querySelector("svg") ? 1 : 0`) != 0 {
			t.Errorf("board %s, without an e-board, shows a diagram (%s): it looks like a game not started", n, d.str(card+`.querySelector("svg").dataset.fen`))
		}
		// Both clocks shown large: at least half the card's width (beside a
		// diagram they are under a third).
		for _, side := range []string{"white", "black"} {
			w := d.eval("board "+n, `Math.max(...[...`+card+`.querySelectorAll(".clock.`+side+`")].filter(c => getComputedStyle(c).visibility !== "hidden" && c.getClientRects().length).map(c => c.getBoundingClientRect().width), 0) / `+card+`.getBoundingClientRect().width`)
			if w < 0.5 {
				t.Errorf("board %s: %s's clock is %.0f%% of the card's width; want it large (half of it or more)", n, side, 100*w)
			}
		}
	}
	if got := d.text("read", `[data-board='3'] .face .fresult`); got != "1-0" {
		t.Errorf("board 3's result in the diagram's place: %q; want 1-0", got)
	}
	if px := d.eval("board 3", `parseFloat(getComputedStyle(document.querySelector('[data-board="3"] .face .fresult')).fontSize)`); px < 60 {
		t.Errorf("board 3's result is %.0f px high; want it large (60 px or more on 1920×1080)", px)
	}
	if got := d.text("read", "#delay"); got != "live" {
		t.Errorf("a round still playing says %q; want live", got)
	}
	d.shot("display-no-position.png")

	h.commit("b1", rules.Event{Kind: rules.KindResult, Result: rules.Draw, Termination: rules.TermAgreement, T: 90_000})
	h.commit("b2", rules.Event{Kind: rules.KindResult, Result: rules.BlackWins, Termination: rules.TermNormal, T: 90_000})
	d.poll("every game over", `document.querySelector('[data-board="2"] .result').textContent === "0-1"`, 5*time.Second)
	if got := d.text("read", "#delay"); got != "round finished" {
		t.Errorf("a round whose every game is over says %q; want \"round finished\"", got)
	}
}

// Names and ratings fit at 1920×1080, eight and sixteen boards: no name
// is cut ("GM Ivanchuk, Sofi…" was), every rating shows in full, and a
// name too long for its line keeps the surname (forenames as initials).
func TestDisplayFitsTheNames(t *testing.T) {
	longtest.Skip(t)
	h := playingRound(t, 16)
	names := []string{"Ivanchuk, Sofiya Vasylivna", "Praggnanandhaa, Rameshbabu", "Vachier-Lagrave, Maxime", "Abdusattorov, Nodirbek"}
	for i := range h.round.Boards {
		h.round.Boards[i].Black = pgn.Player{Name: names[(i+1)%len(names)], Title: "WGM", Elo: 2555}
	}
	_, base, _ := serveDisplay(t, h)
	d := openDisplay(t)
	for _, q := range []string{"?boards=1-8", ""} {
		n := map[string]int{"": 16, "?boards=1-8": 8}[q]
		d.open(q, 1920, 1080, base+"/display/round/r5"+q, n)
		cutJS := `[...document.querySelectorAll(".player .name")].filter(n => n.scrollWidth > n.clientWidth + 0.5).length`
		// The page fits the names once its cards have their size: wait for it.
		_ = browsertest.Poll(d.ctx, cutJS+" === 0", 3*time.Second)
		cut := d.eval(q, cutJS)
		if cut > 0 {
			t.Errorf("1920×1080 %s: %.0f names are cut: %s", q, cut, d.str(`[...document.querySelectorAll(".player .name")].filter(n => n.scrollWidth > n.clientWidth + 0.5).map(n => n.textContent).join(" | ")`))
		}
		if n := d.eval(q, `[...document.querySelectorAll("section.board")].filter(b => [...b.querySelectorAll(".player")].some(p => {
				const e = p.querySelector(".elo"), r = e.getBoundingClientRect(), c = p.getBoundingClientRect();
				return !e.textContent || r.width < 1 || r.right > c.right + 0.5 || e.scrollWidth > e.clientWidth; })).length`); n > 0 {
			t.Errorf("1920×1080 %s: %.0f boards do not show a rating in full", q, n)
		}
		for _, surname := range []string{"Ivanchuk", "Praggnanandhaa", "Vachier-Lagrave", "Abdusattorov", "Nepomniachtchi"} {
			if d.eval(q, `[...document.querySelectorAll(".player .name")].some(n => n.textContent.includes("`+surname+`")) ? 1 : 0`) != 1 {
				t.Errorf("1920×1080 %s: no name shows %s", q, surname)
			}
		}
		d.shot(fmt.Sprintf("display-names-%d.png", n))
	}
}

// On a phone the round's title wraps rather than being cut, and nothing
// reaches past the screen's edge.
func TestDisplayTitleOnAPhone(t *testing.T) {
	longtest.Skip(t)
	h := playingRound(t, 4)
	_, base, _ := serveDisplay(t, h)
	d := openDisplay(t)
	for _, w := range []int64{360, 390} {
		step := fmt.Sprintf("%d×844", w)
		d.open(step, w, 844, base+"/display/round/r5", 4)
		if d.eval(step, `(() => { const e = document.getElementById("title"), r = e.getBoundingClientRect();
			return e.textContent === "Nordic Autumn Open 2025 — round 5" && e.scrollWidth <= e.clientWidth && r.left >= 0 && r.right <= innerWidth ? 1 : 0; })()`) != 1 {
			t.Errorf("%s: the title is cut: %.0f px of text in a %.0f px line", step, d.eval(step, `document.getElementById("title").scrollWidth`), d.eval(step, `innerWidth`))
		}
		wide, err := browsertest.Wider(d.ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(wide) > 0 {
			t.Errorf("%s: reaching past the screen's edge:\n\t%s", step, strings.Join(wide, "\n\t"))
		}
		d.shot(fmt.Sprintf("display-phone-%d.png", w))
	}
}

// str evaluates js in the page to a string.
func (d *display) str(js string) string {
	d.t.Helper()
	v, err := chromedp.Run(d.ctx, chromedp.Evaluate[string](js))
	if err != nil {
		d.t.Fatalf("%s: %v", js, err)
	}
	return v
}

// serveLive serves h's feeds with every reader live (an arbiter's
// session), on a loopback port.
func serveLive(t *testing.T, h *hall) string {
	t.Helper()
	f := broadcast.New(broadcast.Options{Source: h, Authenticate: func(*http.Request) (broadcast.Viewer, bool, error) {
		return broadcast.Viewer{Live: true}, true, nil
	}})
	mux := http.NewServeMux()
	f.Routes(mux)
	i18n.Routes(mux, "en", "") // the page's words, as the hall and the gateway serve them
	srv := httptest.NewServer(mux)
	t.Cleanup(func() { f.Close(); srv.Close() })
	return srv.URL
}
