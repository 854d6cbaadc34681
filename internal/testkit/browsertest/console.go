package browsertest

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// FailOnConsoleErrors fails the test, when it ends, for every exception
// the page at ctx threw and every error its scripts logged. The browser's
// own network errors (a request refused while the hall is away, a 401
// after a token is revoked) are left out: the pages handle those.
func FailOnConsoleErrors(t testing.TB, ctx context.Context) {
	t.Helper()
	var (
		mu   sync.Mutex
		errs []string
	)
	msgs := chromedp.Console(ctx)
	go func() {
		for m, err := range msgs {
			if err != nil {
				return
			}
			if m.IsException() || (m.Type == chromedp.ConsoleError && m.Source == "") {
				mu.Lock()
				errs = append(errs, m.String()+" at "+m.URL+fmt.Sprintf(":%d", m.Line+1))
				mu.Unlock()
			}
		}
	}()
	t.Cleanup(func() {
		mu.Lock()
		defer mu.Unlock()
		for _, e := range errs {
			t.Errorf("the page's console: %s", e)
		}
	})
}

// Poll waits until js is true in the page at ctx, within the given time,
// through navigations (a form submitted, a redirect, a reload): a poll the
// page's navigation cut short is asked again, and js is not asked of a
// document still being parsed, whose later elements are not there yet
// (a redirect's page polled mid-load threw "Cannot read properties of
// null"). Every browser test waits through it.
func Poll(ctx context.Context, js string, within time.Duration) error {
	return poll(ctx, js, within, func(err error) bool {
		return strings.Contains(err.Error(), "context") || strings.Contains(err.Error(), "navigated")
	})
}

// poll waits until js is true in a parsed document at ctx, within the
// given time, asking again after an error again says a navigation cut
// short.
func poll(ctx context.Context, js string, within time.Duration, again func(error) bool) error {
	deadline := time.Now().Add(within)
	guarded := `document.readyState !== "loading" && (` + js + `)`
	for {
		_, err := chromedp.Run(ctx, chromedp.Poll[bool](guarded, chromedp.WithPollingTimeout(time.Until(deadline))))
		if err == nil {
			return nil
		}
		if time.Now().Before(deadline) && ctx.Err() == nil && again(err) {
			time.Sleep(20 * time.Millisecond) // the page navigated while polling
			continue
		}
		return err
	}
}
