package main

import (
	"testing"

	"github.com/chesshall/hallclock/internal/testkit/halltest"
)

// hallctl sets up an Armageddon board in a round scoring 3-1-0 and shows,
// once drawn, the board's result and what it counts as.
func TestArmageddonBoard(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t, halltest.OnLoopback())
	do, expect := runner(t, chiefEnv(h))
	do("tournament", "Tie-break", "-tc", "5m+3s", "-scoring", "3-1-0")
	do("round", "Tie-break", "1")
	out := do("add-board", "Tie-break:1", "1", "Anna", "Bert", "-device", "CLK-001", "-armageddon")
	expect(out, "time control white 60/300:0+2 | black 60/240:0+2", "White 5 min for 60 moves", "Black 4 min for 60 moves", "; blitz",
		"draw odds for black: a draw counts as black's win")
	out = do("timecontrol", "white 5m | black 4m")
	expect(out, "White 5 min for the game; Black 4 min for the game; blitz")
	h.Device(t, "CLK-001")
	expect(do("start", "1.1"), "APPLIED")
	expect(do("board", "1.1"), "black 4:00.0", "draw odds for black")
	expect(do("result", "1.1", "1/2-1/2", "agreement"), "APPLIED")
	expect(do("board", "1.1"), "1/2-1/2 (counts 0-1) agreement")
	expect(do("boards", "-round", "Tie-break:1"), "1/2-1/2 (counts 0-1)")
}
