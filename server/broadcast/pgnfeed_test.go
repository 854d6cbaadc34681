package broadcast_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chesshall/hallclock/internal/mono"
	"github.com/chesshall/hallclock/internal/testkit/pgncheck"
	"github.com/chesshall/hallclock/rules"
	"github.com/chesshall/hallclock/server/broadcast"
)

var start = time.Date(2025, 9, 15, 15, 0, 0, 0, time.UTC)

// script is what a hall commits at each second of a round: two boards
// start, moves come at uneven times, the arbiter pauses one clock and
// adds time, board 2 ends.
func script(h *hall, s int) {
	t := int64(s) * 1000
	switch {
	case s == 1:
		h.commit("b1", rules.Event{Kind: rules.KindStart, T: t})
		h.commit("b2", rules.Event{Kind: rules.KindStart, T: t})
	case s == 19:
		h.commit("b1", rules.Event{Kind: rules.KindPause, T: t}, "a phone rang")
	case s == 20:
		h.commit("b1", rules.Event{Kind: rules.KindAddTime, Side: rules.Black, Ms: 60000, T: t}, "12.9")
		h.commit("b1", rules.Event{Kind: rules.KindResume, T: t})
	case s == 41:
		h.commit("b2", rules.Event{Kind: rules.KindResult, Result: rules.Draw, Termination: rules.TermAgreement, T: t})
	case s > 1 && s%3 == 0 && s/3-1 < len(opening):
		i := s/3 - 1
		h.commit("b1", press(rules.Side(i%2), opening[i], t))
		if i < 6 {
			h.commit("b2", press(rules.Side(i%2), opening[i], t))
		}
	}
}

func words(s string) string { return strings.Join(strings.Fields(s), " ") }

// The delayed PGN at time t is the live PGN at t − delay, second by
// second and between the seconds, on the injectable clock — without the
// reasons the arbiter gave, which only the arbiters read.
func TestDelayedPGNIsLivePGNEarlier(t *testing.T) {
	// The live PGN without the reasons, and a PGN, in words one space
	// apart (lines are wrapped where the words fall).
	reasons := strings.NewReplacer(" — a phone rang", "", " — 12.9", "")
	withoutReasons := func(pgn string) string { return reasons.Replace(words(pgn)) }
	clock := mono.NewFake(start)
	h := newHall(t, clock, "180+2", 2)
	const delay = 10 * time.Second
	_, base := serve(t, broadcast.Options{Source: h, Clock: clock, Delay: delay})
	url := base + "/api/pgn/round/r5"
	live := map[int]string{}
	changes := 0
	// Half-second steps: events come at whole seconds only, so half a
	// second later the delayed PGN must not have moved.
	for half := 0; half <= 120; half++ {
		if half > 0 {
			clock.Advance(500 * time.Millisecond)
		}
		s := half / 2
		if half%2 == 0 {
			script(h, s)
			live[s] = body(t, get(t, url, "arbiter"))
			if s >= 20 && !strings.Contains(words(live[s]), "{Clock paused — a phone rang}") {
				t.Fatalf("at %ds the arbiter's PGN has no reason for the pause:\n%s", s, live[s])
			}
			if s == 30 {
				h.setPublic(true)
			}
		}
		if s < int(delay/time.Second) {
			continue
		}
		at := float64(half) / 2
		want := withoutReasons(live[s-int(delay/time.Second)])
		got := body(t, get(t, url, "broadcast"))
		if words(got) != want {
			t.Fatalf("at %.1fs the delayed PGN is\n%s\nwant the live PGN at %.1fs:\n%s", at, got, at-10, want)
		}
		if half%2 == 0 && s > 10 && want != withoutReasons(live[s-11]) {
			changes++
		}
		if s >= 30 {
			if anon := body(t, get(t, url, "")); words(anon) != want {
				t.Fatalf("at %.1fs the public (no token) PGN is\n%s\nwant the delayed one", at, anon)
			}
		}
	}
	if changes < 10 {
		t.Errorf("the delayed PGN changed %d times in the round, want every commit to show", changes)
	}
	if !strings.Contains(live[60], "[%clk 0:03:") || !strings.Contains(live[60], "a phone rang") {
		t.Errorf("the live PGN misses clocks or the ruling:\n%s", live[60])
	}
}

// A poller with If-None-Match or If-Modified-Since gets 304 while nothing
// changed, and that costs no read of the source and no render; a change
// reads only the board that changed; gzip when asked, with its own ETag.
func TestConditionalRequests(t *testing.T) {
	clock := mono.NewFake(start)
	h := newHall(t, clock, "180+2", 3)
	_, base := serve(t, broadcast.Options{Source: h, Clock: clock})
	url := base + "/api/pgn/round/r5"
	for s := 0; s <= 12; s++ {
		clock.Advance(time.Second)
		script(h, s)
	}
	first := get(t, url, "arbiter")
	plain := body(t, first)
	etag, modified := first.Header.Get("ETag"), first.Header.Get("Last-Modified")
	if first.StatusCode != http.StatusOK || etag == "" || modified == "" {
		t.Fatalf("GET: %s, ETag %q, Last-Modified %q", first.Status, etag, modified)
	}
	if ct := first.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/x-chess-pgn") {
		t.Errorf("Content-Type %q, want application/x-chess-pgn", ct)
	}
	if want := start.Add(13 * time.Second).Format(http.TimeFormat); modified != want {
		t.Errorf("Last-Modified %s, want the last commit, %s", modified, want)
	}
	reads, rounds := h.counts()
	for i := range 100 {
		resp := get(t, url, "arbiter", "If-None-Match", etag)
		if resp.StatusCode != http.StatusNotModified || body(t, resp) != "" {
			t.Fatalf("poll %d with If-None-Match: %s", i, resp.Status)
		}
	}
	if resp := get(t, url, "arbiter", "If-Modified-Since", modified); resp.StatusCode != http.StatusNotModified {
		t.Errorf("GET with If-Modified-Since the Last-Modified: %s, want 304", resp.Status)
	}
	if r2, n2 := h.counts(); r2 != reads || n2 != rounds {
		t.Errorf("101 polls of an unchanged round read the source %d times (events) and %d (round), want none", r2-reads, n2-rounds)
	}

	gz := get(t, url, "arbiter", "Accept-Encoding", "gzip, deflate")
	if gz.Header.Get("Content-Encoding") != "gzip" || gz.Header.Get("ETag") == etag {
		t.Fatalf("Accept-Encoding gzip: Content-Encoding %q, ETag %q (plain %q)", gz.Header.Get("Content-Encoding"), gz.Header.Get("ETag"), etag)
	}
	zr, err := gzip.NewReader(gz.Body)
	if err != nil {
		t.Fatal(err)
	}
	unzipped, err := io.ReadAll(zr)
	if err != nil || !bytes.Equal(unzipped, []byte(plain)) {
		t.Errorf("the gzipped PGN unzips to %d bytes (%v), want the %d of the plain one", len(unzipped), err, len(plain))
	}
	if resp := get(t, url, "arbiter", "Accept-Encoding", "gzip", "If-None-Match", gz.Header.Get("ETag")); resp.StatusCode != http.StatusNotModified {
		t.Errorf("gzip poll with its ETag: %s, want 304", resp.Status)
	}

	clock.Advance(time.Second)
	h.commit("b3", rules.Event{Kind: rules.KindStart, T: 13000})
	h.commit("b3", press(rules.White, "d4", 14000))
	reads, _ = h.counts()
	resp := get(t, url, "arbiter", "If-None-Match", etag)
	if resp.StatusCode != http.StatusOK || resp.Header.Get("ETag") == etag {
		t.Fatalf("after a commit: %s, ETag %q (before %q), want 200 and a new ETag", resp.Status, resp.Header.Get("ETag"), etag)
	}
	if r2, _ := h.counts(); r2-reads != 1 {
		t.Errorf("a commit on one board read %d boards' events, want 1", r2-reads)
	}
	games := pgncheck.Read(t, []byte(body(t, resp)))
	if len(games) != 3 || games[0].Tags["Round"] != "5.1" || games[2].Tags["Round"] != "5.3" || games[0].Tags["Site"] != "Bergen NOR" {
		t.Errorf("pgn-extract read %d games, tags %v", len(games), games)
	}
	if len(games) == 3 && strings.Join(games[0].Moves, " ") != strings.Join(opening[:4], " ") {
		t.Errorf("board 1 moves %v, want %v", games[0].Moves, opening[:4])
	}
}

// Who may read what: without credentials only a public round; a bad
// token never; an arbiter of a section only its boards; one board's game.
func TestAccess(t *testing.T) {
	clock := mono.NewFake(start)
	h := newHall(t, clock, "180+2", 3)
	h.round.Boards[2].Section = "A"
	_, base := serve(t, broadcast.Options{Source: h, Clock: clock})
	url := base + "/api/pgn/round/r5"
	if resp := get(t, url, ""); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("a private round without a token: %s, want 401", resp.Status)
	}
	if resp := get(t, url, "forged"); resp.StatusCode == http.StatusOK {
		t.Errorf("a bad token: %s, want a refusal", resp.Status)
	}
	if resp := get(t, base+"/api/pgn/round/nope", "arbiter"); resp.StatusCode != http.StatusNotFound {
		t.Errorf("an unknown round: %s, want 404", resp.Status)
	}
	tok := body(t, get(t, url, "broadcast"))
	h.setPublic(true)
	resp := get(t, url, "")
	if resp.StatusCode != http.StatusOK || body(t, resp) != tok {
		t.Errorf("a public round without a token: %s, want the broadcast token's PGN", resp.Status)
	}
	if got := body(t, get(t, url, "arbiter-A")); strings.Count(got, "[Event ") != 1 || !strings.Contains(got, `[Event "Nordic Autumn Open 2025 (A)"]`) {
		t.Errorf("an arbiter of section A reads\n%s\nwant board 3 (section A) only", got)
	}
	one := body(t, get(t, base+"/api/pgn/board/b2", ""))
	if strings.Count(one, "[Event ") != 1 || !strings.Contains(one, `[Round "5.2"]`) || !strings.Contains(one, `[White "White 2"]`) {
		t.Errorf("board 2's PGN:\n%s", one)
	}
	if resp := get(t, base+"/api/pgn/board/b3", "arbiter-A"); resp.StatusCode != http.StatusOK {
		t.Errorf("section A's arbiter reading board 3: %s", resp.Status)
	}
	if resp := get(t, base+"/api/pgn/board/b1", "arbiter-A"); resp.StatusCode != http.StatusNotFound {
		t.Errorf("section A's arbiter reading board 1 (no section): %s, want 404", resp.Status)
	}
}
