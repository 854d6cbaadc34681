package broadcast_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/chesshall/hallclock/internal/mono"
	"github.com/chesshall/hallclock/rules"
	"github.com/chesshall/hallclock/server/broadcast"
)

// benchRound is a round of 64 boards, each 16 moves in.
func benchRound(b *testing.B) (*hall, http.Handler) {
	clock := mono.NewFake(start)
	h := newHall(&testing.T{}, clock, "5400+30", 64)
	for i := 1; i <= 64; i++ {
		id := fmt.Sprintf("b%d", i)
		h.commit(id, rules.Event{Kind: rules.KindStart, T: 0})
		for j, san := range opening {
			h.commit(id, press(rules.Side(j%2), san, int64(j+1)*1000))
		}
	}
	f := broadcast.New(broadcast.Options{Source: h, Clock: clock, Authenticate: door})
	b.Cleanup(f.Close)
	mux := http.NewServeMux()
	f.Routes(mux)
	return h, mux
}

func serveOnce(b *testing.B, mux http.Handler, etag string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodGet, "/api/pgn/round/r5", nil)
	req.Header.Set("Authorization", "Bearer arbiter")
	if etag != "" {
		req.Header.Set("If-None-Match", etag)
	}
	w := httptest.NewRecorder()
	mux.ServeHTTP(w, req)
	return w
}

// A poll of an unchanged 64-board round with its ETag: 304.
func BenchmarkPollUnchanged(b *testing.B) {
	_, mux := benchRound(b)
	etag := serveOnce(b, mux, "").Header().Get("ETag")
	b.ResetTimer()
	for b.Loop() {
		if w := serveOnce(b, mux, etag); w.Code != http.StatusNotModified {
			b.Fatal(w.Code)
		}
	}
}

// A poll after one board of the round changed: that game written again,
// the document assembled, sent whole.
func BenchmarkPollAfterAMove(b *testing.B) {
	h, mux := benchRound(b)
	serveOnce(b, mux, "")
	t := int64(100_000)
	b.ResetTimer()
	for b.Loop() {
		t += 1000
		h.commit("b1", rules.Event{Kind: rules.KindAddTime, Side: rules.White, Ms: 1000, T: t}, "bench")
		if w := serveOnce(b, mux, ""); w.Code != http.StatusOK {
			b.Fatal(w.Code)
		}
	}
}

// The whole round written from scratch per request, as without the cache.
func BenchmarkRenderWholeRound(b *testing.B) {
	for b.Loop() {
		b.StopTimer()
		_, mux := benchRound(b)
		b.StartTimer()
		serveOnce(b, mux, "")
	}
}
