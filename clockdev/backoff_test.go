package clockdev

import (
	"bytes"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"
)

// The same link failure, again and again, is a warning once a
// minute (saying how many it stood for), not a warning per reconnection;
// a different failure is a warning at once.
func TestLinkDownWarningsAreRateLimited(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelWarn}))
	var l linkLog
	now := time.Unix(0, 0)
	full := errors.New("rpc error: code = Unavailable desc = database or disk is full")
	for range 100 {
		l.down(log, full, time.Second, now)
		now = now.Add(100 * time.Millisecond)
	}
	l.down(log, errors.New("connection refused"), time.Second, now)
	now = now.Add(time.Minute)
	l.down(log, errors.New("connection refused"), time.Second, now)
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d warnings, want 3 (the first failure, the new one, the same a minute later):\n%s", len(lines), buf.String())
	}
	if !strings.Contains(lines[0], "disk is full") || !strings.Contains(lines[1], "connection refused") ||
		!strings.Contains(lines[1], "previous_repeated=99") || strings.Contains(lines[2], "repeated") {
		t.Errorf("warnings:\n%s", buf.String())
	}
}
