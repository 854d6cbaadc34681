package main

import (
	"strings"
	"testing"

	"github.com/chesshall/hallclock/internal/testkit/halltest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// hallctl boards shows a clock switched on before its board was added as
// connected, not "(offline)" (the demo's whole hall once read offline).
func TestBoardsShowsEarlyClockOnline(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t, halltest.OnLoopback())
	h.Spare(t, "CLK-EARLY")
	do, _ := runner(t, chiefEnv(h))
	r := h.NewRound(t, "Open", 1, &pb.ClockConfig{TimeControl: "90m+30s"})
	do("add-board", "-device", "CLK-EARLY", r.GetRoundId(), "1", "Anna", "Bert")
	out := do("boards")
	if !strings.Contains(out, "CLK-EARLY") || strings.Contains(out, "offline") {
		t.Errorf("hallctl boards:\n%s\nwant CLK-EARLY, connected (no \"offline\")", out)
	}
}
