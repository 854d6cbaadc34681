package clockface_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/chesshall/hallclock/internal/i18n"
	"github.com/chesshall/hallclock/internal/testkit/browsertest"
	"github.com/chesshall/hallclock/internal/testkit/longtest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// words is a language's catalogue, its plain messages by key.
func words(t *testing.T, lang string) map[string]string {
	t.Helper()
	m, err := i18n.Texts(lang)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// The face holds in every language of the hall (English, Korean, Russian,
// Armenian), on a tablet in landscape (1280×800), on a hall's screen
// (1920×1080) and a phone in portrait (390×844): before the start and
// paused by the arbiter with a reason (its longest words; each language's
// page after the first a fresh browser that picks the paused board up and
// hears the reason with the board), it says them from the language's
// catalogue, the switcher is in the footer set to the language and never
// over a time, nothing reaches past the screen and no text is cut.
func TestFaceHoldsInEveryLanguage(t *testing.T) {
	longtest.Skip(t)
	h, arb, ctx, b := longNamesBoard(t)
	base := h.HTTP(t)
	token := h.DeviceToken(t, "CLK-012")
	const reason = "a phone rang in the playing hall, the arbiter is checking it"
	langs := i18n.Langs()

	// check checks the face in lang as it is now, in both sizes.
	check := func(f *face, lang, phase string, shown map[string]string) {
		t.Helper()
		for _, size := range []struct{ w, h int64 }{{1280, 800}, {1920, 1080}, {390, 844}} {
			name := fmt.Sprintf("%s %s %d×%d", lang, phase, size.w, size.h)
			opts := []chromedp.EmulateViewportOption{}
			if size.w < size.h {
				opts = append(opts, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulateScale(3))
			}
			f.do(name, chromedp.EmulateViewport(size.w, size.h, opts...))
			// Drawn again at the new size (the face draws every 50 ms).
			f.poll(name+": laid out", fmt.Sprintf(`innerWidth === %d && innerHeight === %d`, size.w, size.h), 5*time.Second)
			if got := evalAs[string](f, `document.documentElement.lang`); got != lang {
				t.Errorf("%s: the page says lang=%q", name, got)
			}
			f.drawn(shown, 5*time.Second)
			for sel, want := range shown {
				if got := f.text(sel); strings.TrimSpace(got) != want {
					t.Errorf("%s: %s says %q, want %q", name, sel, got, want)
				}
			}
			if got := evalAs[string](f, `(document.querySelector("#foot .lang-switch") || {value: "none"}).value`); got != lang {
				t.Errorf("%s: the footer's language switcher is set to %q", name, got)
			}
			f.fits(name)
			cut, err := browsertest.Cut(f.ctx)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range cut {
				t.Errorf("%s: cut: %s", name, c)
			}
			f.shot(fmt.Sprintf("face-%s-%s-%d.png", lang, phase, size.w), false)
		}
	}
	// open opens the face in lang as the board's clock, on its board.
	open := func(lang string) *face {
		f := openFace(t, 1280, 800)
		f.do("open the face in "+lang, navigate(base+"/clock?lang="+lang))
		creds, _ := json.Marshal(map[string]string{"device_id": "CLK-012", "token": token, "label": "Table 12"})
		evalAs[bool](f, `localStorage.setItem("hallclock.device", `+jsString(string(creds))+`), true`)
		f.reload()
		f.poll(lang+": online, on its board", `JSON.parse(hallclockDevice.state()).connected && JSON.parse(hallclockDevice.state()).assigned`, 15*time.Second)
		return f
	}
	leave := func(f *face) {
		evalAs[bool](f, `hallclockDevice.close(), true`) // one browser at a time is this clock
		f.do("leave", navigate("about:blank"))
	}

	for i, lang := range langs {
		w := words(t, lang)
		f := open(lang)
		check(f, lang, "waiting", map[string]string{"#status": w["face.waiting"]})
		if i < len(langs)-1 {
			leave(f)
			continue
		}
		// The game starts and White moves.
		startRound(t, h, b)
		f.poll("running", `JSON.parse(hallclockDevice.state()).status === "running"`, 10*time.Second)
		f.pressTo("white", "black")
		leave(f)
	}
	// act has the arbiter act on the board, carried out by the face.
	act := func(kind pb.ActionKind, reason string) {
		t.Helper()
		res, err := arb.BoardAction(ctx, &pb.BoardActionRequest{BoardId: b.GetBoardId(), Reason: reason, Action: &pb.ClockAction{Kind: kind}})
		if err != nil || res.GetStatus() != pb.CommandStatus_COMMAND_STATUS_APPLIED {
			t.Fatalf("the arbiter's %v: %v %v", kind, res, err)
		}
	}
	// The arbiter pauses the running board, with a reason, on the first
	// language's page; every other language's is a fresh browser that
	// picks the paused board up and hears the reason with it.
	for i, lang := range langs {
		w := words(t, lang)
		f := open(lang)
		if i == 0 {
			// A fresh browser picks the board up as it runs: nothing
			// pauses it on a change of clock.
			if s := f.state(); s.Status != "running" || s.Running != "black" || s.WhiteMoves != 1 {
				t.Errorf("%s: a fresh browser picks the running board up as %+v; want it running, Black to move", lang, s)
			}
			act(pb.ActionKind_ACTION_KIND_PAUSE, reason) // the face hears the reason with the command
		}
		f.poll(lang+": paused, with the arbiter's reason", `JSON.parse(hallclockDevice.state()).status === "paused" &&
			JSON.parse(hallclockDevice.state()).pause_reason === `+jsString(reason), 10*time.Second)
		check(f, lang, "paused", map[string]string{
			"#notice":         strings.ReplaceAll(w["face.paused_reason"], "{reason}", reason),
			"#half-b .bonus":  strings.ReplaceAll(w["face.increment"], "{s}", strings.ReplaceAll(w["face.secs"], "{s}", "30")),
			"#swap":           "⇄",
			"#half-a .flag":   w["face.flag"],
			"#say-a":          w["face.say"],
			"#half-a .player": "WGM Kristiansen-Vandenberghe, Magdalena (2431)",
		})
		leave(f)
	}
}
