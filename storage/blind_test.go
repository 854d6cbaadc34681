package storage

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/chesshall/hallclock/internal/ident"
	"github.com/chesshall/hallclock/rules"
)

// A board set to be played under the rules for visually disabled players
// after its game began (FIDE 2018 Appendix D.1: the organiser adapts the
// rules for the players) replays, from its snapshot or from scratch, to
// the state of its log with the new setting: the snapshot taken before is
// not trusted for it.
func TestSetBoardBlindAfterASnapshot(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := MustOpen(t)
	mustBoards(t, s, 1)
	evs := []rules.Event{{Kind: rules.KindStart}, press(rules.White, 2_000), press(rules.Black, 9_000)}
	cfg := mustConfig(t, "90m+30s")
	before, err := rules.Fold(cfg, evs)
	if err != nil {
		t.Fatal(err)
	}
	mustWrite(t, s, func(tx *Tx) error {
		for i, e := range evs {
			if err := tx.AppendEvent(&EventRecord{BoardID: "b1", BoardSeq: uint64(i + 1), Event: e}); err != nil {
				return err
			}
		}
		return tx.PutSnapshot("b1", 3, before)
	})
	blind := rules.BlindPlay{}
	blind.Players[rules.Black] = rules.BlindPlayer{VisuallyDisabled: true, Assistant: true, Language: "de"}
	mustWrite(t, s, func(tx *Tx) error { return tx.SetBoardBlind("b1", blind) })

	cfg.Blind = blind
	want, err := rules.Fold(cfg, evs)
	if err != nil {
		t.Fatal(err)
	}
	if b, err := s.Board(ctx, "b1"); err != nil || b.Config.Blind != blind || b.Config.TimeControl.String() != cfg.TimeControl.String() {
		t.Errorf("Board(b1) = %+v, %v; want the same configuration with Blind %+v", b.Config, err, blind)
	}
	for name, replay := range map[string]func(context.Context, string) (rules.State, uint64, error){
		"Replay": s.Replay, "ReplayFromScratch": s.ReplayFromScratch,
	} {
		got, n, err := replay(ctx, "b1")
		if err != nil || n != 3 || !reflect.DeepEqual(got, want) {
			t.Errorf("%s(b1) = %+v, %d, %v; want %+v, 3", name, got, n, err, want)
		}
	}
}

// What the rules refuse is not stored: an assistant on a board where
// nobody is visually disabled (2018 D.2.10 comes with D.1). An unknown
// board is ErrNotFound.
func TestSetBoardBlindRefusals(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := MustOpen(t)
	mustBoards(t, s, 1)
	var assistantOnly rules.BlindPlay
	assistantOnly.Players[rules.White].Assistant = true
	err := s.Write(ctx, func(tx *Tx) error { return tx.SetBoardBlind("b1", assistantOnly) })
	if !errors.Is(err, rules.ErrInvalid) {
		t.Errorf("SetBoardBlind(an assistant, nobody visually disabled) = %v, want the rules' invalid input", err)
	}
	if b, _ := s.Board(ctx, "b1"); b.Config.Blind != (rules.BlindPlay{}) {
		t.Errorf("after a refused setting the board has %+v, want none", b.Config.Blind)
	}
	err = s.Write(ctx, func(tx *Tx) error { return tx.SetBoardBlind("b9", rules.BlindPlay{}) })
	if !errors.Is(err, ErrNotFound) {
		t.Errorf("SetBoardBlind(b9) = %v, want ErrNotFound", err)
	}
}

// An assistant's token keeps its board and side.
func TestAssistantTokenRoundTrip(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := MustOpen(t)
	tok := TokenRecord{ID: "k1", Hash: ident.HashSecret("s3cret"), Role: "assistant", Label: "Maria", BoardID: "b1", Side: "black"}
	mustWrite(t, s, func(tx *Tx) error { return tx.PutToken(&tok) })
	got, err := s.TokenByHash(ctx, tok.Hash)
	if err != nil || !reflect.DeepEqual(got, tok) {
		t.Errorf("TokenByHash() = %+v, %v; want %+v", got, err, tok)
	}
	bad := TokenRecord{ID: "k2", Hash: ident.HashSecret("other"), Role: "assistant", BoardID: "b1", Side: "both"}
	if err := s.Write(ctx, func(tx *Tx) error { return tx.PutToken(&bad) }); err == nil {
		t.Errorf("PutToken(side %q) = nil, want the schema's refusal", bad.Side)
	}
}
