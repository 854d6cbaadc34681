package storage

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/chesshall/hallclock/rules"
)

// MustOpen opens a store on a new database file in tb.TempDir() (WAL needs
// a real file) and closes it when the test ends.
func MustOpen(tb testing.TB, opts ...Options) *Store {
	tb.Helper()
	var o Options
	if len(opts) > 0 {
		o = opts[0]
	}
	return mustOpenAt(tb, filepath.Join(tb.TempDir(), "hall.db"), o)
}

func mustOpenAt(tb testing.TB, path string, o Options) *Store {
	tb.Helper()
	s, err := Open(context.Background(), path, o)
	if err != nil {
		tb.Fatalf("Open(%q) = %v", path, err)
	}
	tb.Cleanup(func() {
		if err := s.Close(); err != nil {
			tb.Errorf("Close() = %v", err)
		}
	})
	return s
}

// mustWrite runs fn in a Write and fails the test if it does not commit.
func mustWrite(tb testing.TB, s *Store, fn func(tx *Tx) error) {
	tb.Helper()
	if err := s.Write(context.Background(), fn); err != nil {
		tb.Fatalf("Write() = %v", err)
	}
}

func mustConfig(tb testing.TB, tc string) rules.Config {
	tb.Helper()
	t, err := rules.ParseTimeControl(tc)
	if err != nil {
		tb.Fatalf("ParseTimeControl(%q) = %v", tc, err)
	}
	return rules.Config{Ruleset: rules.FIDE2023, TimeControl: t}
}

// mustBoards creates tournament "t1" and round "r1" if missing, and n new
// boards (b1, b2, ... after those already there), all at 90+30, in one Write.
func mustBoards(tb testing.TB, s *Store, n int) []string {
	tb.Helper()
	ctx := context.Background()
	cfg := mustConfig(tb, "90m+30s")
	_, err := s.Tournament(ctx, "t1")
	fresh := errors.Is(err, ErrNotFound)
	existing, err := s.Boards(ctx, "")
	if err != nil {
		tb.Fatal(err)
	}
	ids := make([]string, n)
	mustWrite(tb, s, func(tx *Tx) error {
		if fresh {
			if err := tx.CreateTournament(&TournamentRecord{ID: "t1", Name: "Hall Open", Config: cfg, TimeControl: "90m+30s"}); err != nil {
				return err
			}
			if err := tx.CreateRound(&RoundRecord{ID: "r1", TournamentID: "t1", Number: 1}); err != nil {
				return err
			}
		}
		for i := range ids {
			n := len(existing) + i + 1
			ids[i] = fmt.Sprintf("b%d", n)
			if err := tx.CreateBoard(&BoardRecord{ID: ids[i], RoundID: "r1", Number: n, Config: cfg, TimeControl: "90m+30s",
				White: PlayerRecord{Name: "White " + ids[i]}, Black: PlayerRecord{Name: "Black " + ids[i]}}); err != nil {
				return err
			}
		}
		return nil
	})
	return ids
}

// press returns a press event by side at t.
func press(side rules.Side, t int64) rules.Event {
	return rules.Event{Kind: rules.KindPress, Side: side, T: t}
}

// waitFor polls cond until it holds or five seconds pass.
func waitFor(tb testing.TB, what string, cond func() bool) {
	tb.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			tb.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// blockWriter runs a Write whose function waits until release is called,
// so that what is written meanwhile queues up behind it. It returns once
// the writer is inside that function.
func blockWriter(tb testing.TB, s *Store) (release func()) {
	tb.Helper()
	started, unblock, done := make(chan struct{}), make(chan struct{}), make(chan error, 1)
	go func() {
		done <- s.Write(context.Background(), func(tx *Tx) error {
			close(started)
			<-unblock
			return nil
		})
	}()
	<-started
	return func() {
		close(unblock)
		if err := <-done; err != nil {
			tb.Errorf("blocking Write() = %v", err)
		}
	}
}

// eventEqual compares event records, times by instant.
func eventEqual(a, b EventRecord) bool {
	if !a.Wall.Equal(b.Wall) {
		return false
	}
	a.Wall, b.Wall = time.Time{}, time.Time{}
	return reflect.DeepEqual(a, b)
}

func reflectEqual(a, b any) bool { return reflect.DeepEqual(a, b) }
