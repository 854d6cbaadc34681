package dashboard_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/chesshall/hallclock/internal/qr"
	"github.com/chesshall/hallclock/internal/testkit/halltest"
	"github.com/chesshall/hallclock/internal/testkit/longtest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// An arbiter of sections A and B signs a deputy's tablet in: "Sign in
// another device" shows a one-time link and its QR code (which reads as
// the link). The deputy's tablet opens the link, and so does a chat app's
// preview before it: opening spends nothing, the button signs the tablet
// in as the deputy, once; the preview's button, pressed after, is refused.
func TestSignInAnotherDevice(t *testing.T) {
	longtest.Skip(t)
	t.Parallel()
	h := halltest.Start(t)
	tb := newTable(t, h, "90m+30s", []boardSpec{{section: "A"}, {section: "B"}, {section: "C"}})
	anna := h.Token(t, pb.Role_ROLE_ARBITER, "Anna", "", "A", "B")
	h.Token(t, pb.Role_ROLE_ARBITER, "Bo", "", "A")
	base := h.HTTP(t)

	p := openPage(t, base, 1280, 800)
	p.signIn(anna)
	p.waitHall(2)
	p.click("sign in another device", "#link-open")
	p.poll("the dialog open", `document.getElementById("link-dialog").open`, 2*time.Second)
	p.do("for the deputy", sendKeys("#link-for", "Bo"))
	p.click("make the link", "#link-make")
	p.poll("the link shown", `!document.getElementById("link-out").hidden && document.getElementById("link-qr").complete &&
		document.getElementById("link-qr").naturalWidth > 0`, 5*time.Second)
	link := evalAs[string](p, `document.getElementById("link-url").value`)
	if !strings.HasPrefix(link, base+"/signin?code=sc_") {
		t.Fatalf("the dialog's link is %q, want %s/signin?code=sc_...", link, base)
	}
	if says := p.text("#link-says"); !contains(says, "Bo (arbiter, sections A)", "once") {
		t.Errorf("the dialog says %q; want whom the link signs in as, and that it works once", says)
	}
	// The image is the link's QR code: drawn from the link (the server's
	// SVG holds exactly its modules), and read back by a QR reader.
	svg := evalAs[string](p, `decodeURIComponent(document.getElementById("link-qr").src.split(",").slice(1).join(","))`)
	if want, _ := qr.SVG(link); svg != want {
		t.Errorf("the QR code shown is not the link's")
	}
	p.shot("dashboard-signin-link.png", "#link-dialog")
	readQR(t, p, "#link-qr", link)

	tablet := openPage(t, base, 800, 1280)
	preview := openPage(t, base, 800, 600)
	for _, q := range []*page{preview, tablet} {
		q.do("open the link", navigate(link))
		q.poll("the link's page", `!!document.getElementById("link-signin")`, 5*time.Second)
		if who := q.text("#link-who"); who != "Bo (arbiter, sections A)" {
			t.Errorf("the link's page signs in as %q, want Bo (arbiter, sections A)", who)
		}
	}
	tablet.click("sign in", "#link-signin")
	tablet.waitHall(1)
	if who := tablet.text("#who-label"); !strings.Contains(who, "Bo") {
		t.Errorf("the tablet is signed in as %q, want Bo", who)
	}
	if got := tablet.shown(); got != tb.boards[0].GetBoardId() {
		t.Errorf("the deputy's tablet shows boards %q, want section A's only (%s)", got, tb.boards[0].GetBoardId())
	}
	preview.click("the preview's button, after", "#link-signin")
	preview.poll("refused", `!!document.getElementById("error") && /unknown, used or expired/.test(document.getElementById("error").textContent)`, 5*time.Second)
}

// readQR reads the QR code an element shows with zbarimg (zbar-tools), and
// wants it to say want. Without zbarimg the image was still checked
// against the link's own code.
func readQR(t *testing.T, p *page, sel, want string) {
	t.Helper()
	zbar, err := exec.LookPath("zbarimg")
	if err != nil {
		t.Logf("no zbarimg (apt-get install zbar-tools): the QR code was compared with the link's, not read")
		return
	}
	png, err := chromedp.Run(p.ctx, chromedp.Screenshot(chromedp.CSS(sel)))
	if err != nil {
		t.Fatalf("screenshot of the QR code: %v", err)
	}
	file := filepath.Join(t.TempDir(), "qr.png")
	if err := os.WriteFile(file, png, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(zbar, "--raw", "-q", file).Output()
	if err != nil {
		t.Fatalf("zbarimg found no QR code in the dialog's image: %v", err)
	}
	if got := strings.TrimSpace(string(out)); got != want {
		t.Errorf("the QR code reads %q, want the link %q", got, want)
	}
}
