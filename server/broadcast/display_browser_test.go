package broadcast_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"sync"
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

// The display page lays out the boards asked for to fit the screen it is
// shown on: no scrolling, boards as large as the screen allows (eight on a
// 1920×1080 screen each over 300 px, the old layout was 1,388 px tall); on
// a screen too small for them it says how many fit.
func TestDisplayFitsTheScreen(t *testing.T) {
	longtest.Skip(t)
	h := playingRound(t, 16)
	_, base, _ := serveDisplay(t, h)
	d := openDisplay(t)
	for _, c := range []struct {
		w, h   int64
		query  string
		boards int
		least  float64 // px: the smallest board drawn at least this wide
	}{
		{1920, 1080, "?boards=1-8", 8, 300},
		{1920, 1080, "", 16, 200},
		{1920, 1080, "?boards=3", 1, 700},
		{1280, 720, "?boards=1-8", 8, 190},
		{1080, 1920, "?boards=1-8", 8, 300}, // a screen on its side
		{1366, 768, "?boards=9-12", 4, 250},
	} {
		name := fmt.Sprintf("%d×%d %s", c.w, c.h, c.query)
		d.open(name, c.w, c.h, base+"/display/round/r5"+c.query, c.boards)
		if over := d.eval(name, `document.documentElement.scrollHeight - innerHeight`); over > 0 {
			t.Errorf("%s: the page is %.0f px taller than the screen", name, over)
		}
		if over := d.eval(name, `document.documentElement.scrollWidth - innerWidth`); over > 0 {
			t.Errorf("%s: the page is %.0f px wider than the screen", name, over)
		}
		if n := d.eval(name, `[...document.querySelectorAll("section.board")].filter(b => { const r = b.getBoundingClientRect();
			return r.bottom > innerHeight || r.right > innerWidth; }).length`); n > 0 {
			t.Errorf("%s: %.0f boards reach past the screen", name, n)
		}
		if least := d.eval(name, `Math.min(...[...document.querySelectorAll("section.board svg")].map(s => s.getBoundingClientRect().width))`); least < c.least {
			t.Errorf("%s: the smallest board is %.0f px wide; the screen has room for %.0f", name, least, c.least)
		}
		if fit := d.text(name, "#fit"); fit != "" {
			t.Errorf("%s: the page says %q; every board fits", name, fit)
		}
		d.shot(fmt.Sprintf("display-%dx%d-%d.png", c.w, c.h, c.boards))
	}

	// Sixteen boards on a small screen do not fit at a readable size: the
	// page says how many do.
	d.open("a small screen", 800, 480, base+"/display/round/r5?boards=1-16", 16)
	if fit := d.text("a small screen", "#fit"); !regexp.MustCompile(`^16 boards asked for; this screen fits \d+ at a readable size \(\?boards=1-\d+\)$`).MatchString(fit) {
		t.Errorf("16 boards on 800×480: the page says %q; want how many fit", fit)
	}
}

// A display that loses the hall stops its clocks where it last knew them,
// greys the boards and says since when it has heard nothing; the hall
// back, the clocks run again.
func TestDisplayWhenTheHallIsAway(t *testing.T) {
	longtest.Skip(t)
	h := playingRound(t, 8)
	feeds, base, srv := serveDisplay(t, h)
	d := openDisplay(t)
	d.open("the display", 1920, 1080, base+"/display/round/r5", 8)
	if !d.clocksMove("live") {
		t.Fatalf("the clocks do not tick while the hall is live")
	}

	feeds.Close() // the streams end...
	srv.stop()    // ...and the port refuses connections
	d.poll("the page says it lost the hall", `document.body.classList.contains("stale") &&
		/^no news since \d\d:\d\d:\d\d — reconnecting…$/.test(document.getElementById("news").textContent)`, 5*time.Second)
	if d.clocksMove("lost") {
		t.Errorf("the clocks tick on while the hall is away")
	}
	if n := d.eval("lost", `[...document.querySelectorAll(".clock.running")].filter(c => getComputedStyle(c).backgroundColor !== "rgba(0, 0, 0, 0)").length`); n > 0 {
		t.Errorf("%.0f clocks are coloured as running while the hall is away", n)
	}
	if d.eval("lost", `getComputedStyle(document.getElementById("boards")).filter.includes("grayscale") ? 1 : 0`) != 1 {
		t.Errorf("the boards are not greyed while the hall is away")
	}
	d.shot("display-offline.png")
}

// playingRound is a public round of n boards whose clocks run: White has
// moved on each, and Black's clock runs.
func playingRound(t *testing.T, n int) *hall {
	t.Helper()
	h := newHall(t, mono.Real(), "90m+30s", n)
	names := []string{"Nepomniachtchi, Ian", "Vachier-Lagrave, Maxime", "Praggnanandhaa, Rameshbabu", "Abdusattorov, Nodirbek"}
	for i := range h.round.Boards {
		h.round.Boards[i].White = pgn.Player{Name: names[i%len(names)], Title: "GM", Elo: 2750 - i}
	}
	h.setPublic(true)
	for i := 1; i <= n; i++ {
		b := fmt.Sprintf("b%d", i)
		h.commit(b, rules.Event{Kind: rules.KindStart, T: 0})
		e4 := press(rules.White, "e4", 1500)
		e4.FEN = afterE4 // an e-board's: the display draws the position
		h.commit(b, e4)
	}
	return h
}

// stoppable is an HTTP server a test can stop before its end.
type stoppable struct {
	*httptest.Server
	once sync.Once
}

func (s *stoppable) stop() { s.once.Do(s.Close) }

// serveDisplay serves the feeds of h (the display page among them) on a
// loopback port.
func serveDisplay(t *testing.T, h *hall) (*broadcast.Feeds, string, *stoppable) {
	t.Helper()
	f := broadcast.New(broadcast.Options{Source: h, Authenticate: door})
	mux := http.NewServeMux()
	f.Routes(mux)
	i18n.Routes(mux, "en", "") // the page's words, as the hall and the gateway serve them
	srv := &stoppable{Server: httptest.NewServer(mux)}
	t.Cleanup(func() { f.Close(); srv.stop() })
	return f, srv.URL, srv
}

// display is a browser tab on the display page; an uncaught exception of
// the page fails the test.
type display struct {
	t   *testing.T
	ctx context.Context

	mu   sync.Mutex
	errs []string
}

func openDisplay(t *testing.T) *display {
	t.Helper()
	d := &display{t: t, ctx: browsertest.Start(t)}
	msgs := chromedp.Console(d.ctx)
	go func() {
		for m, err := range msgs {
			if err != nil {
				return
			}
			if m.IsException() {
				d.mu.Lock()
				d.errs = append(d.errs, m.String())
				d.mu.Unlock()
			}
		}
	}()
	t.Cleanup(func() {
		d.mu.Lock()
		defer d.mu.Unlock()
		for _, e := range d.errs {
			t.Errorf("the page's console: %s", e)
		}
	})
	return d
}

// open shows url on a w×h screen and waits for n boards drawn.
func (d *display) open(step string, w, h int64, url string, n int) {
	d.t.Helper()
	if err := chromedp.Do(d.ctx, chromedp.EmulateViewport(w, h), chromedp.Navigate(url)); err != nil {
		d.t.Fatalf("%s: %v", step, err)
	}
	d.poll(step+": the boards drawn", fmt.Sprintf(`document.querySelectorAll("section.board svg").length === %d`, n), 10*time.Second)
}

func (d *display) poll(step, js string, within time.Duration) {
	d.t.Helper()
	if err := browsertest.Poll(d.ctx, js, within); err != nil {
		d.t.Fatalf("%s (%s) not within %s: %v", step, js, within, err)
	}
}

func (d *display) eval(step, js string) float64 {
	d.t.Helper()
	v, err := chromedp.Run(d.ctx, chromedp.Evaluate[float64](js))
	if err != nil {
		d.t.Fatalf("%s: %s: %v", step, js, err)
	}
	return v
}

func (d *display) text(step, sel string) string {
	d.t.Helper()
	v, err := chromedp.Run(d.ctx, chromedp.Evaluate[string](`document.querySelector("`+sel+`").textContent`))
	if err != nil {
		d.t.Fatalf("%s: text of %s: %v", step, sel, err)
	}
	return v
}

// clocksMove reports whether a clock the page shows changes within 1.5 s.
func (d *display) clocksMove(step string) bool {
	d.t.Helper()
	v, err := chromedp.Run(d.ctx, chromedp.Evaluate[bool](`(async () => {
		const read = () => [...document.querySelectorAll(".clock")].map(c => c.textContent).join("|");
		const before = read();
		await new Promise(r => setTimeout(r, 1500));
		return read() !== before;
	})()`, chromedp.EvalAwaitPromise))
	if err != nil {
		d.t.Fatalf("%s: %v", step, err)
	}
	return v
}

func (d *display) shot(name string) {
	d.t.Helper()
	png, err := chromedp.Run(d.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		d.t.Fatalf("screenshot %s: %v", name, err)
	}
	d.t.Logf("screenshot: %s", browsertest.Artifact(d.t, name, png))
}
