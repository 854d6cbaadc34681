package sim_test

import (
	"testing"
	"time"

	"github.com/chesshall/hallclock/clockdev/sim"
)

// A round of 200 blitz boards with every chaos mode switched on finishes
// with every result recorded once, every acknowledged press in the store
// exactly once, and every board's log replaying to what the watchers saw.
func TestRoundOf200WithChaos(t *testing.T) {
	// Under the race detector (five to ten times slower) the round plays
	// at 15x: about 700 presses a second at the start, 25 s in all on two
	// cores. Without it, at 40x.
	boards, speed := 200, 40.0
	if raceDetector {
		speed = 15
	}
	if testing.Short() {
		boards = 40
	}
	h := startHall(t, speed)
	cfg := h.config(sim.RoundSpec{TimeControl: "60+1", Boards: boards})
	cfg.Chaos = sim.AllChaos()
	sum := h.run(t, cfg, 3*time.Minute)
	rep := h.check(t)
	t.Logf("%v", rep)
	if sum.Games != boards || len(rep.boards) != boards {
		t.Errorf("%d games played, %d boards in the hall; want %d", sum.Games, len(rep.boards), boards)
	}
	if rep.acked < sum.Presses/2 {
		t.Errorf("only %d acknowledged events checked for %d presses", rep.acked, sum.Presses)
	}
}
