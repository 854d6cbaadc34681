package storage

import (
	"context"
	"slices"
	"sort"
	"strings"
	"time"
)

// AuditQuery selects entries of the hall-wide audit. Every field is
// optional; a zero one does not filter.
type AuditQuery struct {
	BoardID      string
	RoundID      string
	TournamentID string
	// Sections, when not nil, keeps only the boards of these sections (an
	// arbiter's): the hall's own entries, of no board, are left out too.
	Sections []string
	// Actor matches an actor whole ("arbiter:Anna"), by its name ("Anna")
	// or by its role ("arbiter").
	Actor string
	// Kinds match an event's kind (rules.Kind's name) or the first word
	// of an audit record's What ("result", "assign", "revoke_token").
	Kinds []string
	Since time.Time // at or after
	Until time.Time // before
	Limit int       // the newest that many (≤ 0: all)
}

// AuditItem is one entry of the hall-wide audit: an audit record, or a
// board event (Event set), with its board's round.
type AuditItem struct {
	Audit *AuditRecord
	Event *EventRecord
	Kind  string // the event's kind, or the first word of the record's What
}

// Wall is when the entry was written.
func (i AuditItem) Wall() time.Time {
	if i.Event != nil {
		return i.Event.Wall
	}
	return i.Audit.Wall
}

// AuditSearch returns the audit records and board events q selects,
// oldest first, and whether older ones matched beyond q.Limit. A clock
// device's own presses are not in it (the bulk of the log; a board's own
// audit has them), unless q names a board.
func (s *Store) AuditSearch(ctx context.Context, q AuditQuery) ([]AuditItem, bool, error) {
	db, err := s.reader()
	if err != nil {
		return nil, false, err
	}
	limit := sqlLimit(q.Limit)
	if limit > 0 {
		limit++ // one more: are there older ones?
	}
	query, args := q.auditSQL(limit)
	audits, err := queryAll(ctx, db, scanAudit, query, args...)
	if err != nil {
		return nil, false, err
	}
	query, args = q.eventSQL(limit)
	events, err := queryAll(ctx, db, scanEvent, query, args...)
	if err != nil {
		return nil, false, err
	}
	slices.Reverse(audits) // oldest first, as are the events below
	slices.Reverse(events)
	items := make([]AuditItem, 0, len(audits)+len(events))
	for i := range audits {
		a := &audits[i]
		kind, _, _ := strings.Cut(a.What, " ")
		items = append(items, AuditItem{Audit: a, Kind: kind})
	}
	for i := range events {
		e := &events[i]
		items = append(items, AuditItem{Event: e, Kind: e.Event.Kind.String()})
	}
	// Oldest first; at one time, a command's record before its event.
	sort.SliceStable(items, func(i, j int) bool {
		x, y := items[i].Wall(), items[j].Wall()
		if !x.Equal(y) {
			return x.Before(y)
		}
		return items[i].Audit != nil && items[j].Event != nil
	})
	more := false
	if q.Limit > 0 && len(items) > q.Limit {
		items, more = items[len(items)-q.Limit:], true
	}
	return items, more, nil
}

// auditSQL is the query of the audit records q selects, newest first.
func (q AuditQuery) auditSQL(limit int) (string, []any) {
	where, args := q.where()
	if len(q.Kinds) > 0 {
		var or []string
		for _, k := range q.Kinds {
			or = append(or, "(a.what = ? OR substr(a.what, 1, length(?) + 1) = ? || ' ')")
			args = append(args, k, k, k)
		}
		where = append(where, "("+strings.Join(or, " OR ")+")")
	}
	return `SELECT ` + prefixed("a.", auditCols) + ` FROM audit a
		LEFT JOIN boards b ON b.id = a.board_id LEFT JOIN rounds r ON r.id = b.round_id
		WHERE ` + strings.Join(where, " AND ") + ` ORDER BY a.wall_ms DESC, a.seq DESC LIMIT ?`, append(args, limit)
}

// eventSQL is the query of the board events q selects, newest first.
func (q AuditQuery) eventSQL(limit int) (string, []any) {
	where, args := q.where()
	if q.BoardID == "" {
		// The partial index events_audit's condition, word for word.
		where = append(where, "(a.device_id IS NULL OR a.kind <> 'press')")
	}
	if len(q.Kinds) > 0 {
		where = append(where, "a.kind IN ("+strings.Repeat("?, ", len(q.Kinds)-1)+"?)")
		for _, k := range q.Kinds {
			args = append(args, k)
		}
	}
	return `SELECT ` + prefixed("a.", eventCols) + ` FROM events a
		JOIN boards b ON b.id = a.board_id JOIN rounds r ON r.id = b.round_id
		WHERE ` + strings.Join(where, " AND ") + ` ORDER BY a.wall_ms DESC, a.seq DESC LIMIT ?`, append(args, limit)
}

// where writes q's filters common to both tables (aliased a, its board b,
// its round r).
func (q AuditQuery) where() ([]string, []any) {
	const actor, wall = "a.actor", "a.wall_ms"
	where, args := []string{"1"}, []any{}
	if q.BoardID != "" {
		where, args = append(where, "a.board_id = ?"), append(args, q.BoardID)
	}
	if q.RoundID != "" {
		where, args = append(where, "b.round_id = ?"), append(args, q.RoundID)
	}
	if q.TournamentID != "" {
		where, args = append(where, "r.tournament_id = ?"), append(args, q.TournamentID)
	}
	if q.Sections != nil {
		if len(q.Sections) == 0 {
			where = append(where, "0")
		} else {
			where = append(where, "b.section IN ("+strings.Repeat("?, ", len(q.Sections)-1)+"?)")
			for _, s := range q.Sections {
				args = append(args, s)
			}
		}
	}
	if q.Actor != "" {
		where = append(where, "("+actor+" = ? OR substr("+actor+", instr("+actor+", ':') + 1) = ? OR substr("+actor+", 1, instr("+actor+", ':') - 1) = ?)")
		args = append(args, q.Actor, q.Actor, q.Actor)
	}
	if !q.Since.IsZero() {
		where, args = append(where, wall+" >= ?"), append(args, q.Since.UnixMilli())
	}
	if !q.Until.IsZero() {
		where, args = append(where, wall+" < ?"), append(args, q.Until.UnixMilli())
	}
	return where, args
}

// prefixed qualifies each of a list of columns with p.
func prefixed(p, cols string) string {
	parts := strings.Split(cols, ", ")
	for i, c := range parts {
		parts[i] = p + c
	}
	return strings.Join(parts, ", ")
}
