package storage

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"

	"github.com/chesshall/hallclock/rules"
)

// A LoadedBoard is one board as a hall starting needs it: its record, its
// state after all its committed events (as ReplayPassing gives it), the
// events the rules now refuse that were passed over, and where its log
// ends.
type LoadedBoard struct {
	Board  BoardRecord
	State  rules.State
	Head   Head // Head.BoardSeq is the last event folded into State
	Passed []Passed
}

// tailQuery reads every board's events from its snapshot's event on (all
// of them for a board without a usable snapshot), board by board and in
// order. CROSS JOIN keeps the boards the outer loop, so each board's tail
// is one seek into the (board_id, board_seq) index; left to itself the
// planner scans that whole index, every event of the hall
// (TestLoadBoardsSeeksEachTail).
const tailQuery = `SELECT e.seq, e.board_id, e.board_seq, e.event_json, e.device_id, e.device_seq, e.command_id, e.actor, e.reason, e.wall_ms
	FROM boards b LEFT JOIN snapshots s ON s.board_id = b.id AND s.state_type = ?
	CROSS JOIN events e
	WHERE e.board_id = b.id AND e.board_seq >= COALESCE(s.board_seq, 1)
	ORDER BY b.id, e.board_seq`

// LoadBoards returns every board of the hall, in the order of Boards(""),
// each replayed as ReplayPassing replays it and with its Head. It reads
// them in one read transaction and a fixed number of statements, whatever
// the number of boards: a start of ten thousand boards spent most of its
// time on the five statements that Replay and Head ran for each board.
func (s *Store) LoadBoards(ctx context.Context) ([]LoadedBoard, error) {
	db, err := s.reader()
	if err != nil {
		return nil, err
	}
	tx, err := db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("storage: loading the boards: %w", err)
	}
	defer tx.Rollback()

	bs, err := queryAll(ctx, tx, scanBoard, `SELECT `+boardCols+` FROM boards ORDER BY round_id, section, number`)
	if err != nil {
		return nil, err
	}
	out := make([]LoadedBoard, len(bs))
	at := make(map[string]int, len(bs))
	for i, b := range bs {
		out[i].Board = b
		at[b.ID] = i
	}
	snaps, err := loadSnapshots(ctx, tx)
	if err != nil {
		return nil, err
	}
	rulings, err := lastRulings(ctx, tx)
	if err != nil {
		return nil, err
	}

	// The tails, one board at a time; a board whose snapshot cannot be
	// read is replayed from its first event once the cursor is closed.
	var (
		redo    []int
		tail    []EventRecord
		boardAt = -1
	)
	flush := func() error {
		if boardAt < 0 {
			return nil
		}
		i := boardAt
		unusable, err := loadBoard(&out[i], snaps[out[i].Board.ID], tail)
		if err != nil {
			return err
		}
		if unusable != nil {
			s.log.Warn("storage: snapshot unusable, replaying from the first event", "board", out[i].Board.ID, "err", unusable)
			redo = append(redo, i)
		}
		return nil
	}
	rows, err := tx.QueryContext(ctx, tailQuery, stateType)
	if err != nil {
		return nil, fmt.Errorf("storage: loading the boards' events: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		e, err := scanEvent(rows)
		if err != nil {
			return nil, err
		}
		if boardAt < 0 || e.BoardID != out[boardAt].Board.ID {
			if err := flush(); err != nil {
				return nil, err
			}
			i, ok := at[e.BoardID]
			if !ok {
				return nil, fmt.Errorf("storage: loading the boards: events of board %s, which is not among them", e.BoardID)
			}
			boardAt, tail = i, tail[:0]
		}
		tail = append(tail, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("storage: loading the boards' events: %w", err)
	}
	if err := flush(); err != nil {
		return nil, err
	}
	rows.Close()

	for i := range out {
		b := &out[i]
		if b.Head.BoardSeq == 0 { // no events: the state its configuration starts with
			if _, err := loadBoard(b, storedSnapshot{}, nil); err != nil {
				return nil, err
			}
		}
		b.Head.LastRuling = rulings[b.Board.ID]
	}
	for _, i := range redo {
		evs, err := events(ctx, tx, out[i].Board.ID, 0)
		if err != nil {
			return nil, err
		}
		if _, err := loadBoard(&out[i], storedSnapshot{}, evs); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// A storedSnapshot is a snapshot row not yet decoded.
type storedSnapshot struct {
	boardSeq uint64
	js       string
}

// byBoard reads a query's rows, each a board id and the columns scan
// reads, into a map by board.
func byBoard[T any](ctx context.Context, q querier, what string, scan func(sc scanner, id *string) (T, error), query string, args ...any) (map[string]T, error) {
	type row struct {
		id string
		v  T
	}
	rows, err := queryAll(ctx, q, func(sc scanner) (r row, err error) {
		r.v, err = scan(sc, &r.id)
		if err != nil {
			err = scanErr(what, err)
		}
		return r, err
	}, query, args...)
	if err != nil {
		return nil, err
	}
	out := make(map[string]T, len(rows))
	for _, r := range rows {
		out[r.id] = r.v
	}
	return out, nil
}

// loadSnapshots reads the snapshots written for this shape of
// rules.State.
func loadSnapshots(ctx context.Context, q querier) (map[string]storedSnapshot, error) {
	return byBoard(ctx, q, "the snapshots", func(sc scanner, id *string) (sn storedSnapshot, err error) {
		err = sc.Scan(id, &sn.boardSeq, &sn.js)
		return sn, err
	}, `SELECT board_id, board_seq, state_json FROM snapshots WHERE state_type = ?`, stateType)
}

const lastRulingsQuery = `SELECT board_id, MAX(board_seq) FROM events WHERE kind IN (` + rulingKindsSQL + `) GROUP BY board_id`

// lastRulings reads every board's Head.LastRuling in one pass over the
// events_rulings index.
func lastRulings(ctx context.Context, q querier) (map[string]uint64, error) {
	return byBoard(ctx, q, "the boards' last rulings", func(sc scanner, id *string) (seq uint64, err error) {
		err = sc.Scan(id, &seq)
		return seq, err
	}, lastRulingsQuery)
}

// loadBoard folds a board's tail, as tailQuery reads it: with a usable
// snapshot, from the snapshot's own event on; without one (sn zero), all
// its events, if any. When the snapshot cannot be decoded it returns why,
// having set only the Head.
func loadBoard(b *LoadedBoard, sn storedSnapshot, tail []EventRecord) (unusable, err error) {
	id := b.Board.ID
	if len(tail) > 0 {
		last := tail[len(tail)-1]
		b.Head.BoardSeq, b.Head.Seq = last.BoardSeq, last.Seq
	}
	var (
		st    rules.State
		after uint64
	)
	if sn.boardSeq > 0 {
		if err := json.Unmarshal([]byte(sn.js), &st); err != nil {
			return fmt.Errorf("snapshot after event %d: %w", sn.boardSeq, err), nil
		}
		if tail[0].BoardSeq != sn.boardSeq {
			return nil, fmt.Errorf("storage: board %s: a snapshot after event %d, which is not in the log", id, sn.boardSeq)
		}
		// SetBoardBlind changes no event: only the configuration is newer.
		st.Config.Blind = b.Board.Config.Blind
		after, tail = sn.boardSeq, tail[1:]
	} else if st, err = rules.NewState(b.Board.Config); err != nil {
		return nil, fmt.Errorf("storage: board %s: config: %w", id, err)
	}
	b.State, _, b.Passed, err = fold(id, st, after, tail, true)
	return nil, err
}
