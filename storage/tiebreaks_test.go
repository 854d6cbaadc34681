package storage

import (
	"context"
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
