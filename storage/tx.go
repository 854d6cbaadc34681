package storage

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/chesshall/hallclock/rules"
)

// Tx is the write transaction one Write function runs in. Its operations
// are typed; each checks what it must and returns an *Error of a kind
// (ErrNotFound, ErrDuplicate, ErrConflict, ErrGap) when the write does not
// fit. A function that gets such an error usually returns it, which rolls
// back all it did; it may also carry on (say, to audit the refusal), since
// an operation refused with an error of a kind changed nothing.
//
// A Tx is valid only while its function runs and only on the writer
// goroutine: do not keep it or hand it to another goroutine.
type Tx struct {
	s     *Store
	tx    *sql.Tx
	after []func()
	done  bool
	// outboxed: an outbox row was added (the publisher is woken after
	// the commit). outboxLast is the highest outbox id written,
	// recentRows the event rows for the publisher's ring
	// (outbox_recent.go), outboxReset: the outbox was rewritten.
	outboxed    bool
	outboxLast  uint64
	recentRows  []OutboxEntry
	outboxReset bool
}

var errTxDone = errors.New("storage: Tx used after its Write function returned")

// txCtx is the context of the statements: never cancelled, since a Write
// whose function has started waits for the commit anyway. (A context that
// cannot be cancelled also spares go-sqlite3 a goroutine per statement.)
var txCtx = context.Background()

func (t *Tx) exec(query string, args ...any) (sql.Result, error) {
	if t.done {
		return nil, errTxDone
	}
	return t.tx.ExecContext(txCtx, query, args...)
}

func (t *Tx) queryRow(query string, args ...any) *sql.Row {
	return t.tx.QueryRowContext(txCtx, query, args...)
}

// AfterCommit registers f to run once the transaction has committed, on
// the writer goroutine, before the Write returns; f never runs if the
// function fails or the commit does. Functions of one batch run in the
// order they were registered and the Writes were grouped, which is the
// order of the hall-wide sequence numbers they assigned: publish there to
// keep watchers in sequence order. f must be quick and must not block.
func (t *Tx) AfterCommit(f func()) {
	if !t.done {
		t.after = append(t.after, f)
	}
}

// boardLog returns whether the board exists and its last board_seq: from
// the writer's cache, else from the database (then cached).
func (t *Tx) boardLog(boardID string) (exists bool, last uint64, err error) {
	if t.done {
		return false, 0, errTxDone
	}
	if last, ok := t.s.seqs.boards[boardID]; ok {
		return true, last, nil
	}
	err = t.queryRow(`SELECT EXISTS (SELECT 1 FROM boards WHERE id = ?1),
		COALESCE((SELECT board_seq FROM events WHERE board_id = ?1 ORDER BY board_seq DESC LIMIT 1), 0)`,
		boardID).Scan(&exists, &last)
	if err == nil && exists {
		t.s.seqs.learn(false, boardID, last)
	}
	return exists, last, err
}

// LastBoardSeq returns the board_seq of the board's last event (0 if
// none), as this transaction sees it.
func (t *Tx) LastBoardSeq(boardID string) (uint64, error) {
	exists, last, err := t.boardLog(boardID)
	if err != nil {
		return 0, err
	}
	if !exists {
		return 0, errorf(ErrNotFound, "board %s: no such board", boardID)
	}
	return last, nil
}

// DeviceAcked returns the highest sequence number committed for the
// device (0 if none), as this transaction sees it.
func (t *Tx) DeviceAcked(deviceID string) (uint64, error) {
	if t.done {
		return 0, errTxDone
	}
	if acked, ok := t.s.seqs.devices[deviceID]; ok {
		return acked, nil
	}
	var acked uint64
	err := t.queryRow(deviceAckedQuery, deviceID).Scan(&acked)
	if err == nil {
		t.s.seqs.learn(true, deviceID, acked)
	}
	return acked, err
}

// Where a device's committed sequence number is. Its events carry their
// numbers (events.device_seq, indexed with the device); device_seqs holds
// a row for every device with a committed number, raised by what has no
// event (AckDevice's refused messages, SkipDeviceSeqs after a restore) and
// set at a device's first event. An event after the first does not touch
// device_seqs: at a thousand presses a second on thousands of boards that
// was a page of its own written to the log for every press. The number is
// the higher of the two.
const deviceAckedQuery = `SELECT MAX(
	COALESCE((SELECT acked_seq FROM device_seqs WHERE device_id = ?1), 0),
	COALESCE((SELECT MAX(device_seq) FROM events WHERE device_id = ?1), 0))`

// AppendEvent appends r to its board's log. r.BoardSeq must be the next
// one (the last + 1), else ErrConflict; r.Seq is assigned (hall-wide); a
// zero r.Wall is set to now. If r.DeviceID is set, the device's committed
// sequence is raised to r.DeviceSeq, which must be the next one: a number
// already committed is ErrDuplicate, a number past the next is ErrGap (as
// AckDevice); the device is checked first, so a resent event is reported
// as a duplicate whatever its BoardSeq. The event itself is not checked
// against the rules: apply it with rules.Apply first.
func (t *Tx) AppendEvent(r *EventRecord) error {
	exists, last, err := t.boardLog(r.BoardID)
	if err != nil {
		return err
	}
	if !exists {
		return errorf(ErrNotFound, "board %s: no such board", r.BoardID)
	}
	var deviceSeq any
	switch {
	case r.DeviceID != "":
		if err := t.checkDeviceSeq(r.DeviceID, r.DeviceSeq); err != nil {
			return err
		}
		deviceSeq = r.DeviceSeq
	case r.DeviceSeq != 0:
		return fmt.Errorf("storage: board %s: event %d has a device sequence number (%d) but no device", r.BoardID, r.BoardSeq, r.DeviceSeq)
	}
	if r.BoardSeq != last+1 {
		return errorf(ErrConflict, "board %s: event %d appended after %d", r.BoardID, r.BoardSeq, last)
	}
	js, err := json.Marshal(r.Event)
	if err != nil {
		return fmt.Errorf("storage: board %s: event %d: %w", r.BoardID, r.BoardSeq, err)
	}
	wall := t.s.wallMs(r.Wall)
	res, err := t.exec(`INSERT INTO events
		(board_id, board_seq, kind, t_ms, event_json, device_id, device_seq, command_id, actor, reason, wall_ms)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		r.BoardID, r.BoardSeq, r.Event.Kind.String(), r.Event.T, string(js),
		nullString(r.DeviceID), deviceSeq, nullString(r.CommandID), r.Actor, r.Reason, wall)
	if err != nil {
		if constraint(err) == "unique" {
			return errorf(ErrDuplicate, "board %s: event %d (device %s, sequence %d) already stored", r.BoardID, r.BoardSeq, r.DeviceID, r.DeviceSeq)
		}
		return fmt.Errorf("storage: board %s: append event %d: %w", r.BoardID, r.BoardSeq, err)
	}
	t.s.seqs.set(false, r.BoardID, r.BoardSeq)
	seq, err := res.LastInsertId()
	if err != nil {
		return fmt.Errorf("storage: board %s: append event %d: %w", r.BoardID, r.BoardSeq, err)
	}
	if r.DeviceID != "" {
		if err := t.deviceEvent(r.DeviceID, r.DeviceSeq); err != nil {
			return err
		}
	}
	id, err := t.outboxID(OutboxEvent, "", seq)
	if err != nil {
		return err
	}
	r.Seq = uint64(seq)
	if r.Wall.IsZero() {
		r.Wall = fromMs(wall)
	}
	t.recentEvent(id, r, js, wall)
	return nil
}

// AckDevice records that the device's message seq is committed without an
// event, for device events the rules refused (record those in the audit
// log in the same function). Device sequence numbers start at 1 and have
// no holes: seq must be the last committed + 1. A seq already committed is
// ErrDuplicate (drop the message, acknowledge again); one past the next is
// ErrGap (ask the device to resend from DeviceAcked + 1).
func (t *Tx) AckDevice(deviceID string, seq uint64) error {
	if err := t.checkDeviceSeq(deviceID, seq); err != nil {
		return err
	}
	return t.setDeviceAcked(deviceID, seq)
}

// SkipDeviceSeqs raises the device's committed sequence number to upTo
// without events: the numbers between were acknowledged before the hall
// was restored from an older backup, and the device no longer holds them.
// Record why in the audit log in the same function. A lower upTo changes
// nothing.
func (t *Tx) SkipDeviceSeqs(deviceID string, upTo uint64) error {
	acked, err := t.DeviceAcked(deviceID)
	if err != nil {
		return err
	}
	if upTo <= acked {
		return nil
	}
	return t.setDeviceAcked(deviceID, upTo)
}

// checkDeviceSeq checks that seq is the device's next sequence number.
func (t *Tx) checkDeviceSeq(deviceID string, seq uint64) error {
	if deviceID == "" {
		return errors.New("storage: a device sequence number without a device")
	}
	acked, err := t.DeviceAcked(deviceID)
	if err != nil {
		return err
	}
	switch {
	case seq == 0:
		return fmt.Errorf("storage: device %s: sequence number 0 (they start at 1)", deviceID)
	case seq <= acked:
		return errorf(ErrDuplicate, "device %s: sequence %d already committed (committed up to %d)", deviceID, seq, acked)
	case seq > acked+1:
		return errorf(ErrGap, "device %s: sequence %d after %d: %d to %d never received", deviceID, seq, acked, acked+1, seq-1)
	}
	return nil
}

// deviceEvent records that the device's event seq was appended: its
// number is in the event (deviceAckedQuery); device_seqs gets the
// device's row at its first number only.
func (t *Tx) deviceEvent(deviceID string, seq uint64) error {
	if seq == 1 {
		return t.setDeviceAcked(deviceID, seq)
	}
	t.s.seqs.set(true, deviceID, seq)
	return nil
}

func (t *Tx) setDeviceAcked(deviceID string, seq uint64) error {
	_, err := t.exec(`INSERT INTO device_seqs (device_id, acked_seq) VALUES (?, ?)
		ON CONFLICT (device_id) DO UPDATE SET acked_seq = excluded.acked_seq`, deviceID, seq)
	if err != nil {
		return fmt.Errorf("storage: device %s: %w", deviceID, err)
	}
	t.s.seqs.set(true, deviceID, seq)
	return nil
}

// PutSnapshot caches st as the board's state after its first boardSeq
// events, replacing an older snapshot (an older one than stored is
// ignored). boardSeq past the board's log is ErrConflict.
func (t *Tx) PutSnapshot(boardID string, boardSeq uint64, st rules.State) error {
	exists, last, err := t.boardLog(boardID)
	if err != nil {
		return err
	}
	if !exists {
		return errorf(ErrNotFound, "board %s: no such board", boardID)
	}
	if boardSeq > last {
		return errorf(ErrConflict, "board %s: snapshot after event %d but the log ends at event %d", boardID, boardSeq, last)
	}
	js, err := json.Marshal(st)
	if err != nil {
		return fmt.Errorf("storage: board %s: snapshot: %w", boardID, err)
	}
	_, err = t.exec(`INSERT INTO snapshots (board_id, board_seq, state_type, state_json, wall_ms) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (board_id) DO UPDATE SET board_seq = excluded.board_seq, state_type = excluded.state_type,
			state_json = excluded.state_json, wall_ms = excluded.wall_ms
		WHERE excluded.board_seq >= snapshots.board_seq`,
		boardID, boardSeq, stateType, string(js), t.s.wallMs(time.Time{}))
	return err
}

// AddAudit adds a to the audit log and assigns a.Seq; a zero a.Wall is
// set to now. A refusal or an alert without a.Kind is given the kind
// KindText of its English words.
func (t *Tx) AddAudit(a *AuditRecord) error {
	var action any
	if a.Action != nil {
		if !json.Valid(a.Action) {
			return fmt.Errorf("storage: audit %q by %s: action is not JSON", a.What, a.Actor)
		}
		action = string(a.Action)
	}
	if a.Kind == "" {
		// A refusal or an alert written without a kind keeps its English
		// words as the kind "text", as the rows written before kinds do.
		for _, prefix := range []string{OutcomeRefused(""), OutcomeAlert("")} {
			if words, ok := strings.CutPrefix(a.Outcome, prefix); ok {
				a.Kind, a.Params = KindText, map[string]string{"text": words}
			}
		}
	}
	params := []byte("{}")
	if len(a.Params) > 0 {
		var err error
		if params, err = json.Marshal(a.Params); err != nil {
			return fmt.Errorf("storage: audit %q by %s: %w", a.What, a.Actor, err)
		}
	}
	wall := t.s.wallMs(a.Wall)
	res, err := t.exec(`INSERT INTO audit (board_id, wall_ms, actor, what, reason, outcome, action_json, board_seq, command_id, kind, params_json)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		a.BoardID, wall, a.Actor, a.What, a.Reason, a.Outcome, action, a.BoardSeq, a.CommandID, a.Kind, string(params))
	if err != nil {
		return fmt.Errorf("storage: audit %q by %s: %w", a.What, a.Actor, err)
	}
	seq, err := res.LastInsertId()
	if err != nil {
		return err
	}
	a.Seq = uint64(seq)
	if a.Wall.IsZero() {
		a.Wall = fromMs(wall)
	}
	return nil
}

// PutCommand stores a new arbiter command (status pending unless set); a
// zero c.Issued is set to now. An id already used is ErrDuplicate, an
// unknown board ErrNotFound.
func (t *Tx) PutCommand(c *CommandRecord) error {
	if c.Status == "" {
		c.Status = CommandPending
	}
	if err := checkStatus(c.ID, c.Status, true); err != nil {
		return err
	}
	action := string(c.Action)
	if c.Action == nil {
		action = "null"
	} else if !json.Valid(c.Action) {
		return fmt.Errorf("storage: command %s: action is not JSON", c.ID)
	}
	issued := t.s.wallMs(c.Issued)
	_, err := t.exec(`INSERT INTO commands (id, board_id, action_json, reason, issued_by, issued_ms, status, message, resolved_ms)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		c.ID, c.BoardID, action, c.Reason, c.IssuedBy, issued, c.Status, c.Message, nullMs(c.Resolved))
	switch constraint(err) {
	case "unique":
		return errorf(ErrDuplicate, "command %s: already stored", c.ID)
	case "foreign":
		return errorf(ErrNotFound, "command %s: board %s: no such board", c.ID, c.BoardID)
	}
	if err != nil {
		return fmt.Errorf("storage: command %s: %w", c.ID, err)
	}
	if c.Issued.IsZero() {
		c.Issued = fromMs(issued)
	}
	return nil
}

func checkStatus(id, status string, pendingOK bool) error {
	switch status {
	case CommandApplied, CommandRefused:
		return nil
	case CommandPending:
		if pendingOK {
			return nil
		}
	}
	return fmt.Errorf("storage: command %s: status %q (want applied or refused)", id, status)
}

// ResolveCommand marks a pending command applied or refused, with a
// message. An unknown command is ErrNotFound; one already resolved is
// ErrConflict.
func (t *Tx) ResolveCommand(id, status, message string) error {
	if err := checkStatus(id, status, false); err != nil {
		return err
	}
	res, err := t.exec(`UPDATE commands SET status = ?, message = ?, resolved_ms = ? WHERE id = ? AND status = 'pending'`,
		status, message, t.s.wallMs(time.Time{}), id)
	if err != nil {
		return fmt.Errorf("storage: command %s: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 1 {
		return nil
	}
	var was string
	err = t.queryRow(`SELECT status FROM commands WHERE id = ?`, id).Scan(&was)
	if errors.Is(err, sql.ErrNoRows) {
		return errorf(ErrNotFound, "command %s: no such command", id)
	}
	if err != nil {
		return err
	}
	return errorf(ErrConflict, "command %s: already %s", id, was)
}

// configJSON is how configurations are stored.
type configJSON struct {
	Config      *rules.Config `json:"config"`
	TimeControl string        `json:"time_control,omitempty"`
	// A tournament's tie-break lists (kept with its configuration, as its
	// scoring is: no column of their own).
	TieBreaks        string            `json:"tie_breaks,omitempty"`
	SectionTieBreaks map[string]string `json:"section_tie_breaks,omitempty"`
}

// CreateTournament stores a new tournament; a zero Created is set to now.
// An id already used is ErrDuplicate.
func (t *Tx) CreateTournament(tr *TournamentRecord) error {
	js, err := json.Marshal(configJSON{Config: &tr.Config, TimeControl: tr.TimeControl, TieBreaks: tr.TieBreaks, SectionTieBreaks: tr.SectionTieBreaks})
	if err != nil {
		return fmt.Errorf("storage: tournament %s: %w", tr.ID, err)
	}
	created := t.s.wallMs(tr.Created)
	_, err = t.exec(`INSERT INTO tournaments (id, name, config_json, created_ms, venue) VALUES (?, ?, ?, ?, ?)`,
		tr.ID, tr.Name, string(js), created, tr.Venue)
	if constraint(err) == "unique" {
		if strings.Contains(err.Error(), "tournaments_name") {
			return errorf(ErrDuplicate, "a tournament is called %q already: a name says which tournament is meant, so each has its own", strings.TrimSpace(tr.Name))
		}
		return errorf(ErrDuplicate, "tournament %s: already exists", tr.ID)
	}
	if err != nil {
		return fmt.Errorf("storage: tournament %s: %w", tr.ID, err)
	}
	if err := t.outbox(OutboxTournament, tr.ID, nil); err != nil {
		return err
	}
	if tr.Created.IsZero() {
		tr.Created = fromMs(created)
	}
	return nil
}

// CreateRound stores a new round; a zero Created is set to now. An unknown
// tournament is ErrNotFound; an id or a number already used in the
// tournament is ErrDuplicate.
func (t *Tx) CreateRound(r *RoundRecord) error {
	js, err := json.Marshal(configJSON{Config: r.Config, TimeControl: r.TimeControl})
	if err != nil {
		return fmt.Errorf("storage: round %s: %w", r.ID, err)
	}
	created := t.s.wallMs(r.Created)
	_, err = t.exec(`INSERT INTO rounds (id, tournament_id, number, config_json, created_ms, venue, rebuilt_ms) VALUES (?, ?, ?, ?, ?, ?, ?)`,
		r.ID, r.TournamentID, r.Number, string(js), created, r.Venue, nullMs(r.Rebuilt))
	switch constraint(err) {
	case "unique":
		return errorf(ErrDuplicate, "round %s: the id, or round %d of tournament %s, already exists", r.ID, r.Number, r.TournamentID)
	case "foreign":
		return errorf(ErrNotFound, "round %s: tournament %s: no such tournament", r.ID, r.TournamentID)
	}
	if err != nil {
		return fmt.Errorf("storage: round %s: %w", r.ID, err)
	}
	if err := t.outbox(OutboxRound, r.ID, nil); err != nil {
		return err
	}
	if r.Created.IsZero() {
		r.Created = fromMs(created)
	}
	return nil
}

// CreateBoard stores a new board; a zero Created is set to now. Its
// Config must be one rules.NewState accepts. An unknown round is
// ErrNotFound; an id, or a number already used in the round's section, is
// ErrDuplicate. A DeviceID moves that device from any other board to it.
func (t *Tx) CreateBoard(b *BoardRecord) error {
	if _, err := rules.NewState(b.Config); err != nil {
		return fmt.Errorf("storage: board %s: %w", b.ID, err)
	}
	if err := checkSource(b.ID, b.Source); err != nil {
		return err
	}
	cfg, err := json.Marshal(configJSON{Config: &b.Config, TimeControl: b.TimeControl})
	if err != nil {
		return fmt.Errorf("storage: board %s: %w", b.ID, err)
	}
	white, err := json.Marshal(b.White)
	if err != nil {
		return fmt.Errorf("storage: board %s: White: %w", b.ID, err)
	}
	black, err := json.Marshal(b.Black)
	if err != nil {
		return fmt.Errorf("storage: board %s: Black: %w", b.ID, err)
	}
	created := t.s.wallMs(b.Created)
	var table any
	if b.Table > 0 {
		table = b.Table
	}
	_, err = t.exec(`INSERT INTO boards (id, round_id, number, section, white_json, black_json, config_json, device_id, source, created_ms, table_no)
		VALUES (?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?)`,
		b.ID, b.RoundID, b.Number, b.Section, string(white), string(black), string(cfg), b.Source, created, table)
	switch constraint(err) {
	case "unique":
		return errorf(ErrDuplicate, "board %s: the id, or board %d of section %q of round %s, already exists", b.ID, b.Number, b.Section, b.RoundID)
	case "foreign":
		return errorf(ErrNotFound, "board %s: round %s: no such round", b.ID, b.RoundID)
	}
	if err != nil {
		return fmt.Errorf("storage: board %s: %w", b.ID, err)
	}
	if b.DeviceID != "" {
		if err := t.SetBoardDevice(b.ID, b.DeviceID); err != nil {
			return err
		}
	}
	if err := t.outbox(OutboxBoard, b.ID, nil); err != nil {
		return err
	}
	if b.Created.IsZero() {
		b.Created = fromMs(created)
	}
	return nil
}

// SetBoardDevice assigns the device to the board, taking it off any other
// board; "" leaves the board without a device. An unknown board is
// ErrNotFound.
func (t *Tx) SetBoardDevice(boardID, deviceID string) error {
	if deviceID != "" {
		if _, err := t.exec(`UPDATE boards SET device_id = NULL WHERE device_id = ? AND id <> ?`, deviceID, boardID); err != nil {
			return fmt.Errorf("storage: board %s: device %s: %w", boardID, deviceID, err)
		}
	}
	res, err := t.exec(`UPDATE boards SET device_id = ? WHERE id = ?`, nullString(deviceID), boardID)
	if err != nil {
		return fmt.Errorf("storage: board %s: device %s: %w", boardID, deviceID, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return errorf(ErrNotFound, "board %s: no such board", boardID)
	}
	return nil
}

func checkSource(boardID string, src Source) error {
	if src != SourceDevice && src != SourceVirtual {
		return fmt.Errorf("storage: board %s: source %d (want 0, device, or 1, virtual)", boardID, src)
	}
	return nil
}

// SetBoardSource says what keeps the board's time from now on. An unknown
// board is ErrNotFound.
func (t *Tx) SetBoardSource(boardID string, src Source) error {
	if err := checkSource(boardID, src); err != nil {
		return err
	}
	res, err := t.exec(`UPDATE boards SET source = ? WHERE id = ?`, src, boardID)
	if err != nil {
		return fmt.Errorf("storage: board %s: %w", boardID, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return errorf(ErrNotFound, "board %s: no such board", boardID)
	}
	return t.outbox(OutboxBoard, boardID, nil)
}

// PutToken stores a new credential; a zero Created is set to now. An id
// or a hash already stored is ErrDuplicate.
func (t *Tx) PutToken(tk *TokenRecord) error {
	if tk.Hash == "" {
		return fmt.Errorf("storage: token %s: no hash", tk.ID)
	}
	sections := tk.Sections
	if sections == nil {
		sections = []string{}
	}
	js, err := json.Marshal(sections)
	if err != nil {
		return fmt.Errorf("storage: token %s: sections: %w", tk.ID, err)
	}
	created := t.s.wallMs(tk.Created)
	_, err = t.exec(`INSERT INTO tokens (id, hash, role, label, device_id, sections_json, created_ms, revoked_ms, board_id, side)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		tk.ID, tk.Hash, tk.Role, tk.Label, tk.DeviceID, string(js), created, nullMs(tk.Revoked), tk.BoardID, tk.Side)
	if constraint(err) == "unique" {
		return errorf(ErrDuplicate, "token %s: the id or the secret is already used", tk.ID)
	}
	if err != nil {
		return fmt.Errorf("storage: token %s: %w", tk.ID, err)
	}
	if tk.Role == "broadcast" {
		if err := t.outbox(OutboxToken, tk.ID, nil); err != nil {
			return err
		}
	}
	if tk.Created.IsZero() {
		tk.Created = fromMs(created)
	}
	return nil
}

// RevokeToken revokes the token at the given time (zero: now), and ends
// its web sessions and sign-in links. Revoking a revoked token keeps the
// first time; an unknown one is ErrNotFound.
func (t *Tx) RevokeToken(id string, at time.Time) error {
	res, err := t.exec(`UPDATE tokens SET revoked_ms = ? WHERE id = ? AND revoked_ms IS NULL`, t.s.wallMs(at), id)
	if err != nil {
		return fmt.Errorf("storage: token %s: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 1 {
		if err := t.endSignInsOf(id); err != nil {
			return err
		}
		var role string
		if err := t.queryRow(`SELECT role FROM tokens WHERE id = ?`, id).Scan(&role); err != nil {
			return fmt.Errorf("storage: token %s: %w", id, err)
		}
		if role == "broadcast" {
			return t.outbox(OutboxToken, id, nil)
		}
		return nil
	}
	var one int
	err = t.queryRow(`SELECT 1 FROM tokens WHERE id = ?`, id).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return errorf(ErrNotFound, "token %s: no such token", id)
	}
	return err
}

// TouchDevice records what was last heard from a device, creating it if
// new; a zero LastSeen is set to now.
func (t *Tx) TouchDevice(d DeviceRecord) error {
	_, err := t.exec(`INSERT INTO devices (id, firmware, last_seen_ms, battery_pct, drift_ppm) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (id) DO UPDATE SET firmware = excluded.firmware, last_seen_ms = excluded.last_seen_ms,
			battery_pct = excluded.battery_pct, drift_ppm = excluded.drift_ppm`,
		d.ID, d.Firmware, t.s.wallMs(d.LastSeen), d.BatteryPct, d.DriftPPM)
	if err != nil {
		return fmt.Errorf("storage: device %s: %w", d.ID, err)
	}
	return nil
}
