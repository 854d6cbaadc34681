package dashboard_test

import (
	"context"
	"html"
	"io"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/chesshall/hallclock/internal/testkit/halltest"
	"github.com/chesshall/hallclock/internal/testkit/longtest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/server"
)

// The dashboard says the hall's local time, and its zone where it could
// be mistaken, whatever the browser's own zone: a hall in Yerevan read
// from a browser set to New York. The sign-in link the dashboard makes
// says its expiry as the link's sign-in page does ("14:30 +04
// (Asia/Yerevan)", as hallctl signin-link too: cmd/hallctl
// TestTimesSayTheHallsZone), and the audit panel shows the link's entry
// at the instant the hall keeps, in Yerevan's clock time, to the second,
// saying the zone as hallctl audit does ("+04", "Asia/Yerevan").
func TestDashboardSaysTheHallsZone(t *testing.T) {
	longtest.Skip(t)
	t.Parallel()
	yerevan, err := time.LoadLocation("Asia/Yerevan")
	if err != nil {
		t.Fatal(err)
	}
	h := halltest.Start(t, halltest.OnLoopback(), halltest.WithOptions(server.Options{Zone: yerevan}))
	newTable(t, h, "90m+30s", []boardSpec{{section: "A"}})
	h.Token(t, pb.Role_ROLE_ARBITER, "Bo", "", "A")
	base := h.HTTP(t)

	p := openPage(t, base, 1280, 800)
	p.do("a browser in New York", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, emulation.SetTimezoneOverride, emulation.SetTimezoneOverrideParams{TimezoneID: "America/New_York"})
		return err
	}))
	p.signIn(h.Chief)
	p.waitHall(1)
	if got := evalAs[string](p, `Intl.DateTimeFormat().resolvedOptions().timeZone`); got != "America/New_York" {
		t.Fatalf("the browser's zone is %q, want America/New_York", got)
	}

	p.click("sign in another device", "#link-open")
	p.poll("the dialog open", `document.getElementById("link-dialog").open`, 2*time.Second)
	p.do("for the deputy", sendKeys("#link-for", "Bo"))
	p.click("make the link", "#link-make")
	p.poll("the link shown", `!document.getElementById("link-out").hidden`, 5*time.Second)
	link, says := evalAs[string](p, `document.getElementById("link-url").value`), p.text("#link-says")

	res, err := h.HTTPClient().Get(link)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	m := regexp.MustCompile(`until (\d\d:\d\d \+04 \(Asia/Yerevan\))`).FindStringSubmatch(html.UnescapeString(string(body)))
	if m == nil {
		t.Fatalf("the link's sign-in page says no expiry in Yerevan:\n%s", body)
	}
	if !strings.Contains(says, "until "+m[1]) {
		t.Errorf("the dashboard says %q; want the expiry as the sign-in page says it, until %s", says, m[1])
	}

	arb, ctx := h.Arbiter(t)
	log, err := arb.AuditLog(ctx, &pb.AuditLogRequest{Kinds: []string{"sign-in"}})
	if err != nil || len(log.GetEntries()) != 1 {
		t.Fatalf("AuditLog of the sign-in link: %v, %v", log, err)
	}
	made := time.UnixMilli(log.GetEntries()[0].GetUnixMs())
	p.do("close the dialog", keyEscape())
	p.click("Audit", "#audit-open")
	p.do("kind sign-in", sendKeys(`#audit-form input[name="kind"]`, "sign-in"))
	p.click("Show", "#audit-show")
	p.poll("the link's entry", `document.querySelectorAll("#audit-list li").length === 1`, 5*time.Second)
	if got, want := p.text("#audit-list li .awhen"), made.In(yerevan).Format("15:04:05"); got != want {
		t.Errorf("the audit shows the link made at %q; want %s, Yerevan's clock (New York's: %s)", got, want, made.In(time.FixedZone("", -5*3600)).Format("15:04:05"))
	}
	if got := p.text("#audit-says"); !strings.Contains(got, "+04 (Asia/Yerevan)") {
		t.Errorf("the audit says %q; want the zone of its times, +04 (Asia/Yerevan)", got)
	}
}
