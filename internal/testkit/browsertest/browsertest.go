// Package browsertest starts a headless Chromium for tests that drive the
// hall's web pages (chromedp), and saves their screenshots as artifacts.
// Tests skip, saying how to install it, when there is no browser.
//
// # Usage
//
//	ctx := browsertest.Start(t)   // a fresh headless browser tab, closed at cleanup
//	err := chromedp.Do(ctx, chromedp.Navigate(url))
//	browsertest.Artifact(t, "display-round.png", png)
//
// A package with many browser tests shares one browser (starting one
// costs seconds): each test gets a tab in a browser context of its own —
// its own cookies and storage, as a fresh profile has — and TestMain
// closes the browser.
//
//	func TestMain(m *testing.M) { code := m.Run(); browsertest.Close(); os.Exit(code) }
//	ctx := browsertest.Tab(t)
package browsertest

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Start starts a headless Chromium with a fresh profile in a temporary
// directory, no background networking, no component updates, no sync,
// and returns a tab's context (closed when the test ends, after at most
// three minutes). It skips the test when no browser is installed, or in
// -short.
func Start(t testing.TB) context.Context {
	t.Helper()
	path := browser(t)
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), options(path, t.TempDir())...)
	ctx, cancelB := chromedp.NewContext(actx)
	ctx, cancelC := context.WithTimeout(ctx, 3*time.Minute)
	t.Cleanup(func() { cancelC(); cancelB(); cancelA() })
	return ctx
}

// browser returns the browser's path, or skips the test.
func browser(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		t.Skip("starts a browser")
	}
	for _, name := range []string{"/usr/bin/chromium", "chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("no chromium installed (apt-get install chromium; .ci/run does): the page is not checked in a browser")
	return ""
}

func options(path, profile string) []chromedp.ExecAllocatorOption {
	return []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.Flag("no-default-browser-check", true),
		chromedp.UserDataDir(profile), chromedp.WindowSize(1600, 900),
	}
}

// shared is the browser of Tab, started by the first test that asks.
var shared struct {
	mu      sync.Mutex
	ctx     context.Context
	cancel  func()
	profile string
}

// Tab returns a tab of the package's shared browser (started on first
// use) in a browser context of its own: cookies, storage and cache start
// empty, as in a fresh profile. The tab closes when the test ends (after
// at most three minutes). It skips like Start. Close the browser in TestMain.
func Tab(t testing.TB) context.Context {
	t.Helper()
	path := browser(t)
	shared.mu.Lock()
	if shared.ctx == nil {
		dir, err := os.MkdirTemp("", "browsertest-")
		if err != nil {
			shared.mu.Unlock()
			t.Fatal(err)
		}
		actx, cancelA := chromedp.NewExecAllocator(context.Background(), options(path, dir)...)
		bctx, cancelB := chromedp.NewContext(actx)
		if err := chromedp.Do(bctx); err != nil { // start the browser
			cancelB()
			cancelA()
			os.RemoveAll(dir)
			shared.mu.Unlock()
			t.Fatalf("starting %s: %v", path, err)
		}
		shared.ctx, shared.cancel, shared.profile = bctx, func() { cancelB(); cancelA() }, dir
	}
	bctx := shared.ctx
	shared.mu.Unlock()
	ctx, cancel := chromedp.NewContext(bctx, chromedp.WithNewBrowserContext())
	ctx, cancelT := context.WithTimeout(ctx, 3*time.Minute)
	t.Cleanup(func() { cancelT(); cancel() })
	return ctx
}

// Close closes the shared browser of Tab, if one was started.
func Close() {
	shared.mu.Lock()
	defer shared.mu.Unlock()
	if shared.cancel != nil {
		shared.cancel()
		os.RemoveAll(shared.profile)
		shared.ctx, shared.cancel = nil, nil
	}
}

// Artifact saves data as name in the test artifacts folder: $HALL_ARTIFACTS,
// or artifacts/ at the module's root (git-ignored), and returns its path.
func Artifact(t testing.TB, name string, data []byte) string {
	t.Helper()
	dir := os.Getenv("HALL_ARTIFACTS")
	if dir == "" {
		_, file, _, _ := runtime.Caller(0)
		dir = filepath.Join(filepath.Dir(file), "..", "..", "..", "artifacts")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// Click clicks the first visible element matching the CSS selector sel as
// soon as there is one, within the given time. It finds and clicks in one
// step inside the page: a list the page re-renders between a lookup and a
// click (as chromedp.Click does them, in two round trips) loses the node,
// "Could not find node with given id". It does not click in a document
// still being parsed, and asks again when the page's execution context
// was gone before the click was asked (a navigation), never after.
func Click(ctx context.Context, sel string, within time.Duration) error {
	q, _ := json.Marshal(sel)
	js := `(() => { const e = [...document.querySelectorAll(` + string(q) + `)].find(e => e.getClientRects().length > 0);
		if (!e) return false; e.click(); return true; })()`
	return poll(ctx, js, within, func(err error) bool { return strings.Contains(err.Error(), "Cannot find context") })
}
