package storage

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/chesshall/hallclock/rules"
)

// SnapshotEvery is the snapshot policy the server follows: it writes a
// snapshot (Tx.PutSnapshot, in the same Write as the event) after every
// SnapshotEvery-th event of a board and when a game ends. Snapshots are a
// cache: Replay gives the same state with or without them, they only
// bound how many events a restart folds per board.
const SnapshotEvery = 64

// stateType fingerprints the shape of rules.State as JSON sees it. A
// snapshot written for another shape (after an upgrade changed the type)
// is ignored, and the board is replayed from its first event.
var stateType = typeFingerprint(reflect.TypeFor[rules.State]())

func typeFingerprint(t reflect.Type) string {
	var b strings.Builder
	seen := map[reflect.Type]bool{}
	var walk func(reflect.Type)
	walk = func(t reflect.Type) {
		switch t.Kind() {
		case reflect.Struct:
			if seen[t] {
				b.WriteString(t.String())
				return
			}
			seen[t] = true
			b.WriteString(t.String() + "{")
			for i := range t.NumField() {
				f := t.Field(i)
				fmt.Fprintf(&b, "%s %q ", f.Name, f.Tag)
				walk(f.Type)
				b.WriteString(";")
			}
			b.WriteString("}")
		case reflect.Pointer:
			b.WriteString("*")
			walk(t.Elem())
		case reflect.Slice:
			b.WriteString("[]")
			walk(t.Elem())
		case reflect.Array:
			fmt.Fprintf(&b, "[%d]", t.Len())
			walk(t.Elem())
		case reflect.Map:
			b.WriteString("map[")
			walk(t.Key())
			b.WriteString("]")
			walk(t.Elem())
		default:
			b.WriteString(t.String() + "/" + t.Kind().String())
		}
	}
	walk(t)
	sum := sha256.Sum256([]byte(b.String()))
	return "json1-" + hex.EncodeToString(sum[:8])
}

// Snapshot returns the board's cached state and the number of events it
// follows, or ErrNotFound if the board has none (or only one written for
// another shape of rules.State).
func (s *Store) Snapshot(ctx context.Context, boardID string) (rules.State, uint64, error) {
	db, err := s.reader()
	if err != nil {
		return rules.State{}, 0, err
	}
	return snapshot(ctx, db, boardID)
}

func snapshot(ctx context.Context, q querier, boardID string) (rules.State, uint64, error) {
	var (
		st       rules.State
		boardSeq uint64
		typ, js  string
	)
	err := q.QueryRowContext(ctx, `SELECT board_seq, state_type, state_json FROM snapshots WHERE board_id = ?`, boardID).
		Scan(&boardSeq, &typ, &js)
	if errors.Is(err, sql.ErrNoRows) {
		return st, 0, errorf(ErrNotFound, "board %s: no snapshot", boardID)
	}
	if err != nil {
		return st, 0, fmt.Errorf("storage: board %s: snapshot: %w", boardID, err)
	}
	if typ != stateType {
		return st, 0, errorf(ErrNotFound, "board %s: the snapshot is of another version of the rules (%s, not %s)", boardID, typ, stateType)
	}
	if err := json.Unmarshal([]byte(js), &st); err != nil {
		return rules.State{}, 0, fmt.Errorf("storage: board %s: snapshot after event %d: %w", boardID, boardSeq, err)
	}
	return st, boardSeq, nil
}

// Replay returns the board's state after all its committed events and the
// board_seq of the last one: the snapshot, if there is a usable one, with
// the events after it applied by rules.Apply; else rules.NewState of the
// board's config with all of them applied. Board, snapshot and events are
// read in one read transaction, so they agree. An unknown board is
// ErrNotFound; an event the rules now refuse is an error naming it.
func (s *Store) Replay(ctx context.Context, boardID string) (rules.State, uint64, error) {
	st, seq, _, err := s.replay(ctx, boardID, true, false)
	return st, seq, err
}

// A Passed is an event of a board's log that the rules of this version
// refuse: it was acknowledged under an earlier version, whose rules took
// it (a rule was corrected since, say). A replay that passes over it keeps
// the state as it was before the event and goes on with the next one.
type Passed struct {
	BoardSeq uint64
	Event    rules.Event
	Refusal  *rules.Refusal
}

// ReplayPassing is Replay for a hall starting: an event the rules now
// refuse does not keep the hall from starting. It is passed over and
// returned, for the arbiters to be told; any other fault is an error.
func (s *Store) ReplayPassing(ctx context.Context, boardID string) (rules.State, uint64, []Passed, error) {
	return s.replay(ctx, boardID, true, true)
}

// ReplayFromScratch is Replay without the snapshot: every event of the
// board folded from rules.NewState. Replay and ReplayFromScratch return
// equal states (reflect.DeepEqual); it exists to check that, and to
// rebuild a board whose snapshot is suspect.
func (s *Store) ReplayFromScratch(ctx context.Context, boardID string) (rules.State, uint64, error) {
	st, seq, _, err := s.replay(ctx, boardID, false, false)
	return st, seq, err
}

func (s *Store) replay(ctx context.Context, boardID string, useSnapshot, pass bool) (st rules.State, after uint64, passed []Passed, err error) {
	db, err := s.reader()
	if err != nil {
		return rules.State{}, 0, nil, err
	}
	tx, err := db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return rules.State{}, 0, nil, fmt.Errorf("storage: board %s: replay: %w", boardID, err)
	}
	defer tx.Rollback()

	b, err := board(ctx, tx, boardID)
	if err != nil {
		return rules.State{}, 0, nil, err
	}
	var have bool
	if useSnapshot {
		st, after, err = snapshot(ctx, tx, boardID)
		switch {
		case err == nil:
			have = true
			// The board's play under the rules for visually disabled
			// players may have changed since the snapshot (SetBoardBlind):
			// it changes no event, so only the configuration is newer.
			st.Config.Blind = b.Config.Blind
		case errors.Is(err, ErrNotFound):
		default:
			s.log.Warn("storage: snapshot unusable, replaying from the first event", "board", boardID, "err", err)
		}
	}
	if !have {
		after = 0
		if st, err = rules.NewState(b.Config); err != nil {
			return rules.State{}, 0, nil, fmt.Errorf("storage: board %s: config: %w", boardID, err)
		}
	}
	evs, err := events(ctx, tx, boardID, after)
	if err != nil {
		return rules.State{}, 0, nil, err
	}
	return fold(boardID, st, after, evs, pass)
}

// fold applies evs, the board's events after event after, to st, its
// state after that event. With pass, an event the rules refuse is passed
// over and returned; else it is an error, as is a gap in the log.
func fold(boardID string, st rules.State, after uint64, evs []EventRecord, pass bool) (rules.State, uint64, []Passed, error) {
	var passed []Passed
	for _, e := range evs {
		if e.BoardSeq != after+1 {
			return rules.State{}, 0, nil, fmt.Errorf("storage: board %s: the log jumps from event %d to %d", boardID, after, e.BoardSeq)
		}
		next, err := rules.Apply(st, e.Event)
		var refusal *rules.Refusal
		switch {
		case err == nil:
			st = next
		case pass && errors.As(err, &refusal):
			passed = append(passed, Passed{BoardSeq: e.BoardSeq, Event: e.Event, Refusal: refusal})
		default:
			return rules.State{}, 0, nil, fmt.Errorf("storage: board %s: replaying event %d (%s): %w", boardID, e.BoardSeq, e.Event, err)
		}
		after = e.BoardSeq
	}
	return st, after, passed, nil
}
