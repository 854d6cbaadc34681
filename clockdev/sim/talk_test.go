package sim_test

import (
	"context"
	"log/slog"
	"strings"
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

// A live round on talking clocks, two of its four boards played under
// the appendix (set by the arbiter once the round is imported, 2018 D.1)
// with the visually disabled White's assistant at the board (D.2.10): the
// assistant presses the clock for his player through the hall, his own
// token scoped to that board (D.2.10.3), and asks the hall for the moves
// and the time used when the player wants them (D.2.10.4); the talking
// clock says them in the player's language, which reaches it with the
// board; nothing else makes a clock speak. The assistants' tokens are
// revoked with the round.
func TestTalkingClocks(t *testing.T) {
	longtest.Skip(t)
	t.Parallel() // they wait on the scaled clock more than they compute
	const boards = 4
	h := startHall(t, 300)
	round := blindRound(boards)
	round.BlindBoards = 2
	cfg := h.config(round)
	cfg.TalkingClocks = true
	sp := &speech{}
	cfg.Logger = slog.New(sp)
	sum := h.run(t, cfg, 2*time.Minute)
	rep := h.check(t)
	sp.mu.Lock()
	defer sp.mu.Unlock()
	if sum.Announcements == 0 || len(sp.said) != sum.Announcements || sum.AssistedAnnouncements != sum.Announcements {
		t.Errorf("%d announcements counted, %d logged, %d asked for by the assistants; want some, all the same", sum.Announcements, len(sp.said), sum.AssistedAnnouncements)
	}
	blind := map[string]bool{}
	for _, b := range rep.boards {
		if b.Number <= 2 {
			blind[b.ID] = true
		}
		if got := b.Config.Blind.Applies(); got != (b.Number <= 2) {
			t.Errorf("board %d is under the appendix: %v; want boards 1 and 2 only", b.Number, got)
		}
	}
	for _, m := range sp.said {
		if m["to"] != "white" || !strings.HasPrefix(m["asked_by"], "assistant:assistant of ") || m["lang"] != "ru" || m["words"] == "" || !blind[m["board"]] {
			t.Errorf("the clock said %v; want White's assistant's request on a board under the appendix, in Russian", m)
		}
	}
	// The assistants' presses are White's moves, through the clock.
	ctx := context.Background()
	assisted := 0
	for id, evs := range rep.events {
		for _, e := range evs {
			if e.Event.Kind != rules.KindPress || e.CommandID == "" {
				continue
			}
			c, err := h.Store.Command(ctx, e.CommandID)
			if err != nil || !strings.HasPrefix(c.IssuedBy, "assistant:") {
				continue
			}
			assisted++
			if !blind[id] || e.Event.Side != rules.White {
				t.Errorf("an assistant pressed for %s on board %s; want White's, on boards under the appendix only", e.Event.Side, id)
			}
		}
	}
	if assisted == 0 || assisted != sum.AssistedPresses {
		t.Errorf("%d presses by the assistants in the log, %d counted; want some, the same", assisted, sum.AssistedPresses)
	}
	arb, actx := h.Arbiter(t)
	toks, err := arb.ListTokens(actx, &pb.ListTokensRequest{})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, tk := range toks.GetTokens() {
		if tk.GetRole() == pb.Role_ROLE_ASSISTANT {
			n++
			if !tk.GetRevoked() {
				t.Errorf("assistant's token %s (%s) still active after the round", tk.GetTokenId(), tk.GetLabel())
			}
		}
	}
	if n != 2 {
		t.Errorf("%d assistants' tokens issued, want one per board under the appendix (2)", n)
	}
}
