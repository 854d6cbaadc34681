package storage

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/chesshall/hallclock/internal/ident"
)

// The outbox: what the hall publishes to other machines (NATS JetStream,
// package storage/publish), written in the same transaction as the change
// it tells of, so that nothing committed is left unpublished and nothing
// is published that did not commit. The Tx operations add the rows
// themselves: AppendEvent (every board event), CreateTournament,
// CreateRound, CreateBoard, SetBoardSource, DeleteBoard,
// PutRoundBroadcast, PutToken and RevokeToken of broadcast tokens, and
// SetHallInfo. A publisher reads them in id order (commit order) with
// Outbox and records how far the stream has them with MarkPublished.

// Outbox kinds: what an outbox row tells of.
const (
	OutboxHall       = "hall"       // the hall's settings (HallInfo)
	OutboxTournament = "tournament" // a tournament (Ref: its id)
	OutboxRound      = "round"      // a round, with its broadcast settings
	OutboxBoard      = "board"      // a board: created, its source changed, or withdrawn
	OutboxToken      = "token"      // a broadcast token issued or revoked
	OutboxEvent      = "event"      // a board event
)

// HallInfo is what followers are told of the hall.
type HallInfo struct {
	// DelayMs is the hall's broadcast delay: followers show no one the
	// hall live.
	DelayMs int64 `json:"delay_ms"`
	// AllPublic: every round is public, whatever its settings (the demo).
	AllPublic bool `json:"all_public,omitempty"`
}

// OutboxEntry is one outbox row with the record it tells of, as it is
// when read (an event as committed). Exactly one of the record fields is
// set, except for a record that is gone (a board deleted): then only Ref.
type OutboxEntry struct {
	ID      uint64
	Kind    string // OutboxEvent, OutboxBoard, ...
	Ref     string // the record's id; for an event its board's
	Created time.Time

	Event       *EventRecord
	Hall        *HallInfo
	Tournament  *TournamentRecord
	Round       *RoundRecord
	RoundPublic bool // with Round: its feeds need no token
	Board       *BoardRecord
	Token       *TokenRecord

	// EventJSON is the event (Event.Event) as the database holds it,
	// when the row came from memory (OutboxRecent); nil when read back.
	EventJSON []byte
}

// OutboxStatus says how far the outbox is published.
type OutboxStatus struct {
	Published uint64    // every row up to this id is in the stream
	Last      uint64    // the newest row
	Oldest    time.Time // when the oldest row not yet published was written; zero if none
}

// Backlog is the number of rows not yet published.
func (o OutboxStatus) Backlog() uint64 {
	if o.Last < o.Published {
		return 0
	}
	return o.Last - o.Published
}

// outbox adds an outbox row and has the publisher woken after the commit.
func (t *Tx) outbox(kind, ref string, eventSeq any) error {
	_, err := t.outboxID(kind, ref, eventSeq)
	return err
}

// outboxID is outbox, returning the row's id.
func (t *Tx) outboxID(kind, ref string, eventSeq any) (uint64, error) {
	res, err := t.exec(`INSERT INTO outbox (kind, ref, event_seq, created_ms) VALUES (?, ?, ?, ?)`,
		kind, ref, eventSeq, t.s.wallMs(time.Time{}))
	if err != nil {
		return 0, fmt.Errorf("storage: outbox %s %s: %w", kind, ref, err)
	}
	id, err := res.LastInsertId()
	if err != nil {
		return 0, fmt.Errorf("storage: outbox %s %s: %w", kind, ref, err)
	}
	t.outboxLast = uint64(id)
	t.outboxedAfterCommit()
	return uint64(id), nil
}

// outboxedAfterCommit has the ring of recent rows told, and the
// publisher woken, once the transaction commits.
func (t *Tx) outboxedAfterCommit() {
	if !t.outboxed {
		t.outboxed = true
		t.AfterCommit(func() {
			t.recentCommitted()
			t.s.wakeOutbox()
		})
	}
}

// wakeOutbox tells a waiting publisher that rows were committed; it never
// blocks.
func (s *Store) wakeOutbox() {
	select {
	case s.outboxWake <- struct{}{}:
	default:
	}
}

// OutboxWake returns a channel that receives after commits that added
// outbox rows (at most one pending signal: read the outbox until it is
// drained, then wait again).
func (s *Store) OutboxWake() <-chan struct{} { return s.outboxWake }

// HallID returns the hall's id, chosen at random when the database was
// created ("hall-3f9a1c2e") unless set with SetHallID.
func (s *Store) HallID(ctx context.Context) (string, error) {
	db, err := s.reader()
	if err != nil {
		return "", err
	}
	var id string
	if err := db.QueryRowContext(ctx, `SELECT hall_id FROM hall WHERE id = 1`).Scan(&id); err != nil {
		return "", fmt.Errorf("storage: hall id: %w", err)
	}
	return id, nil
}

// SetHallID names the hall. A new name starts a new stream, so the
// outbox is written again from the hall's records (ReseedOutbox) in the
// same transaction: the new stream gets the whole hall. The same name
// changes nothing.
func (s *Store) SetHallID(ctx context.Context, id string) error {
	if err := ident.CheckHallID(id); err != nil {
		return err
	}
	return s.Write(ctx, func(tx *Tx) error {
		var was string
		if err := tx.queryRow(`SELECT hall_id FROM hall WHERE id = 1`).Scan(&was); err != nil {
			return fmt.Errorf("storage: hall id: %w", err)
		}
		if was == id {
			return nil
		}
		if _, err := tx.exec(`UPDATE hall SET hall_id = ? WHERE id = 1`, id); err != nil {
			return fmt.Errorf("storage: hall id: %w", err)
		}
		what := "hall id " + was + " → " + id
		if err := tx.AddAudit(&AuditRecord{Actor: "server", What: what, Outcome: OutcomeApplied,
			Kind: "did.hall_id", Params: map[string]string{"was": was, "id": id, "text": what}}); err != nil {
			return err
		}
		return tx.ReseedOutbox()
	})
}

// SetHallInfo stores what followers are told of the hall, with an outbox
// row if it changed.
func (s *Store) SetHallInfo(ctx context.Context, info HallInfo) error {
	js, err := json.Marshal(info)
	if err != nil {
		return err
	}
	return s.Write(ctx, func(tx *Tx) error {
		var was string
		if err := tx.queryRow(`SELECT info_json FROM hall WHERE id = 1`).Scan(&was); err != nil {
			return fmt.Errorf("storage: hall info: %w", err)
		}
		if was == string(js) {
			return nil
		}
		if _, err := tx.exec(`UPDATE hall SET info_json = ? WHERE id = 1`, string(js)); err != nil {
			return fmt.Errorf("storage: hall info: %w", err)
		}
		return tx.outbox(OutboxHall, "", nil)
	})
}

// ReseedOutbox replaces the rows not yet published with the whole hall
// from its records — the hall's settings, tournaments, rounds, boards,
// broadcast tokens, then every event in commit order — for a stream that
// lost what the hall had published (deleted, or a new hall id). The rows
// get new ids after every id used; the published mark moves to just
// before them.
func (t *Tx) ReseedOutbox() error {
	wall := t.s.wallMs(time.Time{})
	var last uint64
	if err := t.queryRow(`SELECT COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'outbox'), 0)`).Scan(&last); err != nil {
		return fmt.Errorf("storage: reseed outbox: %w", err)
	}
	for _, q := range []struct {
		sql  string
		args []any
	}{
		{`DELETE FROM outbox`, nil},
		{`UPDATE outbox_state SET published_id = ?, wall_ms = ? WHERE id = 1`, []any{last, wall}},
		{`INSERT INTO outbox (kind, ref, created_ms) VALUES ('hall', '', ?)`, []any{wall}},
		{`INSERT INTO outbox (kind, ref, created_ms) SELECT 'tournament', id, ? FROM tournaments ORDER BY created_ms, id`, []any{wall}},
		{`INSERT INTO outbox (kind, ref, created_ms) SELECT 'round', id, ? FROM rounds ORDER BY created_ms, id`, []any{wall}},
		{`INSERT INTO outbox (kind, ref, created_ms) SELECT 'board', id, ? FROM boards ORDER BY created_ms, id`, []any{wall}},
		{`INSERT INTO outbox (kind, ref, created_ms) SELECT 'token', id, ? FROM tokens WHERE role = 'broadcast' ORDER BY created_ms, id`, []any{wall}},
		{`INSERT INTO outbox (kind, event_seq, created_ms) SELECT 'event', seq, ? FROM events ORDER BY seq`, []any{wall}},
	} {
		if _, err := t.exec(q.sql, q.args...); err != nil {
			return fmt.Errorf("storage: reseed outbox: %w", err)
		}
	}
	// The ring of recent rows starts again after these (and without
	// any of this transaction's before them: they are deleted).
	t.recentRows, t.outboxReset, t.outboxLast = nil, true, 0
	t.outboxedAfterCommit()
	return nil
}

// MarkPublished records that every outbox row up to id is in the stream,
// and prunes rows published before keep ago (the stream keeps them; the
// recent ones let a publisher resend what a stream that lost its newest
// messages misses). A lower id than recorded changes nothing.
func (s *Store) MarkPublished(ctx context.Context, id uint64, keep time.Duration) error {
	return s.Write(ctx, func(tx *Tx) error {
		wall := tx.s.wallMs(time.Time{})
		if _, err := tx.exec(`UPDATE outbox_state SET published_id = ?, wall_ms = ? WHERE id = 1 AND published_id < ?`, id, wall, id); err != nil {
			return fmt.Errorf("storage: outbox published: %w", err)
		}
		// Rows are written in id order as time goes on: the ones to prune
		// are the published ones before the first row young enough to
		// keep, a range of ids (a scan of created_ms would read the whole
		// outbox on every mark). The bound is worked out first: given
		// two, SQLite walked every published row — the whole day kept —
		// checking the other. A wall clock set back keeps some rows longer.
		var upTo uint64
		if err := tx.queryRow(`SELECT published_id FROM outbox_state WHERE id = 1`).Scan(&upTo); err != nil {
			return fmt.Errorf("storage: outbox published: %w", err)
		}
		var young uint64
		switch err := tx.queryRow(`SELECT id FROM outbox WHERE created_ms >= ? ORDER BY id LIMIT 1`, wall-keep.Milliseconds()).Scan(&young); {
		case err == nil:
			upTo = min(upTo, young-1)
		case !errors.Is(err, sql.ErrNoRows):
			return fmt.Errorf("storage: outbox prune: %w", err)
		}
		if _, err := tx.exec(`DELETE FROM outbox WHERE id <= ?`, upTo); err != nil {
			return fmt.Errorf("storage: outbox prune: %w", err)
		}
		return nil
	})
}

// RewindPublished moves the published mark back to id: the stream lacks
// the rows after it (it lost its newest messages). Rows already pruned
// cannot be resent: ErrConflict says so (ReseedOutbox then).
func (s *Store) RewindPublished(ctx context.Context, id uint64) error {
	return s.Write(ctx, func(tx *Tx) error {
		var first sql.NullInt64
		if err := tx.queryRow(`SELECT MIN(id) FROM outbox`).Scan(&first); err != nil {
			return fmt.Errorf("storage: outbox: %w", err)
		}
		var published uint64
		if err := tx.queryRow(`SELECT published_id FROM outbox_state WHERE id = 1`).Scan(&published); err != nil {
			return fmt.Errorf("storage: outbox: %w", err)
		}
		if id >= published {
			return nil
		}
		if !first.Valid || uint64(first.Int64) > id+1 {
			return errorf(ErrConflict, "outbox: rows %d to %d are pruned; the stream lacks them", id+1, published)
		}
		_, err := tx.exec(`UPDATE outbox_state SET published_id = ?, wall_ms = ? WHERE id = 1`, id, tx.s.wallMs(time.Time{}))
		return err
	})
}

// OutboxState returns how far the outbox is published.
func (s *Store) OutboxState(ctx context.Context) (OutboxStatus, error) {
	db, err := s.reader()
	if err != nil {
		return OutboxStatus{}, err
	}
	var (
		o      OutboxStatus
		oldest sql.NullInt64
	)
	err = db.QueryRowContext(ctx, `SELECT s.published_id,
			COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'outbox'), 0),
			(SELECT created_ms FROM outbox WHERE id > s.published_id ORDER BY id LIMIT 1)
		FROM outbox_state s WHERE s.id = 1`).Scan(&o.Published, &o.Last, &oldest)
	if err != nil {
		return o, fmt.Errorf("storage: outbox: %w", err)
	}
	o.Oldest = fromNullMs(oldest)
	return o, nil
}

// OutboxAfter returns up to limit outbox rows with id > after, in id
// order, each with its record as it is now. A row whose record is gone (a
// board deleted, a round...) has only Kind and Ref.
func (s *Store) OutboxAfter(ctx context.Context, after uint64, limit int) ([]OutboxEntry, error) {
	db, err := s.reader()
	if err != nil {
		return nil, err
	}
	// One read transaction: the records are read as of one commit.
	rtx, err := db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("storage: outbox: %w", err)
	}
	defer rtx.Rollback()
	type row struct {
		e        OutboxEntry
		eventSeq sql.NullInt64
	}
	rows, err := queryAll(ctx, rtx, func(sc scanner) (row, error) {
		var (
			r  row
			ms int64
		)
		if err := sc.Scan(&r.e.ID, &r.e.Kind, &r.e.Ref, &r.eventSeq, &ms); err != nil {
			return r, scanErr("outbox", err)
		}
		r.e.Created = fromMs(ms)
		return r, nil
	}, `SELECT id, kind, ref, event_seq, created_ms FROM outbox WHERE id > ? ORDER BY id LIMIT ?`, after, sqlLimit(limit))
	if err != nil {
		return nil, err
	}
	// The events (nearly every row) in one query, not one each: the
	// publisher reads the outbox as fast as presses come.
	var events map[int64]*EventRecord
	if len(rows) > 0 {
		evs, err := queryAll(ctx, rtx, scanEvent, `SELECT `+eventCols+` FROM events WHERE seq IN
			(SELECT event_seq FROM outbox WHERE id > ? AND id <= ? AND event_seq IS NOT NULL)`, after, rows[len(rows)-1].e.ID)
		if err != nil {
			return nil, fmt.Errorf("storage: outbox: %w", err)
		}
		events = make(map[int64]*EventRecord, len(evs))
		for i := range evs {
			events[int64(evs[i].Seq)] = &evs[i]
		}
	}
	out := make([]OutboxEntry, 0, len(rows))
	for _, r := range rows {
		e := r.e
		if e.Kind == OutboxEvent {
			ev := events[r.eventSeq.Int64]
			if ev == nil {
				return nil, fmt.Errorf("storage: outbox %d: event %d: none", e.ID, r.eventSeq.Int64) // events are never deleted
			}
			e.Event, e.Ref = ev, ev.BoardID
		} else if err := e.read(ctx, rtx); err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, nil
}

// read fills in the record an outbox row other than an event tells of
// (OutboxAfter reads a batch's events in one query).
func (e *OutboxEntry) read(ctx context.Context, q querier) error {
	gone := func(err error) error {
		if errors.Is(err, ErrNotFound) || errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		return err
	}
	switch e.Kind {
	case OutboxHall:
		var js string
		if err := q.QueryRowContext(ctx, `SELECT info_json FROM hall WHERE id = 1`).Scan(&js); err != nil {
			return fmt.Errorf("storage: hall info: %w", err)
		}
		var h HallInfo
		if err := json.Unmarshal([]byte(js), &h); err != nil {
			return fmt.Errorf("storage: hall info: %w", err)
		}
		e.Hall = &h
	case OutboxTournament:
		t, err := queryOne(ctx, q, scanTournament, "tournament "+e.Ref+": no such tournament",
			`SELECT `+tournamentCols+` FROM tournaments WHERE id = ?`, e.Ref)
		if err != nil {
			return gone(err)
		}
		e.Tournament = &t
	case OutboxRound:
		r, err := queryOne(ctx, q, scanRound, "round "+e.Ref+": no such round",
			`SELECT `+roundCols+` FROM rounds WHERE id = ?`, e.Ref)
		if err != nil {
			return gone(err)
		}
		e.Round = &r
		var public bool
		err = q.QueryRowContext(ctx, `SELECT public FROM round_broadcast WHERE round_id = ?`, e.Ref).Scan(&public)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("storage: round %s: broadcast: %w", e.Ref, err)
		}
		e.RoundPublic = public
	case OutboxBoard:
		b, err := board(ctx, q, e.Ref)
		if err != nil {
			return gone(err)
		}
		e.Board = &b
	case OutboxToken:
		t, err := queryOne(ctx, q, scanToken, "token "+e.Ref+": no such token",
			`SELECT `+tokenCols+` FROM tokens WHERE id = ?`, e.Ref)
		if err != nil {
			return gone(err)
		}
		e.Token = &t
	default:
		return fmt.Errorf("storage: outbox %d: unknown kind %q", e.ID, e.Kind)
	}
	return nil
}
