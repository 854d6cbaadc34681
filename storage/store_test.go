package storage

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/chesshall/hallclock/internal/ident"
	"github.com/chesshall/hallclock/rules"
)

func TestOpenPragmasAndMigrations(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "sub", "dir", "hall.db") // the directory is created
	s, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatalf("Open() = %v", err)
	}
	files, err := fs.Glob(migrations, "migrations/*.sql")
	if err != nil || len(files) == 0 {
		t.Fatalf("embedded migrations: %v, %v", files, err)
	}
	if s.migrated != len(files) {
		t.Errorf("first Open applied %d migrations, want every one embedded (%d)", s.migrated, len(files))
	}
	for _, c := range []struct {
		pragma string
		want   string
	}{
		{"journal_mode", "wal"},
		{"synchronous", "2"}, // FULL
		{"foreign_keys", "1"},
		{"busy_timeout", "5000"},
	} {
		var got string
		if err := s.wdb.QueryRowContext(ctx, "PRAGMA "+c.pragma).Scan(&got); err != nil {
			t.Fatalf("PRAGMA %s: %v", c.pragma, err)
		}
		if got != c.want {
			t.Errorf("write connection: PRAGMA %s = %q, want %q", c.pragma, got, c.want)
		}
	}
	// The read pool cannot write.
	if _, err := s.rdb.ExecContext(ctx, `INSERT INTO devices (id, last_seen_ms) VALUES ('x', 0)`); err == nil {
		t.Errorf("insert through the read pool succeeded, want a read-only error")
	}
	mustBoards(t, s, 1)
	var versions int
	if err := s.rdb.QueryRowContext(ctx, `SELECT COUNT(*) FROM goose_db_version`).Scan(&versions); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("Close() = %v", err)
	}

	s2 := mustOpenAt(t, path, Options{})
	if s2.migrated != 0 {
		t.Errorf("reopening applied %d migrations, want 0", s2.migrated)
	}
	var versions2 int
	if err := s2.rdb.QueryRowContext(ctx, `SELECT COUNT(*) FROM goose_db_version`).Scan(&versions2); err != nil {
		t.Fatal(err)
	}
	if versions2 != versions {
		t.Errorf("goose_db_version has %d rows after reopening, want %d", versions2, versions)
	}
	if _, err := s2.Board(ctx, "b1"); err != nil {
		t.Errorf("Board(b1) after reopening = %v", err)
	}
}

func TestOpenRefusesNewerSchema(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "hall.db")
	s, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.wdb.ExecContext(ctx, `INSERT INTO goose_db_version (version_id, is_applied) VALUES (999, 1)`); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if s, err := Open(ctx, path, Options{}); err == nil || !strings.Contains(err.Error(), "newer") {
		t.Errorf("Open(database of schema 999) = %v, want an error saying it is newer", err)
		if err == nil {
			s.Close()
		}
	}
}

func TestOpenPathWithURICharacters(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "a?b#c%d e", "hall.db")
	s := mustOpenAt(t, path, Options{})
	mustBoards(t, s, 1)
	if _, err := os.Stat(path); err != nil {
		t.Errorf("database not at %q: %v", path, err)
	}
}

func TestRecordsRoundTrip(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	now := time.Date(2026, 3, 14, 15, 9, 26, 535_000_000, time.UTC)
	s := MustOpen(t, Options{Now: func() time.Time { return now }})
	cfg := mustConfig(t, "40/90m+30s, 30m+30s")
	cfg.Regulations = rules.Regulations{DefaultTimeMs: rules.Ms(30 * 60_000), QuickplayFinish: true,
		Scoring: rules.Scoring{Win: 3, Draw: 1}}
	rcfg := mustConfig(t, "G/60;d5")

	tour := TournamentRecord{ID: "t1", Name: "Hall Open", Config: cfg, TimeControl: "40/90m+30s, 30m+30s"}
	round := RoundRecord{ID: "r1", TournamentID: "t1", Number: 1}
	round2 := RoundRecord{ID: "r2", TournamentID: "t1", Number: 2, Config: &rcfg, TimeControl: "G/60;d5"}
	board := BoardRecord{ID: "b1", RoundID: "r1", Number: 1, Section: "A",
		White:  PlayerRecord{Name: "Carlsen, Magnus", FideID: "1503014", Rating: 2830},
		Black:  PlayerRecord{Name: "Ding, Liren", Rating: 2780},
		Config: cfg, TimeControl: "40/90m+30s, 30m+30s", DeviceID: "clk-1", Source: SourceDevice}
	cmd := CommandRecord{ID: "c1", BoardID: "b1", Action: json.RawMessage(`{"do":"add_time","side":"white","ms":120000}`),
		Reason: "7.5.5", IssuedBy: "arbiter-1"}
	tok := TokenRecord{ID: "k1", Hash: ident.HashSecret("s3cret"), Role: "arbiter", Label: "Deputy", Sections: []string{"A"}}
	dev := DeviceRecord{ID: "clk-1", Firmware: "1.2.3", BatteryPct: 87, DriftPPM: -3.5}
	audit := AuditRecord{BoardID: "b1", Actor: "arbiter-1", What: "add_time", Reason: "7.5.5", Outcome: OutcomePending,
		Action: json.RawMessage(`{"ms":120000}`), CommandID: "c1"}

	mustWrite(t, s, func(tx *Tx) error {
		return errors.Join(tx.CreateTournament(&tour), tx.CreateRound(&round), tx.CreateRound(&round2),
			tx.CreateBoard(&board), tx.PutCommand(&cmd), tx.PutToken(&tok), tx.TouchDevice(dev), tx.AddAudit(&audit))
	})
	dev.LastSeen = now.Truncate(time.Millisecond)

	check := func(what string, got, want any, err error) {
		t.Helper()
		if err != nil {
			t.Errorf("%s: %v", what, err)
		} else if !reflect.DeepEqual(got, want) {
			t.Errorf("%s =\n%+v\nwant\n%+v", what, got, want)
		}
	}
	gotT, err := s.Tournament(ctx, "t1")
	check("Tournament(t1)", gotT, tour, err)
	gotR, err := s.Round(ctx, "r2")
	check("Round(r2)", gotR, round2, err)
	gotRs, err := s.Rounds(ctx, "t1")
	check("Rounds(t1)", gotRs, []RoundRecord{round, round2}, err)
	gotB, err := s.Board(ctx, "b1")
	check("Board(b1)", gotB, board, err)
	gotB, err = s.BoardByDevice(ctx, "clk-1")
	check("BoardByDevice(clk-1)", gotB, board, err)
	gotC, err := s.PendingCommands(ctx, "")
	check("PendingCommands()", gotC, []CommandRecord{cmd}, err)
	gotK, err := s.TokenByHash(ctx, ident.HashSecret("s3cret"))
	check("TokenByHash()", gotK, tok, err)
	gotD, err := s.Devices(ctx)
	check("Devices()", gotD, []DeviceRecord{dev}, err)
	gotA, err := s.Audit(ctx, "b1", 0, 0)
	check("Audit(b1)", gotA, []AuditRecord{audit}, err)
	if tour.Created != now.Truncate(time.Millisecond) || audit.Seq != 1 {
		t.Errorf("Created = %v, audit Seq = %d; want %v, 1", tour.Created, audit.Seq, now)
	}

	// Resolving, revoking, reassigning.
	mustWrite(t, s, func(tx *Tx) error {
		return errors.Join(tx.ResolveCommand("c1", CommandApplied, "at 5400000"), tx.RevokeToken("k1", time.Time{}),
			tx.SetBoardSource("b1", SourceVirtual), tx.SetBoardDevice("b1", ""))
	})
	if c, err := s.Command(ctx, "c1"); err != nil || c.Status != CommandApplied || c.Message != "at 5400000" || c.Resolved.IsZero() {
		t.Errorf("Command(c1) = %+v, %v; want applied with its message", c, err)
	}
	if k, err := s.TokenByHash(ctx, tok.Hash); err != nil || k.Active() {
		t.Errorf("TokenByHash() after RevokeToken = %+v, %v; want revoked", k, err)
	}
	if b, err := s.Board(ctx, "b1"); err != nil || b.Source != SourceVirtual || b.DeviceID != "" {
		t.Errorf("Board(b1) = %+v, %v; want virtual with no device", b, err)
	}
	if c, _ := s.PendingCommands(ctx, "b1"); len(c) != 0 {
		t.Errorf("PendingCommands(b1) = %v, want none", c)
	}
}

func TestSetBoardDeviceMovesTheDevice(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := MustOpen(t)
	mustBoards(t, s, 2)
	mustWrite(t, s, func(tx *Tx) error { return tx.SetBoardDevice("b1", "clk-9") })
	mustWrite(t, s, func(tx *Tx) error { return tx.SetBoardDevice("b2", "clk-9") })
	b1, _ := s.Board(ctx, "b1")
	b2, _ := s.Board(ctx, "b2")
	if b1.DeviceID != "" || b2.DeviceID != "clk-9" {
		t.Errorf("after moving clk-9 to b2: b1 has %q, b2 has %q; want \"\", clk-9", b1.DeviceID, b2.DeviceID)
	}
}

func TestErrors(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := MustOpen(t)
	mustBoards(t, s, 1)
	cfg := mustConfig(t, "90m+30s")
	for _, c := range []struct {
		name string
		fn   func(tx *Tx) error
		want error
		msg  string
	}{
		{"duplicate tournament", func(tx *Tx) error { return tx.CreateTournament(&TournamentRecord{ID: "t1", Config: cfg}) }, ErrDuplicate, "tournament t1: already exists"},
		{"round of unknown tournament", func(tx *Tx) error { return tx.CreateRound(&RoundRecord{ID: "r9", TournamentID: "t9", Number: 1}) }, ErrNotFound, "t9"},
		{"duplicate round number", func(tx *Tx) error { return tx.CreateRound(&RoundRecord{ID: "r9", TournamentID: "t1", Number: 1}) }, ErrDuplicate, "round 1"},
		{"board of unknown round", func(tx *Tx) error { return tx.CreateBoard(&BoardRecord{ID: "b9", RoundID: "r9", Config: cfg}) }, ErrNotFound, "r9"},
		{"board with an invalid config", func(tx *Tx) error { return tx.CreateBoard(&BoardRecord{ID: "b9", RoundID: "r1"}) }, rules.ErrInvalid, "b9"},
		{"event of unknown board", func(tx *Tx) error {
			return tx.AppendEvent(&EventRecord{BoardID: "b9", BoardSeq: 1, Event: press(rules.White, 0)})
		}, ErrNotFound, "board b9: no such board"},
		{"event out of sequence", func(tx *Tx) error {
			return tx.AppendEvent(&EventRecord{BoardID: "b1", BoardSeq: 7, Event: press(rules.White, 0)})
		}, ErrConflict, "board b1: event 7 appended after 0"},
		{"snapshot past the log", func(tx *Tx) error {
			st, _ := rules.NewState(cfg)
			return tx.PutSnapshot("b1", 1, st)
		}, ErrConflict, "log ends at event 0"},
		{"command for unknown board", func(tx *Tx) error { return tx.PutCommand(&CommandRecord{ID: "c9", BoardID: "b9"}) }, ErrNotFound, "b9"},
		{"resolve unknown command", func(tx *Tx) error { return tx.ResolveCommand("c9", CommandApplied, "") }, ErrNotFound, "c9"},
		{"revoke unknown token", func(tx *Tx) error { return tx.RevokeToken("k9", time.Time{}) }, ErrNotFound, "k9"},
		{"source of unknown board", func(tx *Tx) error { return tx.SetBoardSource("b9", SourceVirtual) }, ErrNotFound, "b9"},
		{"device of unknown board", func(tx *Tx) error { return tx.SetBoardDevice("b9", "clk-1") }, ErrNotFound, "b9"},
	} {
		err := s.Write(ctx, c.fn)
		if !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: Write() = %v, want %v saying %q", c.name, err, c.want, c.msg)
		}
	}
	// Resolving twice, and a duplicate token hash.
	mustWrite(t, s, func(tx *Tx) error {
		return errors.Join(tx.PutCommand(&CommandRecord{ID: "c1", BoardID: "b1", Action: json.RawMessage(`{}`)}),
			tx.PutToken(&TokenRecord{ID: "k1", Hash: ident.HashSecret("x"), Role: "device"}))
	})
	mustWrite(t, s, func(tx *Tx) error { return tx.ResolveCommand("c1", CommandRefused, "clock not paused") })
	if err := s.Write(ctx, func(tx *Tx) error { return tx.ResolveCommand("c1", CommandApplied, "") }); !errors.Is(err, ErrConflict) {
		t.Errorf("resolving a refused command: %v, want ErrConflict", err)
	}
	if err := s.Write(ctx, func(tx *Tx) error { return tx.PutToken(&TokenRecord{ID: "k2", Hash: ident.HashSecret("x")}) }); !errors.Is(err, ErrDuplicate) {
		t.Errorf("a second token with the same secret: %v, want ErrDuplicate", err)
	}
	for _, c := range []struct {
		name string
		err  error
	}{
		{"Board", func() error { _, err := s.Board(ctx, "b9"); return err }()},
		{"Round", func() error { _, err := s.Round(ctx, "r9"); return err }()},
		{"Tournament", func() error { _, err := s.Tournament(ctx, "t9"); return err }()},
		{"Events", func() error { _, err := s.Events(ctx, "b9", 0); return err }()},
		{"Snapshot", func() error { _, _, err := s.Snapshot(ctx, "b1"); return err }()},
		{"Replay", func() error { _, _, err := s.Replay(ctx, "b9"); return err }()},
		{"TokenByHash", func() error { _, err := s.TokenByHash(ctx, "00"); return err }()},
		{"Command", func() error { _, err := s.Command(ctx, "c9"); return err }()},
	} {
		if !errors.Is(c.err, ErrNotFound) {
			t.Errorf("%s(unknown) = %v, want ErrNotFound", c.name, c.err)
		}
	}
}
