package dashboard_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chesshall/hallclock/internal/testkit/halltest"
	"github.com/chesshall/hallclock/internal/testkit/longtest"
	"github.com/chesshall/hallclock/server"
)

// The hall's stream to NATS on the top bar: up to date while it publishes,
// red with the waiting changes while NATS is away, amber when a backlog
// grows old.
func TestDashboardShowsTheStream(t *testing.T) {
	longtest.Skip(t)
	t.Parallel()
	var mu sync.Mutex
	st := server.StreamStatus{Hall: "bergen", Stream: "HALL_bergen", NATS: "embedded nats://127.0.0.1:4222", Connected: true, Acked: 12}
	set := func(f func(*server.StreamStatus)) { mu.Lock(); f(&st); mu.Unlock() }
	h := halltest.Start(t, halltest.OnLoopback(), halltest.WithOptions(server.Options{
		Stream: func(context.Context) (server.StreamStatus, error) { mu.Lock(); defer mu.Unlock(); return st, nil },
	}))
	base := h.HTTP(t)
	tb := newTable(t, h, "90m+30s", []boardSpec{{section: "A"}, {section: "A"}})
	tb.start(t)

	p := openPage(t, base, 1280, 800)
	p.signIn(h.Chief)
	p.waitHall(2)
	badge := `document.getElementById("stream")`
	p.poll("the stream up to date", badge+`.textContent === "stream: up to date" && `+badge+`.classList.contains("ok") && !`+badge+`.hidden`, 10*time.Second)

	set(func(s *server.StreamStatus) {
		s.Connected, s.Backlog, s.OldestAgeMs, s.LastError = false, 37, 95_000, "nats: no servers available"
	})
	p.poll("NATS away, 37 waiting", badge+`.textContent === "stream: NATS away · 37 waiting" && `+badge+`.classList.contains("bad")`, 10*time.Second)
	if title := evalAs[string](p, badge+`.title`); !strings.Contains(title, "1:35 old") || !strings.Contains(title, "no servers available") {
		t.Errorf("the badge's details say %q; want the oldest change's age (1:35) and the publisher's error", title)
	}
	p.shot("dashboard-stream-away.png", "#top")

	set(func(s *server.StreamStatus) { s.Connected, s.Backlog, s.OldestAgeMs = true, 5, 12_000 })
	p.poll("a backlog draining", badge+`.textContent === "stream: 5 behind, 0:12 old" && `+badge+`.classList.contains("busy")`, 10*time.Second)

}
