package storage

import (
	"context"
	"encoding/json"
	"fmt"
)

// RoundFile returns the file a round was imported from, or ErrNotFound
// for a round set up by hand.
func (s *Store) RoundFile(ctx context.Context, roundID string) (RoundFile, error) {
	db, err := s.reader()
	if err != nil {
		return RoundFile{}, err
	}
	return queryOne(ctx, db, func(sc scanner) (RoundFile, error) {
		var (
			f  RoundFile
			ms int64
		)
		if err := sc.Scan(&f.RoundID, &f.Format, &f.Content, &f.Pairings, &f.Encoding, &ms); err != nil {
			return f, scanErr("round file", err)
		}
		f.Imported = fromMs(ms)
		return f, nil
	}, "round "+roundID+": not imported from a file",
		`SELECT round_id, format, content, pairings, encoding, imported_ms FROM round_files WHERE round_id = ?`, roundID)
}

// Byes returns a round's byes in the order stored, or every round's if
// roundID is "".
func (s *Store) Byes(ctx context.Context, roundID string) ([]ByeRecord, error) {
	db, err := s.reader()
	if err != nil {
		return nil, err
	}
	return queryAll(ctx, db, func(sc scanner) (ByeRecord, error) {
		var (
			b  ByeRecord
			js string
		)
		if err := sc.Scan(&b.RoundID, &b.Section, &js, &b.Kind, &b.Points); err != nil {
			return b, scanErr("bye", err)
		}
		if err := json.Unmarshal([]byte(js), &b.Player); err != nil {
			return b, fmt.Errorf("storage: round %s: bye: %w", b.RoundID, err)
		}
		return b, nil
	}, `SELECT round_id, section, player_json, kind, points FROM round_byes WHERE ?1 = '' OR round_id = ?1 ORDER BY round_id, id`, roundID)
}

// Plan returns a venue's hall plan by table.
func (s *Store) Plan(ctx context.Context, venue string) ([]PlanEntry, error) {
	db, err := s.reader()
	if err != nil {
		return nil, err
	}
	return queryAll(ctx, db, func(sc scanner) (PlanEntry, error) {
		var (
			e  PlanEntry
			ms int64
		)
		if err := sc.Scan(&e.Venue, &e.Table, &e.DeviceID, &ms); err != nil {
			return e, scanErr("hall plan", err)
		}
		e.Updated = fromMs(ms)
		return e, nil
	}, `SELECT venue, table_no, device_id, updated_ms FROM hall_plan WHERE venue = ? ORDER BY table_no`, venue)
}
