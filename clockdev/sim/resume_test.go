package sim_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/chesshall/hallclock/clockdev/sim"
	"github.com/chesshall/hallclock/internal/testkit/longtest"
)

// Stopping the fleet and the hall mid-round and starting both again on the
// same database and StateDir continues the same hall: the devices come
// back with their outboxes, the players pick up every unfinished game
// where the clocks left it, and the next round follows.
func TestResumeAfterRestart(t *testing.T) {
	longtest.Skip(t)
	t.Parallel() // they wait on the scaled clock more than they compute
	const boards = 6
	h := startHall(t, 60)
	cfg := h.config(sim.RoundSpec{TimeControl: "60+1", Boards: boards}, sim.RoundSpec{TimeControl: "60+1", Boards: boards})
	cfg.StateDir = t.TempDir()
	cfg.Chaos = sim.Chaos{Reboot: 0.01, Cut: 0.01}

	f1, err := sim.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	watching := make(chan struct{})
	go func() {
		// Stop in the middle of the first round. (The watcher reads the
		// hall's figures: it is done before the hall restarts.)
		defer close(watching)
		for ctx.Err() == nil && f1.Summary().Presses < boards*30 {
			time.Sleep(10 * time.Millisecond)
		}
		cancel()
	}()
	sum1, err := f1.Run(ctx)
	cancel()
	<-watching
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("first run: %v, want it cancelled", err)
	}
	t.Logf("first run, stopped:\n%v", sum1)
	stopped := time.Now()
	h.Restart(t)

	sum2 := h.run(t, cfg, 2*time.Minute)
	rep := h.check(t)
	t.Logf("%v", rep)
	if len(rep.boards) != 2*boards || sum2.Rounds != 2 || sum2.Games != 2*boards {
		t.Errorf("the hall has %d boards, the second run finished %d rounds and %d games; want %d boards in 2 rounds", len(rep.boards), sum2.Rounds, sum2.Games, 2*boards)
	}
	// Games of the first round went on across the restart, on the same
	// devices, which then played the second round.
	across := 0
	devices := map[string]int{}
	for _, b := range rep.boards {
		evs := rep.events[b.ID]
		for _, e := range evs {
			if e.DeviceID != "" {
				devices[e.DeviceID]++
			}
		}
		if len(evs) > 0 && evs[0].Wall.Before(stopped) && evs[len(evs)-1].Wall.After(stopped) {
			across++
		}
	}
	if across == 0 {
		t.Errorf("no game went on across the restart")
	}
	if len(devices) != boards {
		t.Errorf("%d devices played the %d boards of two rounds, want the same %d", len(devices), 2*boards, boards)
	}
}

// With Loop the hall stays alive: after the last round, the next one is
// created and played.
func TestLoopCreatesRounds(t *testing.T) {
	longtest.Skip(t)
	t.Parallel() // they wait on the scaled clock more than they compute
	h := startHall(t, 200)
	cfg := h.config(sim.RoundSpec{TimeControl: "60+1", Boards: 3})
	cfg.Loop = true
	f, err := sim.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	go func() {
		for f.Summary().Rounds < 3 && ctx.Err() == nil {
			time.Sleep(10 * time.Millisecond)
		}
		cancel()
	}()
	sum, err := f.Run(ctx)
	t.Logf("%v", sum)
	if !errors.Is(err, context.Canceled) || sum.Rounds < 3 {
		t.Fatalf("Run = %v after %d rounds; want it going on until cancelled, past 3 rounds", err, sum.Rounds)
	}
	rounds, err := h.Store.Rounds(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	if len(rounds) < 3 {
		t.Errorf("the hall has %d rounds, want at least 3", len(rounds))
	}
}
