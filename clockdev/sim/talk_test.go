package sim_test

import (
	"context"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/chesshall/hallclock/clockdev/sim"
	"github.com/chesshall/hallclock/formats/announce"
	"github.com/chesshall/hallclock/internal/testkit/longtest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
)

// blindRound is a rapid round whose White players are visually disabled,
// with assistants, told the moves and the time used in Russian.
func blindRound(boards int) sim.RoundSpec {
	return sim.RoundSpec{TimeControl: "G/11", Ruleset: "fide-2018", Boards: boards, Announcements: 0.3,
		BlindPlay: &pb.BlindPlay{White: &pb.BlindPlayer{VisuallyDisabled: true, Assistant: true, Language: "ru"}}}
}

// In a rehearsed game the visually disabled player asks his clock now and
// then, at his turn (FIDE 2018 D.2.10.4: only at his request), and the
// talking clock says the completed moves and the time used by both, in
// his language (D.2.6.1); the sighted player never asks, and a round not
// under the appendix hears nothing.
func TestRehearsedTalkingClock(t *testing.T) {
	r, err := sim.Rehearse(blindRound(1), 5, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Said) < 3 {
		t.Fatalf("the clock said %d things in a game of %d turns; want a few", len(r.Said), len(r.Turns))
	}
	var last announce.Facts
	for i, s := range r.Said {
		if s.To != rules.White || s.Language != "ru" || s.AskedBy != "player" {
			t.Errorf("said %d: %+v; want for White, in Russian, at his request", i, s)
		}
		if want := announce.Say("ru", s.Facts).Text; s.Text != want {
			t.Errorf("said %d: %q, want %q", i, s.Text, want)
		}
		// White asks at his turn: the moves are even, and nothing goes back.
		f := s.Facts
		if f.Moves[rules.White] != f.Moves[rules.Black] || f.Moves[rules.White] < last.Moves[rules.White] ||
			f.UsedMs[rules.White] < last.UsedMs[rules.White] || f.UsedMs[rules.Black] < last.UsedMs[rules.Black] {
			t.Errorf("said %d: %+v after %+v; want White to move, and the counts never going back", i, f, last)
		}
		last = f
	}
	if f := r.Final; last.UsedMs[rules.White] > f.P[rules.White].UsedMs || last.Moves[rules.White] > f.P[rules.White].Moves {
		t.Errorf("the last announcement %+v tells more than the game's end %d moves, %d ms", last, f.P[rules.White].Moves, f.P[rules.White].UsedMs)
	}
	plain := blindRound(1)
	plain.BlindPlay = nil
	if r, err := sim.Rehearse(plain, 5, 1, 1); err != nil || len(r.Said) != 0 {
		t.Errorf("a round not under the appendix: said %d things (%v), want none", len(r.Said), err)
	}
}

// speech collects the fleet's "clock says" log records.
type speech struct {
	mu   sync.Mutex
	said []map[string]string
}

func (s *speech) Enabled(context.Context, slog.Level) bool { return true }
func (s *speech) WithAttrs([]slog.Attr) slog.Handler       { return s }
func (s *speech) WithGroup(string) slog.Handler            { return s }
func (s *speech) Handle(_ context.Context, r slog.Record) error {
	if r.Message != "clock says" {
		return nil
	}
	m := map[string]string{}
	r.Attrs(func(a slog.Attr) bool { m[a.Key] = a.Value.String(); return true })
	s.mu.Lock()
	s.said = append(s.said, m)
	s.mu.Unlock()
	return nil
}

// A live round on talking clocks: the visually disabled players press
// their clocks' announce buttons, the clocks say the words (the fleet logs
// them), and nothing else makes them speak.
func TestTalkingClocks(t *testing.T) {
	longtest.Skip(t)
	t.Parallel() // they wait on the scaled clock more than they compute
	const boards = 4
	h := startHall(t, 300)
	cfg := h.config(blindRound(boards))
	cfg.TalkingClocks = true
	sp := &speech{}
	cfg.Logger = slog.New(sp)
	sum := h.run(t, cfg, 2*time.Minute)
	h.check(t)
	sp.mu.Lock()
	defer sp.mu.Unlock()
	if sum.Announcements == 0 || len(sp.said) != sum.Announcements {
		t.Errorf("%d announcements counted, %d logged; want some, the same", sum.Announcements, len(sp.said))
	}
	for _, m := range sp.said {
		// The words are in the board's language as the clock's assignment
		// carries it: Russian once the hall passes blind_play on, English
		// from a hall that does not.
		if m["to"] != "white" || m["asked_by"] != "player" || (m["lang"] != "ru" && m["lang"] != "en") || m["words"] == "" {
			t.Errorf("the clock said %v; want White's own request, in Russian or English", m)
		}
	}
}
