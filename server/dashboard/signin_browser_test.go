package dashboard_test

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/chesshall/hallclock/internal/testkit/halltest"
	"github.com/chesshall/hallclock/internal/testkit/longtest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// Signing in and out as a person does it: the dashboard sends a browser
// that is not signed in to the form; a wrong token is told so; the right
// one opens the hall, with no token in any URL and a cookie the page
// cannot read. When the token is revoked the page says so — it does not
// say "reconnecting…" for ever — and offers to sign in again, with the
// hall greyed and its clocks stopped where it last knew them; signing out
// returns to the form.
func TestDashboardSignInAndOut(t *testing.T) {
	longtest.Skip(t)
	t.Parallel()
	h := halltest.Start(t, halltest.OnLoopback())
	base := h.HTTP(t)
	tb := newTable(t, h, "3m+2s", []boardSpec{{}, {}})
	arb, ctx := h.Arbiter(t)
	issued, err := arb.IssueToken(ctx, &pb.IssueTokenRequest{Role: pb.Role_ROLE_ARBITER, Label: "Anna"})
	if err != nil {
		t.Fatal(err)
	}
	anna := issued.GetToken()
	p := openPage(t, base, 1280, 800)

	p.do("open the dashboard", navigate(base+"/"))
	p.poll("not signed in: the form", `location.pathname === "/signin" && document.getElementById("token") !== null`, 5*time.Second)
	p.signIn("hc_not-a-token")
	p.poll("the form says why", `(document.getElementById("error") || {}).textContent === "unauthenticated: unknown or revoked token"`, 5*time.Second)
	p.do("sign in", chromedp.WaitVisible(chromedp.ID("token")), chromedp.SendKeys(chromedp.ID("token"), anna), chromedp.Submit(chromedp.ID("signin")))
	p.waitHall(len(tb.boards))
	loc := evalAs[string](p, `location.href`)
	if strings.Contains(loc, anna) || strings.Contains(loc, "token=") {
		t.Errorf("the dashboard's URL holds the token: %s", loc)
	}
	if c := evalAs[string](p, `document.cookie`); strings.Contains(c, "hall_session") {
		t.Errorf("the page can read the session cookie: %q", c)
	}
	if who := p.text("#who-label"); who != "Anna (arbiter)" {
		t.Errorf("signed in as %q, want Anna (arbiter)", who)
	}

	tb.start(t)
	p.poll("the clocks run", `document.querySelectorAll(".tile.run-white").length === 2`, 5*time.Second)

	if _, err := arb.RevokeToken(ctx, &pb.RevokeTokenRequest{TokenId: issued.GetTokenId()}); err != nil {
		t.Fatal(err)
	}
	p.poll("the page says why it stopped", `document.getElementById("banner").textContent.includes("the session's token was revoked") && document.getElementById("live").textContent === "signed out"`, 5*time.Second)
	// Signed out, the page hears nothing more: the hall it shows is not live.
	p.expectNothingLive("signed out")
	p.shot("dashboard-signed-out.png", "#banner")

	p.signIn(h.Chief)
	p.waitHall(len(tb.boards))
	p.click("sign out", "#signout button")
	p.poll("back at the form", `location.pathname === "/signin" && document.getElementById("token") !== null`, 5*time.Second)
}
