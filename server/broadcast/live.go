package broadcast

import (
	"context"
	"fmt"
	"net/http"
	"time"
)

// liveView is one state of a live stream (a display page's round, a
// tournament's standings): what it sends, and when it may change.
type liveView struct {
	key     any           // the view's identity: data is sent when it differs from the last sent
	data    func() []byte // the event's data, made only when it is sent
	until   time.Time     // when the view changes by itself (a result out of the broadcast delay); zero: only on changed
	changed <-chan struct{}
}

// serveLive streams views to a screen as server-sent events: the view at
// once, then again whenever it changes, at most one update per
// streamInterval, a keep-alive comment when nothing was sent for
// keepAlive. first, if not nil, is the first view (computed by the caller
// so that a refusal still gets its HTTP status); next makes every other.
// An error of next ends the stream with an "error" event.
func (f *Feeds) serveLive(w http.ResponseWriter, r *http.Request, metric string, first *liveView, next func(context.Context) (liveView, error)) {
	fl, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	stop := context.AfterFunc(f.ctx, cancel)
	defer stop()
	// A stream lives as long as its screen: no deadline on its writes.
	_ = http.NewResponseController(w).SetWriteDeadline(time.Time{})
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	fl.Flush()
	f.metrics.requests.WithLabelValues(metric, "200").Inc()
	f.metrics.streams.Inc()
	defer f.metrics.streams.Dec()
	var sent any
	var lastSend time.Time
	v := first
	for {
		if v == nil {
			nv, err := next(ctx)
			if err != nil {
				if ctx.Err() == nil {
					fmt.Fprintf(w, "event: error\ndata: %s\n\n", jsonString(err.Error()))
					fl.Flush()
				}
				return
			}
			v = &nv
		}
		if v.key != sent {
			if _, err := fmt.Fprintf(w, "data: %s\n\n", v.data()); err != nil {
				return
			}
			fl.Flush()
			sent, lastSend = v.key, time.Now()
		}
		wait := keepAlive
		if !v.until.IsZero() {
			wait = min(wait, max(v.until.Sub(f.clock.Now()), time.Millisecond))
		}
		if err := f.sleep(ctx, wait, v.changed); err != nil {
			return
		}
		v = nil
		if time.Since(lastSend) >= keepAlive {
			if _, err := fmt.Fprint(w, ": keep-alive\n\n"); err != nil {
				return
			}
			fl.Flush()
			lastSend = time.Now()
		}
		// Coalesce: what happens within streamInterval goes in one update.
		if d := streamInterval - time.Since(lastSend); d > 0 {
			t := time.NewTimer(d)
			select {
			case <-ctx.Done():
				t.Stop()
				return
			case <-t.C:
			}
		}
	}
}
