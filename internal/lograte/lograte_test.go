package lograte

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
	"time"
)

// A failure repeated a thousand times is logged burst times per interval;
// the first record after the interval says how many were suppressed;
// other messages pass meanwhile.
func TestRepeatedRecordsAreSuppressedAndCounted(t *testing.T) {
	var buf bytes.Buffer
	h := New(slog.NewTextHandler(&buf, nil), 3, 10*time.Second)
	now := time.Unix(0, 0)
	h.now = func() time.Time { return now }
	log := slog.New(h).With("component", "store")
	for i := range 1000 {
		log.Error("commit failed", "err", "database or disk is full", "i", i)
	}
	log.Info("device connected", "device", "CLK-1")
	now = now.Add(11 * time.Second)
	log.Error("commit failed", "err", "database or disk is full")
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 5 {
		t.Fatalf("%d lines logged, want 3 + 1 other + 1 after the interval:\n%s", len(lines), buf.String())
	}
	if !strings.Contains(lines[4], "suppressed=997") || !strings.Contains(lines[4], "component=store") {
		t.Errorf("the record after the interval = %q, want it to say suppressed=997 (and keep its attributes)", lines[4])
	}
	if !strings.Contains(lines[3], "device connected") {
		t.Errorf("another message was held back: %q", lines[3])
	}
}
