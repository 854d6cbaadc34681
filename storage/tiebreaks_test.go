package storage

import (
	"context"
	"errors"
	"maps"
	"testing"
)

// A tournament's tie-break lists are kept with it, as its scoring is, and
// read back as written.
func TestTournamentTieBreaksKept(t *testing.T) {
	s := MustOpen(t)
	ctx := context.Background()
	sec := map[string]string{"Open A": "BH-C1,BH", "Juniors": "SB"}
	mustWrite(t, s, func(tx *Tx) error {
		if err := tx.CreateTournament(&TournamentRecord{ID: "t1", Name: "Open", TieBreaks: "BH-C1,BH,SB", SectionTieBreaks: sec}); err != nil {
			return err
		}
		return tx.CreateTournament(&TournamentRecord{ID: "t2", Name: "Blitz"})
	})
	got, err := s.Tournament(ctx, "t1")
	if err != nil {
		t.Fatal(err)
	}
	if got.TieBreaks != "BH-C1,BH,SB" || !maps.Equal(got.SectionTieBreaks, sec) {
		t.Fatalf("tie-breaks read back %q %v, want %q %v", got.TieBreaks, got.SectionTieBreaks, "BH-C1,BH,SB", sec)
	}
	if got, _ := s.Tournament(ctx, "t2"); got.TieBreaks != "" || got.SectionTieBreaks != nil {
		t.Fatalf("a tournament without tie-breaks read back %q %v", got.TieBreaks, got.SectionTieBreaks)
	}
}

// SetTieBreaks changes the tournament's list or a section's, keeps the
// rest of its configuration, and refuses an unknown tournament.
func TestSetTieBreaksKeepsTheRest(t *testing.T) {
	s := MustOpen(t)
	ctx := context.Background()
	cfg := mustConfig(t, "90m+30s")
	mustWrite(t, s, func(tx *Tx) error {
		return tx.CreateTournament(&TournamentRecord{ID: "t1", Name: "Open", Config: cfg, TimeControl: "90m+30s", TieBreaks: "BH"})
	})
	mustWrite(t, s, func(tx *Tx) error {
		if _, err := tx.SetTieBreaks("t1", "", "SB,WIN"); err != nil {
			return err
		}
		if _, err := tx.SetTieBreaks("t1", "A", "DE"); err != nil {
			return err
		}
		_, err := tx.SetTieBreaks("t1", "B", "KS")
		return err
	})
	mustWrite(t, s, func(tx *Tx) error { _, err := tx.SetTieBreaks("t1", "B", ""); return err })
	got, err := s.Tournament(ctx, "t1")
	if err != nil {
		t.Fatal(err)
	}
	if got.TieBreaks != "SB,WIN" || !maps.Equal(got.SectionTieBreaks, map[string]string{"A": "DE"}) || got.TimeControl != "90m+30s" ||
		!reflectEqual(got.Config, cfg) {
		t.Fatalf("after SetTieBreaks: %q %v, time control %q; want SB,WIN, A's DE, B's cleared, the configuration kept", got.TieBreaks, got.SectionTieBreaks, got.TimeControl)
	}
	err = s.Write(ctx, func(tx *Tx) error { _, err := tx.SetTieBreaks("nope", "", "BH"); return err })
	if !errors.Is(err, ErrNotFound) {
		t.Fatalf("an unknown tournament: %v, want ErrNotFound", err)
	}
}
