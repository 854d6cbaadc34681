package gateway_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/nats-io/nats.go"

	"github.com/chesshall/hallclock/internal/natsrun"
	"github.com/chesshall/hallclock/internal/testkit/browsertest"
	"github.com/chesshall/hallclock/internal/testkit/halltest"
	"github.com/chesshall/hallclock/internal/testkit/longtest"
	"github.com/chesshall/hallclock/server/gateway"
)

// logLines is a log at INFO, as an operator reads it.
type logLines struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logLines) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *logLines) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

func (l *logLines) logger() *slog.Logger {
	return slog.New(slog.NewTextHandler(l, &slog.HandlerOptions{Level: slog.LevelInfo}))
}

// following reads /api/following.
func following(t *testing.T, url string) gateway.FollowStatus {
	t.Helper()
	code, body := get(t, url+"/api/following", "")
	var st gateway.FollowStatus
	if code != 200 || json.Unmarshal([]byte(body), &st) != nil {
		t.Fatalf("GET /api/following = %d %s", code, body)
	}
	return st
}

// A gateway without the NATS credentials its server asks for says so at
// once and why: a WARN line naming the authorization violation, the same
// on /api/following (the federation page shows it) and /readyz. With
// them it follows and says nothing of the kind; a hall named whose stream
// is not there is shown with why.
func TestGatewaySaysWhyItCannotFollow(t *testing.T) {
	seed := filepath.Join(t.TempDir(), "gateway.nk")
	key, err := natsrun.UserSeed(seed)
	if err != nil {
		t.Fatal(err)
	}
	n, err := natsrun.Start(natsrun.Options{Dir: t.TempDir(), Users: []natsrun.User{natsrun.FollowerUser(key)}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(n.Shutdown)

	var anonLog logLines
	anon := startGateway(t, n.URL(), gateway.Options{Conn: connect(t, n.URL()), Logger: anonLog.logger()})
	halltest.Eventually(t, 10*time.Second, func() error {
		if l := anonLog.String(); strings.Count(l, "level=WARN") != 1 {
			return fmt.Errorf("want one WARN line, with the reason:\n%s", l)
		}
		if l := anonLog.String(); !strings.Contains(l, `level=WARN msg="gateway: cannot follow the halls"`) || !strings.Contains(strings.ToLower(l), "authorization violation") {
			return fmt.Errorf("the log says nothing of the authorization violation:\n%s", l)
		}
		return nil
	})
	if st := following(t, anon.URL); st.Following || !strings.Contains(strings.ToLower(st.Problem), "authorization violation") || !strings.Contains(st.Problem, "-nats-nkey") {
		t.Errorf("/api/following without credentials = %+v, want not following, for the authorization violation, saying what to give", st)
	}
	if code, body := get(t, anon.URL+"/readyz", ""); code != 503 || !strings.Contains(strings.ToLower(body), "authorization violation") {
		t.Errorf("/readyz without credentials = %d %q, want 503 with the reason", code, body)
	}

	auth, err := nats.NkeyOptionFromSeed(seed)
	if err != nil {
		t.Fatal(err)
	}
	nc, err := nats.Connect(n.URL(), auth)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	var okLog logLines
	ok := startGateway(t, n.URL(), gateway.Options{Conn: nc, Logger: okLog.logger(), Halls: []string{"nowhere"}})
	halltest.Eventually(t, 10*time.Second, func() error {
		st := following(t, ok.URL)
		if len(st.Halls) != 1 || !strings.Contains(st.Halls[0].Problem, "stream not found") {
			return fmt.Errorf("/api/following = %+v, want hall nowhere's stream not found", st)
		}
		if st.Problem != "" || st.Following {
			return fmt.Errorf("/api/following = %+v, want no problem with NATS, the hall not followed", st)
		}
		return nil
	})
	if fed := federation(t, ok.URL, "")["nowhere"]; !strings.Contains(fed.Problem, "stream not found") {
		t.Errorf("the federation view shows hall nowhere as %+v, want why it is not followed", fed)
	}
	if l := okLog.String(); strings.Contains(l, "cannot follow the halls") {
		t.Errorf("with credentials, the log says it cannot follow:\n%s", l)
	}
}

// The federation page says at its top why the gateway cannot follow, and
// the reason fits a phone's width.
func TestFederationPageSaysWhyItCannotFollow(t *testing.T) {
	longtest.Skip(t)
	seed := filepath.Join(t.TempDir(), "gateway.nk")
	key, err := natsrun.UserSeed(seed)
	if err != nil {
		t.Fatal(err)
	}
	n, err := natsrun.Start(natsrun.Options{Dir: t.TempDir(), Users: []natsrun.User{natsrun.FollowerUser(key)}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(n.Shutdown)
	g := startGateway(t, n.URL(), gateway.Options{Conn: connect(t, n.URL())})
	bctx := browsertest.Start(t)
	if err := chromedp.Do(bctx, chromedp.EmulateViewport(360, 740), chromedp.Navigate(g.URL+"/")); err != nil {
		t.Fatal(err)
	}
	const shown = `(() => { const p = document.getElementById("problem");
		return !p.hidden && p.textContent.toLowerCase().includes("authorization violation") && p.textContent.includes("-nats-nkey"); })()`
	if err := browsertest.Poll(bctx, shown, 10*time.Second); err != nil {
		text, _ := chromedp.Run(bctx, chromedp.Text(chromedp.CSS("body")))
		t.Fatalf("the page does not say why the gateway cannot follow: %v\n%s", err, text)
	}
	widest, err := chromedp.Run(bctx, chromedp.Evaluate[float64](
		`Math.max(...[...document.querySelectorAll("body *")].map(e => e.getBoundingClientRect().right))`))
	if err != nil {
		t.Fatal(err)
	}
	if widest > 360 {
		t.Errorf("an element of the page reaches x=%.0f on a 360 px screen", widest)
	}
}
