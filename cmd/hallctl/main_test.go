package main

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/chesshall/hallclock/internal/testkit/halltest"
)

// The CLI against a real server on loopback: set up, act, read back.
func TestCommands(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t, halltest.OnLoopback())
	boards := h.Round(t, "90m+30s", 1)
	id := boards[0].GetBoardId()
	h.Device(t, boards[0].GetDeviceId())
	env := chiefEnv(h)
	do := func(args ...string) (string, error) {
		var out bytes.Buffer
		err := run(context.Background(), args, &out, env)
		return out.String(), err
	}
	for _, c := range []struct {
		args []string
		want string // in the output
	}{
		{[]string{"start", id}, "APPLIED"},
		{[]string{"pause", id, "-reason", "toilet break"}, "paused"},
		{[]string{"add", id, "black", "1m"}, "black 1:31:00"},
		{[]string{"set", id, "1h25m", "1h31m"}, "white 1:25:00"},
		{[]string{"set", id, "1h26m", "1h31m", "-moves", "0,0", "-to-move", "black"}, "paused, black to move"},
		{[]string{"set", id, "1h25m", "1h31m", "-moves", "0,0", "-to-move", "white"}, "paused, white to move"},
		{[]string{"boards"}, "White 1"},
		{[]string{"board", id}, "time control 5400+30 (90m+30s): 90 min for the game, +30 s per move from move 1; standard"},
		{[]string{"timecontrol", "40/90m+30s:30m+30s"}, "90 min for 40 moves, then 30 min, +30 s per move from move 1; standard"},
		{[]string{"timecontrol", "840+1", "-ruleset", "fide-2009"}, "rapid"},
		{[]string{"tournament", "Rapid Cup", "-tc", "G/15"}, "15 min for the game; rapid"},
		{[]string{"audit", id}, "toilet break"},
		{[]string{"audit", id}, "Black to move (retrace)"},
		{[]string{"devices"}, "CLK-001"},
		{[]string{"token", "issue", "arbiter", "Anna", "-sections", "A,B"}, "tok-"},
		{[]string{"token", "list"}, "Anna"},
	} {
		out, err := do(c.args...)
		if err != nil {
			t.Errorf("hallctl %s: %v\n%s", strings.Join(c.args, " "), err, out)
			continue
		}
		if !strings.Contains(out, c.want) {
			t.Errorf("hallctl %s printed\n%s\nwant it to contain %q", strings.Join(c.args, " "), out, c.want)
		}
	}
	// A refused action says why and fails.
	out, err := do("resume", id)
	if err != nil {
		t.Fatalf("resume: %v", err)
	}
	out, err = do("set", id, "1h", "1h")
	if err == nil || !strings.Contains(out, "stop the clock") {
		t.Errorf("set while running: err %v, output %q; want a refusal saying to stop the clock", err, out)
	}
	// A time control that may mean two things is refused with both readings.
	if _, err := do("timecontrol", "3+2"); err == nil || !strings.Contains(err.Error(), "write 3m+2s for 3 minutes") {
		t.Errorf("hallctl timecontrol 3+2: err %v, want both readings", err)
	}
	if _, err := do("add", id, "purple", "1m"); !errors.Is(err, errUsage) {
		t.Errorf("add with side purple: err %v, want a usage error", err)
	}
}
