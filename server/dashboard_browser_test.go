package server_test

import (
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/chesshall/hallclock/internal/halltest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// browser starts a headless chromium for the test, or skips it.
func browser(t *testing.T) context.Context {
	t.Helper()
	path := ""
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			path = p
			break
		}
	}
	if path == "" {
		t.Skip("no chromium on PATH (apt-get install chromium; .ci/run does)")
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(path), chromedp.NoSandbox, chromedp.DisableGPU)
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelB := chromedp.NewContext(actx)
	ctx, cancelC := context.WithTimeout(ctx, 60*time.Second)
	t.Cleanup(func() { cancelC(); cancelB(); cancelA() })
	return ctx
}

// Defect 5, as a person does it in chromium: the dashboard sends a
// browser that is not signed in to the sign-in form; the token typed there
// opens the live table; no token is in any URL, the cookie is out of the
// page's reach, and signing out returns to the form.
func TestDashboardSignInInABrowser(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts chromium")
	}
	ctx := browser(t)
	h := halltest.Start(t)
	h.Round(t, "180+2", 2)
	tok := h.Token(t, pb.Role_ROLE_ARBITER, "Anna", "")
	base := h.HTTP(t)

	run := func(step string, a chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(ctx, a); err != nil {
			t.Fatalf("%s: %v", step, err)
		}
	}
	read := func(step string, a chromedp.Action[string]) string {
		t.Helper()
		v, err := chromedp.Run(ctx, a)
		if err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		return v
	}
	run("open the dashboard", chromedp.Navigate(base+"/"))
	run("the sign-in form", chromedp.WaitVisible(chromedp.ID("token")))
	run("type the token", chromedp.SendKeys(chromedp.ID("token"), tok))
	run("sign in", chromedp.Submit(chromedp.ID("signin")))
	run("the table", chromedp.WaitVisible(chromedp.ID("boards")))
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.querySelectorAll("#boards tbody tr").length >= 2`)); err != nil {
		t.Fatalf("the table's rows: %v", err)
	}
	afterSignIn := read("location", chromedp.Location())
	cookies := read("cookies", chromedp.Evaluate[string](`document.cookie`))
	rows := read("rows", chromedp.Text(chromedp.CSS("#boards tbody")))
	who := read("who", chromedp.Text(chromedp.ID("who")))
	run("sign out", chromedp.Click(chromedp.CSS("#signout button")))
	run("the sign-in form again", chromedp.WaitVisible(chromedp.ID("token")))
	afterSignOut := read("location", chromedp.Location())
	if strings.Contains(afterSignIn, tok) || strings.Contains(afterSignIn, "token=") {
		t.Errorf("the dashboard's URL holds the token: %s", afterSignIn)
	}
	if strings.Contains(cookies, "hall_session") {
		t.Errorf("the page can read the session cookie: %q", cookies)
	}
	if !strings.Contains(rows, "White 1") || !strings.Contains(rows, "White 2") || !strings.Contains(who, "Anna") {
		t.Errorf("signed-in dashboard shows %q (%q), want both boards and Anna", rows, who)
	}
	if !strings.Contains(afterSignOut, "/signin") {
		t.Errorf("after signing out the browser is at %s, want /signin", afterSignOut)
	}
}
