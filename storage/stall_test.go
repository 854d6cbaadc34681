package storage

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chesshall/hallclock/internal/testkit/faultfs"
)

// fakeNow is a wall clock that moves only when told.
type fakeNow struct {
	mu sync.Mutex
	t  time.Time
}

func (f *fakeNow) Now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.t
}

func (f *fakeNow) Advance(d time.Duration) {
	f.mu.Lock()
	f.t = f.t.Add(d)
	f.mu.Unlock()
}

// A disk that stops answering fails no write: the store sees it by how
// long its oldest write has waited. From StallAfter on Health says it is
// stalled and since when; once the commit returns, HealthChanged says so
// and Health is nil again. Nothing is lost: the write commits.
func TestHealthSaysWhenCommitsStall(t *testing.T) {
	t.Parallel()
	clock := &fakeNow{t: time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)}
	disk := faultfs.NewStall()
	s := MustOpen(t, Options{Now: clock.Now, StallAfter: 3 * time.Second, BeforeCommit: disk.Hook})
	t.Cleanup(disk.Thaw) // before the store closes: Close waits for the commit
	if err := s.Health(); err != nil {
		t.Fatalf("Health before the fault = %v", err)
	}
	if _, ok := s.StallIn(); ok {
		t.Fatal("StallIn says a write waits while the store is idle")
	}
	disk.Freeze()
	done := make(chan error, 1)
	go func() {
		done <- s.Write(context.Background(), func(tx *Tx) error {
			return tx.AddAudit(&AuditRecord{Actor: "test", What: "a press in a stall", Outcome: OutcomeApplied})
		})
	}()
	<-disk.Waiting()
	if in, ok := s.StallIn(); !ok || in != 3*time.Second {
		t.Errorf("StallIn with a write just queued = %v, %v; want 3s, true", in, ok)
	}
	clock.Advance(2999 * time.Millisecond)
	if err := s.Health(); err != nil {
		t.Errorf("Health after 2.999 s of waiting = %v, want nil (StallAfter is 3 s)", err)
	}
	clock.Advance(time.Millisecond)
	err := s.Health()
	if !errors.Is(err, ErrStalled) || !strings.Contains(err.Error(), "waited 3s") || !strings.Contains(err.Error(), "10:00:00") {
		t.Errorf("Health after 3 s of waiting = %v; want ErrStalled saying how long and since when", err)
	}
	if in, ok := s.StallIn(); !ok || in > 0 {
		t.Errorf("StallIn while stalled = %v, %v; want <= 0, true", in, ok)
	}
	select {
	case <-s.HealthChanged():
	default:
	}
	disk.Thaw()
	if err := <-done; err != nil {
		t.Fatalf("the write after the stall = %v, want it committed", err)
	}
	select { // the stall ended
	case <-s.HealthChanged():
	case <-time.After(10 * time.Second):
		t.Fatal("HealthChanged did not say that the stall ended")
	}
	if err := s.Health(); err != nil {
		t.Errorf("Health after the commit returned = %v, want nil", err)
	}
	if _, ok := s.StallIn(); ok {
		t.Error("StallIn says a write waits after the stall")
	}
}

// The real fault: the store's file system frozen (fsfreeze) under a
// write. The commit waits in the kernel, failing nothing; Health says the
// store is stalled once the write has waited StallAfter, and once the
// file system is thawed the write commits and Health is nil again.
func TestHealthOnAFrozenFileSystem(t *testing.T) {
	t.Parallel()
	fz := faultfs.Freezable(t, 32<<20)
	s := mustOpenAt(t, filepath.Join(fz.Dir, "hall.db"), Options{StallAfter: 200 * time.Millisecond})
	t.Cleanup(fz.Thaw) // before the store closes: Close waits for the commit
	ctx := context.Background()
	write := func(what string) error {
		return s.Write(ctx, func(tx *Tx) error {
			return tx.AddAudit(&AuditRecord{Actor: "test", What: what, Outcome: OutcomeApplied})
		})
	}
	if err := write("before"); err != nil {
		t.Fatal(err)
	}
	if err := s.Health(); err != nil {
		t.Fatalf("Health before the freeze = %v", err)
	}
	fz.Freeze()
	done := make(chan error, 1)
	go func() { done <- write("in the freeze") }()
	waitFor(t, "Health to say the commits stalled", func() bool { return errors.Is(s.Health(), ErrStalled) })
	select {
	case err := <-done:
		t.Fatalf("the write returned %v on a frozen file system", err)
	default:
	}
	fz.Thaw()
	if err := <-done; err != nil {
		t.Fatalf("the write after the thaw = %v, want it committed", err)
	}
	if err := s.Health(); err != nil {
		t.Errorf("Health after the thaw = %v, want nil", err)
	}
}
