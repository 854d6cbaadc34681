package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/chesshall/hallclock/rules"
)

// RulingKinds are the events that may be an arbiter's ruling changing a
// clock's time (a penalty, time added, a clock set). The index
// events_rulings (migration 00070) covers exactly these kinds; a change
// here needs a migration changing it (TestRulingKindsUseTheIndex).
var RulingKinds = []rules.Kind{
	rules.KindIllegalMove, rules.KindIllegalMoveFound, rules.KindDrawClaimRejected, rules.KindQuickplayClaim,
	rules.KindQuickplayIncrement, rules.KindAddTime, rules.KindSetClock,
}

// rulingKindsSQL is RulingKinds as the index's WHERE clause names them.
const rulingKindsSQL = `'illegal_move', 'illegal_move_found', 'draw_claim_rejected', 'quickplay_claim',
	'quickplay_increment', 'add_time', 'set_clock'`

const lastRulingQuery = `SELECT COALESCE(MAX(board_seq), 0) FROM events WHERE board_id = ?
	AND kind IN (` + rulingKindsSQL + `)`

// Head is where a board's log ends.
type Head struct {
	BoardSeq   uint64 // the board's last event (0: none)
	Seq        uint64 // its sequence number in the hall's log (0: none)
	LastRuling uint64 // the board_seq of its last event of RulingKinds (0: none)
}

// Head reads where board boardID's log ends without reading the log: a
// server starting up needs this of every board, and reading each board's
// whole history made a start scale with the hall's history.
func (s *Store) Head(ctx context.Context, boardID string) (Head, error) {
	db, err := s.reader()
	if err != nil {
		return Head{}, err
	}
	var h Head
	err = db.QueryRowContext(ctx, `SELECT board_seq, seq FROM events WHERE board_id = ? ORDER BY board_seq DESC LIMIT 1`, boardID).
		Scan(&h.BoardSeq, &h.Seq)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return Head{}, fmt.Errorf("storage: board %s: reading the end of its log: %w", boardID, err)
	}
	if err := db.QueryRowContext(ctx, lastRulingQuery, boardID).Scan(&h.LastRuling); err != nil {
		return Head{}, fmt.Errorf("storage: board %s: reading its last ruling: %w", boardID, err)
	}
	return h, nil
}
