package storage

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chesshall/hallclock/internal/testkit/faultfs"
)

// On a full disk, commits fail and Health says so (the disk, not the
// writes); once space is freed, a probe commits and Health is nil again.
func TestHealthOnAFullDisk(t *testing.T) {
	t.Parallel()
	dir := faultfs.Small(t, 4<<20)
	s := mustOpenAt(t, filepath.Join(dir, "hall.db"), Options{})
	ctx := context.Background()
	if err := s.Probe(ctx, 0); err != nil {
		t.Fatalf("Probe before the fault = %v", err)
	}
	filler := faultfs.Fill(t, dir)
	var werr error
	for i := 0; werr == nil && i < 1000; i++ {
		werr = s.Write(ctx, func(tx *Tx) error {
			return tx.AddAudit(&AuditRecord{Actor: "test", What: fmt.Sprint(i) + strings.Repeat("x", 4000), Outcome: OutcomeApplied})
		})
	}
	if werr == nil {
		t.Fatal("writes still commit on a full disk")
	}
	if err := s.Health(); err == nil || !(strings.Contains(err.Error(), "space") || strings.Contains(err.Error(), "full")) {
		t.Errorf("Health on a full disk = %v, want it to say the disk is full", err)
	}
	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	if err := s.Probe(ctx, time.Hour); err != nil {
		t.Errorf("Probe after freeing space = %v, want nil", err)
	}
}

// A closed store is not healthy.
func TestHealthOfAClosedStore(t *testing.T) {
	t.Parallel()
	s, err := Open(context.Background(), filepath.Join(t.TempDir(), "hall.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Probe(context.Background(), 0); err != nil {
		t.Fatalf("Probe = %v", err)
	}
	s.Close()
	if err := s.Health(); !errors.Is(err, ErrClosed) {
		t.Errorf("Health after Close = %v, want ErrClosed", err)
	}
}
