package storage

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/chesshall/hallclock/rules"
)

// A board that never had an event can be deleted (a round imported again
// before it started); one with events never: the log is the truth.
func TestDeleteBoard(t *testing.T) {
	t.Parallel()
	s := MustOpen(t)
	ids := mustBoards(t, s, 2)
	mustWrite(t, s, func(tx *Tx) error {
		return tx.AppendEvent(&EventRecord{BoardID: ids[0], BoardSeq: 1, Event: rules.Event{Kind: rules.KindStart}})
	})
	err := s.Write(context.Background(), func(tx *Tx) error { return tx.DeleteBoard(ids[0]) })
	if !errors.Is(err, ErrConflict) {
		t.Errorf("DeleteBoard of a started board = %v, want ErrConflict", err)
	}
	mustWrite(t, s, func(tx *Tx) error { return tx.DeleteBoard(ids[1]) })
	if _, err := s.Board(context.Background(), ids[1]); !errors.Is(err, ErrNotFound) {
		t.Errorf("Board after DeleteBoard = %v, want ErrNotFound", err)
	}
	if _, err := s.Board(context.Background(), ids[0]); err != nil {
		t.Errorf("the started board is gone: %v", err)
	}
}

// The hall plan keeps one device per table and one table per device.
func TestHallPlan(t *testing.T) {
	t.Parallel()
	s := MustOpen(t)
	ctx := context.Background()
	mustWrite(t, s, func(tx *Tx) error {
		for i, d := range []string{"CLK-1", "CLK-2", "CLK-3"} {
			if err := tx.SetPlanTable("Main hall", i+1, d); err != nil {
				return err
			}
		}
		if err := tx.SetPlanTable("Annex", 1, "CLK-1"); err != nil { // another venue: its own plan
			return err
		}
		return tx.SetPlanTable("Main hall", 2, "CLK-3") // CLK-3 replaces CLK-2 and leaves table 3
	})
	plan, err := s.Plan(ctx, "Main hall")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range plan {
		got = append(got, e.DeviceID)
	}
	if len(plan) != 2 || plan[0].Table != 1 || got[0] != "CLK-1" || plan[1].Table != 2 || got[1] != "CLK-3" {
		t.Errorf("plan = %+v, want table 1 CLK-1, table 2 CLK-3", plan)
	}
	mustWrite(t, s, func(tx *Tx) error { return tx.SetPlanTable("Main hall", 1, "") })
	if plan, _ := s.Plan(ctx, "Main hall"); len(plan) != 1 {
		t.Errorf("after clearing table 1: %+v", plan)
	}
	if annex, _ := s.Plan(ctx, "Annex"); len(annex) != 1 || annex[0].DeviceID != "CLK-1" {
		t.Errorf("annex plan = %+v", annex)
	}
}

// A round's file, byes, and its boards' tables and players are kept.
func TestRoundFileByesAndTables(t *testing.T) {
	t.Parallel()
	s := MustOpen(t)
	ctx := context.Background()
	mustBoards(t, s, 0)
	cfg := mustConfig(t, "90+30")
	white := PlayerRecord{Name: "Berzins, Arturs", FideID: "11604514", Rating: 2587, StartRank: 1, Title: "GM", Federation: "LAT"}
	// A TRF as a Windows program in Poland writes it: "Šťastný" and
	// "Łukasiewicz" in Windows-1250 (bytes that are no UTF-8), CR-only
	// line ends; kept byte for byte.
	content := []byte("012 Open\r001    1 m    \x8a\x9dastn\xfd, Jan\r001    2 m    \xa3ukasiewicz, Ewa\r")
	zero := 0.0
	mustWrite(t, s, func(tx *Tx) error {
		if err := tx.CreateBoard(&BoardRecord{ID: "b1", RoundID: "r1", Number: 1, Table: 12, Config: cfg, White: white, Black: PlayerRecord{Name: "B"}}); err != nil {
			return err
		}
		if err := tx.PutRoundFile(&RoundFile{RoundID: "r1", Format: "trf", Content: content, Pairings: []byte("1\n1 2\n"), Encoding: "windows-1250"}); err != nil {
			return err
		}
		return tx.SetByes("r1", []ByeRecord{{RoundID: "r1", Player: PlayerRecord{Name: "C", StartRank: 3}, Kind: ByeHalf},
			{RoundID: "r1", Player: PlayerRecord{Name: "E", StartRank: 5}, Kind: ByePairing, Points: &zero}})
	})
	b, err := s.Board(ctx, "b1")
	if err != nil || b.Table != 12 || b.White != white {
		t.Errorf("board = %+v, %v", b, err)
	}
	f, err := s.RoundFile(ctx, "r1")
	if err != nil || f.Format != "trf" || string(f.Pairings) != "1\n1 2\n" || f.Imported.IsZero() || f.Encoding != "windows-1250" ||
		!bytes.Equal(f.Content, content) {
		t.Errorf("round file = %+v, %v; want the content %q as given", f, err, content)
	}
	byes, err := s.Byes(ctx, "r1")
	if err != nil || len(byes) != 2 || byes[0].Kind != ByeHalf || byes[0].Player.StartRank != 3 || byes[0].Points != nil ||
		byes[1].Points == nil || *byes[1].Points != 0 {
		t.Errorf("byes = %+v, %v; want a half-point bye scored by the round, a pairing-allocated one worth 0", byes, err)
	}
	err = s.Write(ctx, func(tx *Tx) error { return tx.SetByes("r1", []ByeRecord{{Player: PlayerRecord{Name: "D"}, Kind: "X"}}) })
	if err == nil {
		t.Error("a bye of kind X was stored")
	}
	if _, err := s.RoundFile(ctx, "r2"); !errors.Is(err, ErrNotFound) {
		t.Errorf("RoundFile of a round without a file = %v, want ErrNotFound", err)
	}
}

// A round's broadcast settings are kept, replaced, and refused for a
// round that does not exist.
func TestRoundBroadcast(t *testing.T) {
	t.Parallel()
	s := MustOpen(t)
	ctx := context.Background()
	mustBoards(t, s, 0)
	mustWrite(t, s, func(tx *Tx) error {
		return tx.PutRoundBroadcast(&RoundBroadcast{RoundID: "r1", Public: true, RelayURL: "https://relay.example/push", RelayToken: "lip_x"})
	})
	mustWrite(t, s, func(tx *Tx) error {
		return tx.PutRoundBroadcast(&RoundBroadcast{RoundID: "r1", Public: false, RelayURL: "https://relay.example/push2", RelayToken: "lip_y"})
	})
	got, err := s.RoundBroadcasts(ctx)
	if err != nil || len(got) != 1 || got[0].Public || got[0].RelayURL != "https://relay.example/push2" || got[0].RelayToken != "lip_y" || got[0].Updated.IsZero() {
		t.Errorf("RoundBroadcasts = %+v, %v", got, err)
	}
	err = s.Write(ctx, func(tx *Tx) error { return tx.PutRoundBroadcast(&RoundBroadcast{RoundID: "nope", Public: true}) })
	if !errors.Is(err, ErrNotFound) {
		t.Errorf("PutRoundBroadcast of an unknown round = %v, want ErrNotFound", err)
	}
}
