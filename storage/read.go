package storage

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
)

// Reads run on the read-only pool and see the last committed state: a
// read that starts after a Write returned nil sees what it wrote. They
// never wait for the writer.

// querier is the read pool or a read transaction.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

type scanner interface{ Scan(dest ...any) error }

// reader returns the read pool, or ErrClosed.
func (s *Store) reader() (*sql.DB, error) {
	if s.closed.Load() {
		return nil, ErrClosed
	}
	return s.rdb, nil
}

// queryAll runs a query and scans each row with scan.
func queryAll[T any](ctx context.Context, q querier, scan func(scanner) (T, error), query string, args ...any) ([]T, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("storage: %w", err)
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("storage: %w", err)
	}
	return out, nil
}

// queryOne runs a query for one row; no row is ErrNotFound with the
// message what.
func queryOne[T any](ctx context.Context, q querier, scan func(scanner) (T, error), what string, query string, args ...any) (T, error) {
	v, err := scan(q.QueryRowContext(ctx, query, args...))
	if errors.Is(err, sql.ErrNoRows) {
		return v, errorf(ErrNotFound, "%s", what)
	}
	return v, err
}

func scanErr(what string, err error) error {
	if errors.Is(err, sql.ErrNoRows) {
		return err
	}
	return fmt.Errorf("storage: reading %s: %w", what, err)
}

const tournamentCols = `id, name, config_json, created_ms, venue`

func scanTournament(sc scanner) (TournamentRecord, error) {
	var (
		t   TournamentRecord
		cfg string
		ms  int64
	)
	if err := sc.Scan(&t.ID, &t.Name, &cfg, &ms, &t.Venue); err != nil {
		return t, scanErr("tournament", err)
	}
	var cj configJSON
	cj.Config = &t.Config
	if err := json.Unmarshal([]byte(cfg), &cj); err != nil {
		return t, fmt.Errorf("storage: tournament %s: config: %w", t.ID, err)
	}
	t.TimeControl = cj.TimeControl
	t.TieBreaks, t.SectionTieBreaks = cj.TieBreaks, cj.SectionTieBreaks
	t.Created = fromMs(ms)
	return t, nil
}

// Tournament returns the tournament with the id, or ErrNotFound.
func (s *Store) Tournament(ctx context.Context, id string) (TournamentRecord, error) {
	db, err := s.reader()
	if err != nil {
		return TournamentRecord{}, err
	}
	return queryOne(ctx, db, scanTournament, "tournament "+id+": no such tournament",
		`SELECT `+tournamentCols+` FROM tournaments WHERE id = ?`, id)
}

// Tournaments returns every tournament, oldest first.
func (s *Store) Tournaments(ctx context.Context) ([]TournamentRecord, error) {
	db, err := s.reader()
	if err != nil {
		return nil, err
	}
	return queryAll(ctx, db, scanTournament, `SELECT `+tournamentCols+` FROM tournaments ORDER BY created_ms, id`)
}

const roundCols = `id, tournament_id, number, config_json, created_ms, venue, rebuilt_ms`

func scanRound(sc scanner) (RoundRecord, error) {
	var (
		r       RoundRecord
		cfg     string
		ms      int64
		rebuilt sql.NullInt64
	)
	if err := sc.Scan(&r.ID, &r.TournamentID, &r.Number, &cfg, &ms, &r.Venue, &rebuilt); err != nil {
		return r, scanErr("round", err)
	}
	var cj configJSON
	if err := json.Unmarshal([]byte(cfg), &cj); err != nil {
		return r, fmt.Errorf("storage: round %s: config: %w", r.ID, err)
	}
	r.Config, r.TimeControl = cj.Config, cj.TimeControl
	r.Created = fromMs(ms)
	if rebuilt.Valid {
		r.Rebuilt = fromMs(rebuilt.Int64)
	}
	return r, nil
}

// Round returns the round with the id, or ErrNotFound.
func (s *Store) Round(ctx context.Context, id string) (RoundRecord, error) {
	db, err := s.reader()
	if err != nil {
		return RoundRecord{}, err
	}
	return queryOne(ctx, db, scanRound, "round "+id+": no such round",
		`SELECT `+roundCols+` FROM rounds WHERE id = ?`, id)
}

// Rounds returns the tournament's rounds by number, or every round if
// tournamentID is "".
func (s *Store) Rounds(ctx context.Context, tournamentID string) ([]RoundRecord, error) {
	db, err := s.reader()
	if err != nil {
		return nil, err
	}
	return queryAll(ctx, db, scanRound, `SELECT `+roundCols+` FROM rounds
		WHERE ?1 = '' OR tournament_id = ?1 ORDER BY tournament_id, number`, tournamentID)
}

const boardCols = `id, round_id, number, section, white_json, black_json, config_json, device_id, source, created_ms, table_no`

func scanBoard(sc scanner) (BoardRecord, error) {
	var (
		b                 BoardRecord
		white, black, cfg string
		device            sql.NullString
		ms                int64
		table             sql.NullInt64
	)
	if err := sc.Scan(&b.ID, &b.RoundID, &b.Number, &b.Section, &white, &black, &cfg, &device, &b.Source, &ms, &table); err != nil {
		return b, scanErr("board", err)
	}
	cj := configJSON{Config: &b.Config}
	for _, f := range []struct {
		js string
		v  any
	}{{white, &b.White}, {black, &b.Black}, {cfg, &cj}} {
		if err := json.Unmarshal([]byte(f.js), f.v); err != nil {
			return b, fmt.Errorf("storage: board %s: %w", b.ID, err)
		}
	}
	b.TimeControl = cj.TimeControl
	b.DeviceID = device.String
	b.Table = int(table.Int64)
	b.Created = fromMs(ms)
	return b, nil
}

// Board returns the board with the id, or ErrNotFound.
func (s *Store) Board(ctx context.Context, id string) (BoardRecord, error) {
	db, err := s.reader()
	if err != nil {
		return BoardRecord{}, err
	}
	return board(ctx, db, id)
}

func board(ctx context.Context, q querier, id string) (BoardRecord, error) {
	return queryOne(ctx, q, scanBoard, "board "+id+": no such board",
		`SELECT `+boardCols+` FROM boards WHERE id = ?`, id)
}

// BoardByDevice returns the board the device is assigned to, or
// ErrNotFound.
func (s *Store) BoardByDevice(ctx context.Context, deviceID string) (BoardRecord, error) {
	db, err := s.reader()
	if err != nil {
		return BoardRecord{}, err
	}
	return queryOne(ctx, db, scanBoard, "device "+deviceID+": assigned to no board",
		`SELECT `+boardCols+` FROM boards WHERE device_id = ?`, deviceID)
}

// Boards returns the round's boards by section and number, or every board
// if roundID is "".
func (s *Store) Boards(ctx context.Context, roundID string) ([]BoardRecord, error) {
	db, err := s.reader()
	if err != nil {
		return nil, err
	}
	return queryAll(ctx, db, scanBoard, `SELECT `+boardCols+` FROM boards
		WHERE ?1 = '' OR round_id = ?1 ORDER BY round_id, section, number`, roundID)
}

const eventCols = `seq, board_id, board_seq, event_json, device_id, device_seq, command_id, actor, reason, wall_ms`

func scanEvent(sc scanner) (EventRecord, error) {
	var (
		e               EventRecord
		js              string
		device, command sql.NullString
		deviceSeq       sql.NullInt64
		wall            int64
	)
	if err := sc.Scan(&e.Seq, &e.BoardID, &e.BoardSeq, &js, &device, &deviceSeq, &command, &e.Actor, &e.Reason, &wall); err != nil {
		return e, scanErr("event", err)
	}
	if err := json.Unmarshal([]byte(js), &e.Event); err != nil {
		return e, fmt.Errorf("storage: board %s: event %d (seq %d): %w", e.BoardID, e.BoardSeq, e.Seq, err)
	}
	e.DeviceID, e.DeviceSeq, e.CommandID = device.String, uint64(deviceSeq.Int64), command.String
	e.Wall = fromMs(wall)
	return e, nil
}

// Events returns the board's events after board_seq afterBoardSeq (0: all),
// in order. An unknown board is ErrNotFound.
func (s *Store) Events(ctx context.Context, boardID string, afterBoardSeq uint64) ([]EventRecord, error) {
	db, err := s.reader()
	if err != nil {
		return nil, err
	}
	return events(ctx, db, boardID, afterBoardSeq)
}

func events(ctx context.Context, q querier, boardID string, afterBoardSeq uint64) ([]EventRecord, error) {
	evs, err := queryAll(ctx, q, scanEvent, `SELECT `+eventCols+` FROM events
		WHERE board_id = ? AND board_seq > ? ORDER BY board_seq`, boardID, afterBoardSeq)
	if err == nil && len(evs) == 0 {
		var one int
		if e := q.QueryRowContext(ctx, `SELECT 1 FROM boards WHERE id = ?`, boardID).Scan(&one); errors.Is(e, sql.ErrNoRows) {
			return nil, errorf(ErrNotFound, "board %s: no such board", boardID)
		}
	}
	return evs, err
}

// EventsSince returns the hall's events with seq > afterSeq, in seq order,
// at most limit of them (limit ≤ 0: all). A watcher resumes from the last
// seq it saw: since seqs are assigned in commit order, nothing committed
// later can have a smaller seq, and nothing is skipped.
func (s *Store) EventsSince(ctx context.Context, afterSeq uint64, limit int) ([]EventRecord, error) {
	db, err := s.reader()
	if err != nil {
		return nil, err
	}
	return queryAll(ctx, db, scanEvent, `SELECT `+eventCols+` FROM events WHERE seq > ? ORDER BY seq LIMIT ?`,
		afterSeq, sqlLimit(limit))
}

func sqlLimit(limit int) int {
	if limit <= 0 {
		return -1 // no limit
	}
	return limit
}

// LastSeq returns the highest hall-wide seq committed, 0 if none.
func (s *Store) LastSeq(ctx context.Context) (uint64, error) {
	db, err := s.reader()
	if err != nil {
		return 0, err
	}
	var seq uint64
	if err := db.QueryRowContext(ctx, `SELECT COALESCE(MAX(seq), 0) FROM events`).Scan(&seq); err != nil {
		return 0, fmt.Errorf("storage: %w", err)
	}
	return seq, nil
}

// DeviceAcked returns the highest sequence number committed for the
// device (its events and refused messages alike), 0 if none: what to
// acknowledge to it on reconnect.
func (s *Store) DeviceAcked(ctx context.Context, deviceID string) (uint64, error) {
	db, err := s.reader()
	if err != nil {
		return 0, err
	}
	var acked uint64
	err = db.QueryRowContext(ctx, deviceAckedQuery, deviceID).Scan(&acked)
	if err != nil {
		return 0, fmt.Errorf("storage: device %s: %w", deviceID, err)
	}
	return acked, nil
}

// DeviceSeqsStored returns which of the device's sequence numbers from
// from to to (at most 10,000 of them) are stored as events; a committed
// number that is not was refused by the rules (acknowledged, in the audit
// log only).
func (s *Store) DeviceSeqsStored(ctx context.Context, deviceID string, from, to uint64) (map[uint64]bool, error) {
	db, err := s.reader()
	if err != nil {
		return nil, err
	}
	if to < from {
		return map[uint64]bool{}, nil
	}
	if to-from >= 10_000 {
		from = to - 9_999
	}
	seqs, err := queryAll(ctx, db, func(sc scanner) (uint64, error) {
		var v uint64
		return v, sc.Scan(&v)
	}, `SELECT device_seq FROM events WHERE device_id = ? AND device_seq BETWEEN ? AND ?`, deviceID, int64(from), int64(to))
	if err != nil {
		return nil, err
	}
	out := make(map[uint64]bool, len(seqs))
	for _, v := range seqs {
		out[v] = true
	}
	return out, nil
}

// DeviceSeqExists reports whether the device's message seq is committed
// (as an event, or acknowledged after a refusal): a message for which it
// is true is a duplicate.
func (s *Store) DeviceSeqExists(ctx context.Context, deviceID string, seq uint64) (bool, error) {
	acked, err := s.DeviceAcked(ctx, deviceID)
	return seq != 0 && seq <= acked, err
}

const auditCols = `seq, board_id, wall_ms, actor, what, reason, outcome, action_json, board_seq, command_id, kind, params_json`

func scanAudit(sc scanner) (AuditRecord, error) {
	var (
		a      AuditRecord
		wall   int64
		action sql.NullString
		params string
	)
	if err := sc.Scan(&a.Seq, &a.BoardID, &wall, &a.Actor, &a.What, &a.Reason, &a.Outcome, &action, &a.BoardSeq, &a.CommandID, &a.Kind, &params); err != nil {
		return a, scanErr("audit", err)
	}
	if params != "{}" && params != "" {
		if err := json.Unmarshal([]byte(params), &a.Params); err != nil {
			return a, fmt.Errorf("storage: audit %d: params: %w", a.Seq, err)
		}
	}
	a.Wall = fromMs(wall)
	if action.Valid {
		a.Action = json.RawMessage(action.String)
	}
	return a, nil
}

// Audit returns the audit records with seq > afterSeq, oldest first, at
// most limit (≤ 0: all): the board's, or the whole hall's if boardID is "".
func (s *Store) Audit(ctx context.Context, boardID string, afterSeq uint64, limit int) ([]AuditRecord, error) {
	db, err := s.reader()
	if err != nil {
		return nil, err
	}
	if boardID == "" {
		return queryAll(ctx, db, scanAudit, `SELECT `+auditCols+` FROM audit WHERE seq > ? ORDER BY seq LIMIT ?`,
			afterSeq, sqlLimit(limit))
	}
	return queryAll(ctx, db, scanAudit, `SELECT `+auditCols+` FROM audit WHERE board_id = ? AND seq > ? ORDER BY seq LIMIT ?`,
		boardID, afterSeq, sqlLimit(limit))
}

const commandCols = `id, board_id, action_json, reason, issued_by, issued_ms, status, message, resolved_ms`

func scanCommand(sc scanner) (CommandRecord, error) {
	var (
		c        CommandRecord
		action   string
		issued   int64
		resolved sql.NullInt64
	)
	if err := sc.Scan(&c.ID, &c.BoardID, &action, &c.Reason, &c.IssuedBy, &issued, &c.Status, &c.Message, &resolved); err != nil {
		return c, scanErr("command", err)
	}
	if action != "null" {
		c.Action = json.RawMessage(action)
	}
	c.Issued, c.Resolved = fromMs(issued), fromNullMs(resolved)
	return c, nil
}

// Command returns the command with the id, or ErrNotFound.
func (s *Store) Command(ctx context.Context, id string) (CommandRecord, error) {
	db, err := s.reader()
	if err != nil {
		return CommandRecord{}, err
	}
	return queryOne(ctx, db, scanCommand, "command "+id+": no such command",
		`SELECT `+commandCols+` FROM commands WHERE id = ?`, id)
}

// PendingCommands returns the board's pending commands, oldest first, or
// every board's if boardID is "" (after a restart: resend them).
func (s *Store) PendingCommands(ctx context.Context, boardID string) ([]CommandRecord, error) {
	db, err := s.reader()
	if err != nil {
		return nil, err
	}
	return queryAll(ctx, db, scanCommand, `SELECT `+commandCols+` FROM commands
		WHERE status = 'pending' AND (?1 = '' OR board_id = ?1) ORDER BY issued_ms, id`, boardID)
}

const tokenCols = `id, hash, role, label, device_id, sections_json, created_ms, revoked_ms, board_id, side`

func scanToken(sc scanner) (TokenRecord, error) {
	var (
		t        TokenRecord
		sections string
		created  int64
		revoked  sql.NullInt64
	)
	if err := sc.Scan(&t.ID, &t.Hash, &t.Role, &t.Label, &t.DeviceID, &sections, &created, &revoked, &t.BoardID, &t.Side); err != nil {
		return t, scanErr("token", err)
	}
	if err := json.Unmarshal([]byte(sections), &t.Sections); err != nil {
		return t, fmt.Errorf("storage: token %s: sections: %w", t.ID, err)
	}
	if len(t.Sections) == 0 {
		t.Sections = nil
	}
	t.Created, t.Revoked = fromMs(created), fromNullMs(revoked)
	return t, nil
}

// TokenByHash returns the token whose secret hashes to hash (see
// ident.HashSecret), revoked or not (check Active), or ErrNotFound.
func (s *Store) TokenByHash(ctx context.Context, hash string) (TokenRecord, error) {
	db, err := s.reader()
	if err != nil {
		return TokenRecord{}, err
	}
	return queryOne(ctx, db, scanToken, "no token has this secret",
		`SELECT `+tokenCols+` FROM tokens WHERE hash = ?`, hash)
}

// Tokens returns every token, revoked ones included, oldest first.
func (s *Store) Tokens(ctx context.Context) ([]TokenRecord, error) {
	db, err := s.reader()
	if err != nil {
		return nil, err
	}
	return queryAll(ctx, db, scanToken, `SELECT `+tokenCols+` FROM tokens ORDER BY created_ms, id`)
}

func scanDevice(sc scanner) (DeviceRecord, error) {
	var (
		d    DeviceRecord
		seen int64
	)
	if err := sc.Scan(&d.ID, &d.Firmware, &seen, &d.BatteryPct, &d.DriftPPM, &d.Kind); err != nil {
		return d, scanErr("device", err)
	}
	d.LastSeen = fromMs(seen)
	return d, nil
}

// Devices returns every device heard from, by id.
func (s *Store) Devices(ctx context.Context) ([]DeviceRecord, error) {
	db, err := s.reader()
	if err != nil {
		return nil, err
	}
	return queryAll(ctx, db, scanDevice, `SELECT id, firmware, last_seen_ms, battery_pct, drift_ppm, kind FROM devices ORDER BY id`)
}
