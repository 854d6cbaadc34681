// Package lograte keeps a log readable when something fails over and
// over: a slog.Handler that lets through at most Burst records of the same
// level and message per Interval, and counts the rest. The next record of
// that kind after the interval carries "suppressed", how many were not
// logged. A hall whose disk is full fails every commit and every clock's
// reconnection in the same words; an operator needs to read that once in a
// while, not 125,000 times in 30 seconds.
package lograte

import (
	"context"
	"log/slog"
	"sync"
	"time"
)

// Handler wraps another handler; see the package doc.
type Handler struct {
	next     slog.Handler
	burst    int
	interval time.Duration
	now      func() time.Time
	st       *state // shared by the handlers WithAttrs and WithGroup derive
}

type state struct {
	mu    sync.Mutex
	kinds map[key]*window
}

type key struct {
	level slog.Level
	msg   string
}

type window struct {
	start      time.Time
	n          int // records in this window
	suppressed int // records not logged since the last one logged
}

// New returns a handler that passes at most burst records of each level
// and message per interval to next. Debug records always pass (they are
// off unless asked for).
func New(next slog.Handler, burst int, interval time.Duration) *Handler {
	return &Handler{next: next, burst: burst, interval: interval, now: time.Now, st: &state{kinds: map[key]*window{}}}
}

func (h *Handler) Enabled(ctx context.Context, l slog.Level) bool { return h.next.Enabled(ctx, l) }

func (h *Handler) Handle(ctx context.Context, r slog.Record) error {
	if r.Level <= slog.LevelDebug {
		return h.next.Handle(ctx, r)
	}
	k := key{r.Level, r.Message}
	now := h.now()
	h.st.mu.Lock()
	w := h.st.kinds[k]
	if w == nil {
		w = &window{start: now}
		h.st.kinds[k] = w
	}
	if now.Sub(w.start) >= h.interval {
		w.start, w.n = now, 0
	}
	w.n++
	if w.n > h.burst {
		w.suppressed++
		h.st.mu.Unlock()
		return nil
	}
	suppressed := w.suppressed
	w.suppressed = 0
	if len(h.st.kinds) > 10_000 { // messages are constants; this is a guard
		clear(h.st.kinds)
	}
	h.st.mu.Unlock()
	if suppressed > 0 {
		r = r.Clone()
		r.AddAttrs(slog.Int("suppressed", suppressed))
	}
	return h.next.Handle(ctx, r)
}

func (h *Handler) WithAttrs(as []slog.Attr) slog.Handler {
	c := *h
	c.next = h.next.WithAttrs(as)
	return &c
}

func (h *Handler) WithGroup(name string) slog.Handler {
	c := *h
	c.next = h.next.WithGroup(name)
	return &c
}
