package clockface_test

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/chesshall/hallclock/internal/testkit/browsertest"
	"github.com/chesshall/hallclock/internal/testkit/halltest"
	"github.com/chesshall/hallclock/internal/testkit/longtest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// shot saves a screenshot as a test artifact and, with HALL_SCREENSHOTS=1
// and docs true, as the docs' copy in docs/screenshots.
func (f *face) shot(name string, docs bool) {
	f.t.Helper()
	png, err := chromedp.Run(f.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		f.t.Fatalf("screenshot %s: %v", name, err)
	}
	f.t.Logf("screenshot: %s", browsertest.Artifact(f.t, name, png))
	if os.Getenv("HALL_SCREENSHOTS") != "" && docs {
		_, file, _, _ := runtime.Caller(0)
		if err := os.WriteFile(filepath.Join(filepath.Dir(file), "..", "..", "docs", "screenshots", name), png, 0o644); err != nil {
			f.t.Fatal(err)
		}
	}
}

// fits fails the test if anything of the page reaches past the
// viewport, or if the top bar or the footer overlaps a half's time.
func (f *face) fits(when string) {
	f.t.Helper()
	wider, err := browsertest.Wider(f.ctx)
	if err != nil {
		f.t.Fatal(err)
	}
	for _, w := range wider {
		f.t.Errorf("%s: wider than the viewport: %s", when, w)
	}
	over := evalAs[[]string](f, `(() => {
		const r = (e) => e.getBoundingClientRect();
		const meet = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
		const out = [];
		for (const t of document.querySelectorAll(".half .time")) {
			const tr = r(t), hr = r(t.closest(".half"));
			if (tr.left < hr.left - 0.5 || tr.right > hr.right + 0.5 || t.scrollWidth > t.clientWidth + 1) out.push("a time is wider than its half: " + t.textContent);
			if (tr.bottom > innerHeight || tr.top < 0) out.push("a time is cut off: " + tr.top + "–" + tr.bottom);
			for (const id of ["link", "bar", "foot", "notice"]) {
				const e = document.getElementById(id);
				if (!e.hidden && meet(r(e), tr)) out.push(id + " covers a time");
			}
		}
		return out; })()`)
	for _, o := range over {
		f.t.Errorf("%s: %s", when, o)
	}
}

// The face in landscape (a tablet, 1280×800) and in portrait (a phone,
// 390×844): nothing wider than the screen, the indicator and the notices
// never over the times, the halves side by side or stacked, the period,
// moves, increment and players shown.
func TestFaceFitsLandscapeAndPortrait(t *testing.T) {
	longtest.Skip(t)
	h, _, _, b := longNamesBoard(t)
	base := h.HTTP(t)
	started := false
	for _, v := range []struct {
		name string
		w, h int64
	}{{"tablet-clock.png", 1280, 800}, {"tablet-clock-portrait.png", 390, 844}} {
		f := openFace(t, v.w, v.h)
		f.enrol(base, "CLK-012", h.DeviceToken(t, "CLK-012"))
		f.poll("online, on its board", `document.getElementById("link").textContent === "online" && JSON.parse(hallclockDevice.state()).assigned`, 10*time.Second)
		f.fits(v.name + " before the start")
		if !started {
			startRound(t, h, b)
			started = true
		}
		f.poll("running", `JSON.parse(hallclockDevice.state()).status === "running"`, 5*time.Second)
		if f.state().Running == "white" {
			f.pressTo("white", "black")
		}
		f.poll("drawn", `document.getElementById("half-b").classList.contains("running")`, 2*time.Second)
		if got := f.text("#half-a .info"); !contains(got, "period 1", "move", "+30 s a move") {
			t.Errorf("%s: White's half says %q, want the period, the moves and the increment", v.name, got)
		}
		if got := f.text("#half-b .player"); got != "IM Hallgrímsson, Þorvaldur (2467)" {
			t.Errorf("%s: Black's half names %q", v.name, got)
		}
		stacked := evalAs[bool](f, `document.getElementById("half-a").getBoundingClientRect().bottom <= document.getElementById("half-b").getBoundingClientRect().top`)
		if stacked != (v.h > v.w) {
			t.Errorf("%s: halves stacked %v, want %v (portrait)", v.name, stacked, v.h > v.w)
		}
		f.fits(v.name)
		f.shot(v.name, v.name == "tablet-clock.png")
		evalAs[bool](f, `hallclockDevice.close(), true`) // one browser at a time is this clock
		f.do("leave", navigate("about:blank"))
	}
}

// longNamesBoard starts a hall with one board whose round, players and
// time control have the longest words a face shows (table 12, CLK-012,
// two periods), for the tests of its layout.
func longNamesBoard(t *testing.T) (*halltest.Hall, pb.ArbiterClient, context.Context, *pb.Board) {
	t.Helper()
	h := halltest.Start(t)
	arb, ctx := h.Arbiter(t)
	r := h.NewRound(t, "Nordic Open Rapid Championship", 3, &pb.ClockConfig{TimeControl: "40/90m+30s:30m+30s"})
	b, err := arb.AddBoard(ctx, &pb.AddBoardRequest{RoundId: r.GetRoundId(), Number: 12, DeviceId: "CLK-012",
		White: &pb.Player{Name: "Kristiansen-Vandenberghe, Magdalena", Title: "WGM", Rating: 2431},
		Black: &pb.Player{Name: "Hallgrímsson, Þorvaldur", Title: "IM", Rating: 2467}})
	if err != nil {
		t.Fatal(err)
	}
	return h, arb, ctx, b
}
