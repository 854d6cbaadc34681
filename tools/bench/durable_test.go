package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/chesshall/hallclock/server/devlink"
)

// The durable echo acknowledges a press only once it is in the file, and
// commits the presses of many clocks together.
func TestDurableLogGroupsCommits(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log")
	l, err := openDurable(path, 20*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	const clocks, presses = 50, 4
	var wg sync.WaitGroup
	for c := range clocks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			done := make(chan error, 1)
			dev := fmt.Sprintf("dev-%d", c)
			for seq := range uint64(presses) {
				if err := l.append(dev, seq+1, int64(seq)*1000, done); err != nil {
					t.Error(err)
					return
				}
				// Acknowledged: it is in the file.
				b, err := os.ReadFile(path)
				if err != nil {
					t.Error(err)
					return
				}
				if rec := fmt.Sprintf("%s %d %d\n", dev, seq+1, int64(seq)*1000); !bytes.Contains(b, []byte(rec)) {
					t.Errorf("acknowledged %q is not in the file", rec)
				}
			}
		}()
	}
	wg.Wait()
	b, _ := os.ReadFile(path)
	if n := bytes.Count(b, []byte("\n")); n != clocks*presses {
		t.Errorf("%d records in the file, want %d", n, clocks*presses)
	}
	if n := l.commits.Load(); n <= 0 || n >= clocks*presses/2 {
		t.Errorf("%d commits for %d presses: want them grouped", n, clocks*presses)
	}
}

// -heartbeat asks the hall for the same interval as the echo servers,
// through its -heartbeat-budget.
func TestHallBudgetGivesTheInterval(t *testing.T) {
	for _, c := range []struct {
		clocks int
		every  time.Duration
	}{{10000, time.Second}, {10000, 2 * time.Second}, {10000, 3 * time.Second}, {10000, 4 * time.Second}, {10000, 5 * time.Second},
		{200, time.Second}, {200, 4 * time.Second}, {2000, 2500 * time.Millisecond}, {7000, 3 * time.Second}} {
		var budget int
		fmt.Sscan(hallBudget(c.clocks, c.every), &budget)
		if budget == 0 {
			budget = -1 // the hall's "no limit"
		}
		if got := devlink.HeartbeatEvery(c.clocks, budget, time.Second); got != c.every {
			t.Errorf("%d clocks every %s: budget %s gives %s", c.clocks, c.every, hallBudget(c.clocks, c.every), got)
		}
	}
}
