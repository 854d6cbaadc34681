package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/chesshall/hallclock/internal/testkit/halltest"
	"github.com/chesshall/hallclock/rules"
)

// The sealed move's rulings from the command line, against a real server
// and clock: the board says who sealed, the sealed move found illegal at
// the resumption loses the game for him (FIDE 2023 Guidelines I.8.3), a
// lost envelope resumes with the sealer to move (I.12), and the arbiter
// calls a flag only where the appendices let him (A.5.5).
func TestSealedMoveCommands(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t, halltest.OnLoopback())
	boards := h.Round(t, "90m+30s", 2)
	first, second := boards[0].GetBoardId(), boards[1].GetBoardId()
	do, expect := runner(t, chiefEnv(h))
	for _, b := range boards {
		d := h.Device(t, b.GetDeviceId())
		do("start", b.GetBoardId())
		halltest.Synced(t, d)
		if err := d.Press(rules.White, "", ""); err != nil {
			t.Fatal(err)
		}
		halltest.Synced(t, d)
	}

	// Nothing sealed yet: the command says so and sends nothing.
	var out bytes.Buffer
	if err := run(context.Background(), []string{"sealed-illegal", first}, &out, chiefEnv(h)); err == nil || !strings.Contains(err.Error(), "no sealed move") {
		t.Errorf("sealed-illegal before an adjournment: %v, want an error saying there is no sealed move", err)
	}

	expect(do("adjourn", first), "adjourned", "black's sealed move is in the envelope")
	expect(do("resume", first), "black's sealed move is not answered yet")
	expect(do("sealed-illegal", first, "-reason", "Nf6 from f8"), "APPLIED", "1-0 illegal_move")
	expect(do("audit", first), "Black's sealed move illegal (I.8)", "game over: 1-0 illegal moves", "Nf6 from f8")

	expect(do("adjourn", second), "adjourned")
	expect(do("envelope-lost", second), "APPLIED", "running, black's clock")
	if got := do("board", second); strings.Contains(got, "sealed move") {
		t.Errorf("after the envelope was lost the board still shows a sealed move:\n%s", got)
	}

	// 90m+30s is a standard game: a flag ends it when it falls, and there is
	// none to call now.
	if err := run(context.Background(), []string{"arbiter-flag", second, "black"}, &out, chiefEnv(h)); err == nil {
		t.Errorf("arbiter-flag with Black's flag up: accepted, want refused\n%s", out.String())
	}
}
