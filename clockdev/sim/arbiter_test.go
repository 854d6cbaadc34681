package sim_test

import (
	"testing"
	"time"

	"github.com/chesshall/hallclock/clockdev/sim"
	"github.com/chesshall/hallclock/internal/testkit/longtest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
)

// A rapid round with an announced quickplay finish: players short of two
// minutes claim, the clock is paused, the arbiter decides (five seconds a
// move, a draw, or a rejection) and restarts it.
func TestQuickplayFinish(t *testing.T) {
	longtest.Skip(t)
	t.Parallel() // they wait on the scaled clock more than they compute
	const boards = 24
	h := startHall(t, 300)
	sum := h.run(t, h.config(sim.RoundSpec{TimeControl: "G/11", Boards: boards,
		Regulations: &pb.Regulations{QuickplayFinish: true}}), 2*time.Minute)
	rep := h.check(t)
	t.Logf("%v", rep)
	kinds := map[rules.Kind]int{}
	for _, evs := range rep.events {
		for i, e := range evs {
			switch e.Event.Kind {
			case rules.KindQuickplayClaim, rules.KindQuickplayIncrement:
				kinds[e.Event.Kind]++
				if i == 0 || evs[i-1].Event.Kind != rules.KindPause || evs[i-1].Event.Side != e.Event.Side && evs[i-1].DeviceID == "" {
					t.Errorf("board %s: %s not preceded by the claimant's pause", e.BoardID, e.Event)
				}
				if e.CommandID == "" && e.DeviceID != "" {
					t.Errorf("board %s: %s recorded by the device without an arbiter's command", e.BoardID, e.Event)
				}
			}
		}
	}
	t.Logf("claims: %d, decided: %v", sum.Claims, kinds)
	if sum.Claims == 0 || kinds[rules.KindQuickplayClaim]+kinds[rules.KindQuickplayIncrement] == 0 {
		t.Errorf("%d claims, %v decided by the arbiter; want some", sum.Claims, kinds)
	}
}

// A round with sessions: games still going at move 20 are adjourned by
// the arbiter, the side to move seals a move, and the game resumes after
// the adjournment with the sealed move completed (and shown on the
// e-board).
func TestAdjournedGames(t *testing.T) {
	longtest.Skip(t)
	t.Parallel() // they wait on the scaled clock more than they compute
	// Six boards at 100x: a loaded machine's acknowledgement delays stay
	// far inside a move's think time, so games reach move 20 rather than
	// flag (at 200x, seconds of delay under load were minutes of a game).
	const boards = 6
	h := startHall(t, 100) // e-boards: every press checks a FEN on both sides
	spec := sim.RoundSpec{TimeControl: "5m+3s", Boards: boards, EBoard: true, AdjournAfter: 20, AdjournFor: 5 * time.Minute}
	sum := h.run(t, h.config(spec), 2*time.Minute)
	rep := h.check(t)
	t.Logf("%v", rep)
	adjourned := 0
	for _, b := range rep.boards {
		evs := rep.events[b.ID]
		replayEBoard(t, b, evs)
		for i, e := range evs {
			if e.Event.Kind != rules.KindAdjourn {
				continue
			}
			adjourned++
			if i+1 >= len(evs) || evs[i+1].Event.Kind != rules.KindResume {
				t.Errorf("board %d: adjourned at %d ms and never resumed", b.Number, e.Event.T)
				continue
			}
			if gap := evs[i+1].Event.T - e.Event.T; gap < spec.AdjournFor.Milliseconds() {
				t.Errorf("board %d: resumed %d ms after the adjournment, want at least %d", b.Number, gap, spec.AdjournFor.Milliseconds())
			}
		}
	}
	if adjourned == 0 || adjourned != sum.Adjourns {
		t.Errorf("%d adjournments in the record, %d by the fleet; want some, the same", adjourned, sum.Adjourns)
	}
}
