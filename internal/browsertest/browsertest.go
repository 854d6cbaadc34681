// Package browsertest starts a headless Chromium for tests that drive the
// hall's web pages (chromedp), and saves their screenshots as artifacts.
// Tests skip, saying how to install it, when there is no browser.
//
// # Usage
//
//	ctx := browsertest.Start(t)   // a fresh headless browser tab, closed at cleanup
//	err := chromedp.Do(ctx, chromedp.Navigate(url))
//	browsertest.Artifact(t, "display-round.png", png)
package browsertest

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Start starts a headless Chromium with a fresh profile in a temporary
// directory, no background networking, no component updates, no sync,
// and returns a tab's context (closed when the test ends, after at most a
// minute). It skips the test when no browser is installed, or in -short.
func Start(t testing.TB) context.Context {
	t.Helper()
	if testing.Short() {
		t.Skip("starts a browser")
	}
	path := ""
	for _, name := range []string{"/usr/bin/chromium", "chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			path = p
			break
		}
	}
	if path == "" {
		t.Skip("no chromium installed (apt-get install chromium; .ci/run does): the page is not checked in a browser")
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.Flag("no-default-browser-check", true),
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1600, 900),
	}
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelB := chromedp.NewContext(actx)
	ctx, cancelC := context.WithTimeout(ctx, time.Minute)
	t.Cleanup(func() { cancelC(); cancelB(); cancelA() })
	return ctx
}

// Artifact saves data as name in the test artifacts folder: $HALL_ARTIFACTS,
// or artifacts/ at the module's root (git-ignored), and returns its path.
func Artifact(t testing.TB, name string, data []byte) string {
	t.Helper()
	dir := os.Getenv("HALL_ARTIFACTS")
	if dir == "" {
		_, file, _, _ := runtime.Caller(0)
		dir = filepath.Join(filepath.Dir(file), "..", "..", "artifacts")
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
