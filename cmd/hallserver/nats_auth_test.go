package main

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/chesshall/hallclock/formats/hallstream"
	"github.com/chesshall/hallclock/internal/testkit/halltest"
	"github.com/chesshall/hallclock/server/gateway"
)

// natsUser connects to the embedded server as the user of seed, and
// records the permission violations the server reports.
type natsUser struct {
	nc         *nats.Conn
	mu         sync.Mutex
	violations []string
	reported   chan struct{} // a violation was reported
}

func connectAs(t *testing.T, url, seed string) *natsUser {
	t.Helper()
	u := &natsUser{reported: make(chan struct{}, 1)}
	opt, err := nats.NkeyOptionFromSeed(seed)
	if err != nil {
		t.Fatal(err)
	}
	u.nc, err = nats.Connect(url, opt, nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) {
		u.mu.Lock()
		u.violations = append(u.violations, err.Error())
		u.mu.Unlock()
		select {
		case u.reported <- struct{}{}:
		default:
		}
	}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(u.nc.Close)
	return u
}

// attempt runs f with at most timeout, and ends it when the server
// reports a permission violation on a subject starting with prefix: an
// attempt it refuses gets no answer, and would wait its whole timeout.
func (u *natsUser) attempt(ctx context.Context, timeout time.Duration, prefix string, f func(context.Context) error) error {
	c, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	done := make(chan struct{})
	defer close(done)
	go func() {
		for !u.hasViolation(prefix) {
			select {
			case <-u.reported:
			case <-done:
				return
			}
		}
		cancel()
	}()
	return f(c)
}

func (u *natsUser) hasViolation(prefix string) bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	for _, v := range u.violations {
		if strings.Contains(strings.ToLower(v), "permissions violation") && strings.Contains(v, prefix) {
			return true
		}
	}
	return false
}

// violated waits for the server to report a permission violation on a
// subject starting with prefix.
func (u *natsUser) violated(t *testing.T, prefix string) {
	t.Helper()
	halltest.Eventually(t, 5*time.Second, func() error {
		if u.hasViolation(prefix) {
			return nil
		}
		u.mu.Lock()
		defer u.mu.Unlock()
		return errors.New("no permissions violation for " + prefix + " reported: " + strings.Join(u.violations, "; "))
	})
}

// The embedded NATS server runs with authorization: an anonymous client
// is refused (so it can neither publish nor delete the stream); the
// gateways' user reads the stream but may not publish to it, delete,
// purge or update it, nor delete a message; and a message written with
// stolen NATS credentials but not the hall's key is refused by a gateway,
// counted, and not applied.
func TestEmbeddedNATSAuthorization(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "hall")
	r := serve(t, &Main{DataDir: dir, HallID: "bergen-1"})
	banner := r.out.String()
	url := regexp.MustCompile(`NATS   embedded (nats://\S+),`).FindStringSubmatch(banner)
	key := regexp.MustCompile(`stream signing key (\S+) \(gateways may pin it: -hall-key bergen-1=(\S+)\)`).FindStringSubmatch(banner)
	if url == nil || key == nil || key[1] != key[2] {
		t.Fatalf("banner %q: want the embedded server's URL and the hall's signing key", banner)
	}
	const stream = "HALL_bergen-1"
	ctx := context.Background()

	// Anonymous: refused at the door.
	if nc, err := nats.Connect(url[1]); !errors.Is(err, nats.ErrAuthorization) {
		if nc != nil {
			nc.Close()
		}
		t.Fatalf("an anonymous client connected (%v): it could publish to and delete the hall's stream", err)
	}

	// The gateways' user: reads, and nothing more.
	gw := connectAs(t, url[1], filepath.Join(dir, "nats", "gateway.nk"))
	js, err := jetstream.New(gw.nc)
	if err != nil {
		t.Fatal(err)
	}
	var before uint64
	halltest.Eventually(t, 10*time.Second, func() error {
		s, err := js.Stream(ctx, stream)
		if err != nil {
			return err
		}
		before = s.CachedInfo().State.Msgs
		if before == 0 {
			return errors.New("the hall has not published yet")
		}
		return nil
	})
	const short = 500 * time.Millisecond
	if err := gw.attempt(ctx, short, "hall.bergen-1.meta.hall", func(c context.Context) error {
		_, err := js.Publish(c, "hall.bergen-1.meta.hall", []byte(`{"delay_ms":0,"all_public":true}`))
		return err
	}); err == nil {
		t.Error("the gateways' user published to the hall's stream")
	}
	gw.violated(t, "hall.bergen-1.meta.hall")
	if err := gw.attempt(ctx, short, "$JS.API.STREAM.DELETE."+stream, func(c context.Context) error {
		return js.DeleteStream(c, stream)
	}); err == nil {
		t.Error("the gateways' user deleted the hall's stream")
	}
	gw.violated(t, "$JS.API.STREAM.DELETE."+stream)
	if s, err := js.Stream(ctx, stream); err == nil {
		if err := gw.attempt(ctx, short, "$JS.API.STREAM.PURGE."+stream, func(c context.Context) error {
			return s.Purge(c)
		}); err == nil {
			t.Error("the gateways' user purged the hall's stream")
		}
		if err := gw.attempt(ctx, short, "$JS.API.STREAM.MSG.DELETE."+stream, func(c context.Context) error {
			return s.DeleteMsg(c, 1)
		}); err == nil {
			t.Error("the gateways' user deleted a message of the hall's stream")
		}
	}
	gw.violated(t, "$JS.API.STREAM.PURGE."+stream)
	gw.violated(t, "$JS.API.STREAM.MSG.DELETE."+stream)
	s, err := js.Stream(ctx, stream)
	if err != nil {
		t.Fatalf("the hall's stream after the gateways' user's attempts: %v", err)
	}
	if got := s.CachedInfo().State.Msgs; got < before {
		t.Errorf("the stream holds %d messages, %d before the gateways' user's attempts", got, before)
	}

	// A gateway, and a message written with the hall's NATS credentials
	// (stolen) but not its signing key: refused and counted.
	g, err := gateway.New(gateway.Options{Conn: gw.nc, Halls: []string{"bergen-1"}, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	hl, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	gctx, gcancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { defer close(done); g.Run(gctx) }()
	go g.ServeHTTP(hl)
	defer func() { gcancel(); g.Shutdown(time.Second); <-done }()
	halltest.Eventually(t, 10*time.Second, func() error {
		if !g.Ready() {
			return errors.New("the gateway has not read the hall's stream")
		}
		return nil
	})
	thief := connectAs(t, url[1], filepath.Join(dir, "nats", "hall.nk"))
	tjs, _ := jetstream.New(thief.nc)
	forged := nats.NewMsg("hall.bergen-1.meta.hall")
	forged.Data = []byte(`{"delay_ms":0,"all_public":true}`)
	forged.Header.Set(hallstream.HeaderOutbox, "100000")
	if _, err := tjs.PublishMsg(ctx, forged); err != nil {
		t.Fatal(err)
	}
	halltest.Eventually(t, 10*time.Second, func() error {
		resp, err := http.Get("http://" + hl.Addr().String() + "/metrics")
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if !strings.Contains(string(b), `hall_gateway_refused_total{hall="bergen-1"} 1`) {
			return errors.New("the forged message is not counted as refused")
		}
		return nil
	})
}
