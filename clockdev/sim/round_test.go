package sim_test

import (
	"os"
	"testing"
	"time"

	"github.com/chesshall/hallclock/clockdev/sim"
	"github.com/chesshall/hallclock/internal/testkit/longtest"
)

// A round of blitz boards with every chaos mode switched on finishes with
// every result recorded once, every acknowledged press in the store
// exactly once, and every board's log replaying to what the watchers saw.
//
// By default 24 boards; the soak of 200 boards (a minute and more of two
// cores under the race detector) runs with HALL_SOAK=1, with every chaos
// mode or those HALL_SOAK_CHAOS lists (cut,latency,dup,reorder,reboot,
// drift,die).
func TestRoundOfBoardsWithChaos(t *testing.T) {
	longtest.Skip(t)
	t.Parallel() // they wait on the scaled clock more than they compute
	boards, speed := 24, 40.0
	if os.Getenv("HALL_SOAK") == "1" {
		// Under the race detector (five to ten times slower) the round
		// plays at 15x: about 700 presses a second at the start.
		boards = 200
		if raceDetector {
			speed = 15
		}
	}
	h := startHall(t, speed)
	cfg := h.config(sim.RoundSpec{TimeControl: "60+1", Boards: boards})
	cfg.Chaos = sim.AllChaos()
	if modes := os.Getenv("HALL_SOAK_CHAOS"); modes != "" {
		// One mode at a time, to tell which finds a fault: HALL_SOAK_CHAOS=cut.
		var err error
		if cfg.Chaos, err = sim.ParseChaos(modes); err != nil {
			t.Fatal(err)
		}
	}
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
