package storage

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// DeleteBoard removes a board that never had an event and has no pending
// command (a round imported again before it started). A board with
// events is ErrConflict: the log is never deleted. An unknown board is
// ErrNotFound. The audit log keeps what was said of it.
func (t *Tx) DeleteBoard(boardID string) error {
	exists, last, err := t.boardLog(boardID)
	if err != nil {
		return err
	}
	if !exists {
		return errorf(ErrNotFound, "board %s: no such board", boardID)
	}
	if last > 0 {
		return errorf(ErrConflict, "board %s has %d events: a board that started is never deleted", boardID, last)
	}
	var pending int
	if err := t.queryRow(`SELECT COUNT(*) FROM commands WHERE board_id = ? AND status = 'pending'`, boardID).Scan(&pending); err != nil {
		return fmt.Errorf("storage: board %s: %w", boardID, err)
	}
	if pending > 0 {
		return errorf(ErrConflict, "board %s has %d commands on their way to its clock", boardID, pending)
	}
	for _, q := range []string{
		`DELETE FROM snapshots WHERE board_id = ?`,
		`DELETE FROM commands WHERE board_id = ?`,
		`DELETE FROM boards WHERE id = ?`,
	} {
		if _, err := t.exec(q, boardID); err != nil {
			return fmt.Errorf("storage: delete board %s: %w", boardID, err)
		}
	}
	t.s.seqs.drop(false, boardID)
	return t.outbox(OutboxBoard, boardID, nil) // published as withdrawn
}

// PutRoundFile stores (or replaces) the file a round was imported from;
// a zero Imported is set to now. An unknown round is ErrNotFound.
func (t *Tx) PutRoundFile(f *RoundFile) error {
	imported := t.s.wallMs(f.Imported)
	_, err := t.exec(`INSERT INTO round_files (round_id, format, content, pairings, encoding, imported_ms) VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT (round_id) DO UPDATE SET format = excluded.format, content = excluded.content,
			pairings = excluded.pairings, encoding = excluded.encoding, imported_ms = excluded.imported_ms`,
		f.RoundID, f.Format, blob(f.Content), blob(f.Pairings), f.Encoding, imported)
	if constraint(err) == "foreign" {
		return errorf(ErrNotFound, "round %s: no such round", f.RoundID)
	}
	if err != nil {
		return fmt.Errorf("storage: round %s: file: %w", f.RoundID, err)
	}
	if f.Imported.IsZero() {
		f.Imported = fromMs(imported)
	}
	return nil
}

// SetByes replaces a round's byes. An unknown round is ErrNotFound.
func (t *Tx) SetByes(roundID string, byes []ByeRecord) error {
	if _, err := t.exec(`DELETE FROM round_byes WHERE round_id = ?`, roundID); err != nil {
		return fmt.Errorf("storage: round %s: byes: %w", roundID, err)
	}
	for _, b := range byes {
		switch b.Kind {
		case ByeHalf, ByeFull, ByePairing, ByeZero:
		default:
			return fmt.Errorf("storage: round %s: bye of %s: kind %q (want H, F, U or Z)", roundID, b.Player.Name, b.Kind)
		}
		js, err := json.Marshal(b.Player)
		if err != nil {
			return fmt.Errorf("storage: round %s: bye of %s: %w", roundID, b.Player.Name, err)
		}
		_, err = t.exec(`INSERT INTO round_byes (round_id, section, player_json, kind, points) VALUES (?, ?, ?, ?, ?)`,
			roundID, b.Section, string(js), b.Kind, b.Points)
		if constraint(err) == "foreign" {
			return errorf(ErrNotFound, "round %s: no such round", roundID)
		}
		if err != nil {
			return fmt.Errorf("storage: round %s: byes: %w", roundID, err)
		}
	}
	return nil
}

// SetPlanTable puts the device at a table of a venue's hall plan, taking
// it off any other table of that venue; "" clears the table.
func (t *Tx) SetPlanTable(venue string, table int, deviceID string) error {
	if table < 1 {
		return fmt.Errorf("storage: hall plan of %q: table %d (tables are numbered from 1)", venue, table)
	}
	if deviceID == "" {
		_, err := t.exec(`DELETE FROM hall_plan WHERE venue = ? AND table_no = ?`, venue, table)
		return err
	}
	if _, err := t.exec(`DELETE FROM hall_plan WHERE venue = ? AND device_id = ? AND table_no <> ?`, venue, deviceID, table); err != nil {
		return fmt.Errorf("storage: hall plan of %q: %w", venue, err)
	}
	_, err := t.exec(`INSERT INTO hall_plan (venue, table_no, device_id, updated_ms) VALUES (?, ?, ?, ?)
		ON CONFLICT (venue, table_no) DO UPDATE SET device_id = excluded.device_id, updated_ms = excluded.updated_ms`,
		venue, table, deviceID, t.s.wallMs(time.Time{}))
	if err != nil {
		return fmt.Errorf("storage: hall plan of %q: table %d: %w", venue, table, err)
	}
	return nil
}

// PlanDevice returns the device the venue's plan puts at a table, "" if none.
func (t *Tx) PlanDevice(venue string, table int) (string, error) {
	var dev string
	err := t.queryRow(`SELECT device_id FROM hall_plan WHERE venue = ? AND table_no = ?`, venue, table).Scan(&dev)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return dev, err
}

// ClearPlan removes every table of a venue's hall plan.
func (t *Tx) ClearPlan(venue string) error {
	_, err := t.exec(`DELETE FROM hall_plan WHERE venue = ?`, venue)
	return err
}

// blob returns b as SQLite stores a BLOB: never NULL, also when empty.
func blob(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}
