package sim

import (
	"context"
	"errors"
	"net"
	"testing"
	"time"

	"github.com/chesshall/hallclock/clockdev"
	"github.com/chesshall/hallclock/internal/mono"
	hallv1 "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
)

// The demonstration's restart: the fleet stops with its hall and starts
// again five minutes later (wall time, on an injectable clock). Its clock
// comes back with the board's time advanced by the five minutes, as a real
// clock keeps running while its hall is away: the running side has lost
// them, instead of finding them given back. A clock the chaos reboots
// later in the run does not count its time off.
func TestClocksKeepTheTimeTheFleetWasAway(t *testing.T) {
	dir := t.TempDir()
	wall := mono.NewFake(time.Date(2025, 9, 15, 14, 0, 0, 0, time.UTC))
	cfg := Config{ChiefToken: "chief", Rounds: []RoundSpec{{Tournament: "Classical Open", TimeControl: "90m", Boards: 1}},
		StateDir: dir, Clock: wall,
		Dial: func(context.Context, string) (net.Conn, error) { return nil, errors.New("no hall in this test") }}

	// The first run: the clock plays board B1, started at 0 and White's
	// move made at 10 s of board time, when the fleet starts.
	first := testFleet(t, cfg)
	tb := first.newTable(first.tours[0], 1, first.store.outboxPath)
	ob, err := clockdev.OpenFileOutbox(tb.outboxPath)
	if err != nil {
		t.Fatal(err)
	}
	err = ob.SaveBoard(&hallv1.Assignment{BoardId: "B1", Config: &hallv1.ClockConfig{Ruleset: "fide-2023", TimeControl: "5400"},
		History: []*hallv1.ClockAction{{Kind: hallv1.ActionKind_ACTION_KIND_START}, {Kind: hallv1.ActionKind_ACTION_KIND_PRESS, Side: hallv1.Side_SIDE_WHITE, TMs: 10_000}}})
	ob.Close()
	if err != nil {
		t.Fatal(err)
	}
	start(t, tb)
	wall.Advance(20 * time.Second)
	if got := tb.dev.BoardNow(); got != 30_000 {
		t.Fatalf("board time after 20 s = %d, want 30000", got)
	}
	// The fleet stops: as in Run, each table notes its clock as it shuts
	// down, and the fleet keeps the notes.
	tb.shutdown()
	if err := first.saveClockNotes(); err != nil {
		t.Fatal(err)
	}

	wall.Advance(5 * time.Minute) // the hall is away
	second := testFleet(t, cfg)
	tb = second.newTable(second.tours[0], 1, second.store.outboxPath)
	start(t, tb)
	if got, want := tb.dev.BoardNow(), int64(30_000+5*60_000); got != want {
		t.Errorf("after the restart the board's time is %d, want %d (where it stood, and the five minutes)", got, want)
	}
	if got, want := tb.dev.State().P[rules.Black].MainMs, int64(5_400_000-20_000-5*60_000); got != want {
		t.Errorf("after the restart Black has %d ms, want %d: his clock ran while the hall was away", got, want)
	}

	// A chaos reboot later in the run: the power cut stops the clock.
	wall.Advance(time.Minute)
	tb.closeDevice()
	start(t, tb)
	if got := tb.dev.BoardNow(); got != 10_000 {
		t.Errorf("after a reboot the board's time is %d, want 10000 (the last recorded instant: the time off does not count)", got)
	}
	tb.shutdown()
}

// testFleet is a fleet on cfg's StateDir, set up as Run does but without a
// hall.
func testFleet(t *testing.T, cfg Config) *Fleet {
	t.Helper()
	f, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if f.store, err = openStore(cfg.StateDir); err != nil {
		t.Fatal(err)
	}
	f.loadClockNotes()
	return f
}

// start starts the table's device (its link tries a hall that is not
// there until the table shuts down).
func start(t *testing.T, tb *table) {
	t.Helper()
	tb.token = "a device token"
	if err := tb.start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(tb.shutdown)
}
