package storage

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"time"
)

// StreamMarks is what the publisher must know of the hall's stream beyond
// the outbox.
type StreamMarks struct {
	// UnsignedUpTo: outbox rows up to it may be in the stream unsigned
	// (published before the hall signed its messages).
	UnsignedUpTo uint64
	// Restart: the stream's messages after outbox row RestartAfter are
	// not this hall's (it was restored from a backup, or the operator
	// asked): a stream holding any is purged and gets the hall whole.
	Restart      bool
	RestartAfter uint64
	// Tag, set when the stream was started again, goes on every message
	// id from then on: the restored hall's ids would otherwise be the
	// replaced hall's (de-duplicated by the stream as already stored).
	Tag string
}

// StreamMarks returns the stream's marks.
func (s *Store) StreamMarks(ctx context.Context) (StreamMarks, error) {
	db, err := s.reader()
	if err != nil {
		return StreamMarks{}, err
	}
	var (
		m     StreamMarks
		after sql.NullInt64
	)
	if err := db.QueryRowContext(ctx, `SELECT unsigned_upto, restart_after, stream_tag FROM hall WHERE id = 1`).Scan(&m.UnsignedUpTo, &after, &m.Tag); err != nil {
		return m, fmt.Errorf("storage: stream marks: %w", err)
	}
	m.Restart, m.RestartAfter = after.Valid, uint64(after.Int64)
	return m, nil
}

// RestartStream marks the stream's messages after this database's last
// outbox row as not the hall's: what a restore does, since the stream may
// hold what the hall wrote after the backup was taken, which this
// database never did. With all set, every message of the stream is
// marked (the operator's explicit reset). The publisher then purges a
// stream that holds any and publishes the hall whole (audited here).
func (s *Store) RestartStream(ctx context.Context, all bool, why string) error {
	return s.Write(ctx, func(tx *Tx) error {
		q := `UPDATE hall SET restart_after = COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'outbox'), 0) WHERE id = 1`
		if all {
			q = `UPDATE hall SET restart_after = 0 WHERE id = 1`
		}
		if _, err := tx.exec(q); err != nil {
			return fmt.Errorf("storage: stream restart: %w", err)
		}
		what, kind := "stream to be started again: "+why, "did.stream_restart"
		if all {
			kind = "did.stream_reset"
		}
		return tx.AddAudit(&AuditRecord{Actor: "server", What: what, Outcome: OutcomeApplied, Kind: kind, Params: map[string]string{"why": why, "text": what}})
	})
}

// StreamRestarted clears the restart mark once the stream holds nothing
// after it; with reseed, for a stream just purged, the outbox gets the
// whole hall in the same transaction (Tx.ReseedOutbox), numbered above
// the row above (the highest the purged stream held: followers apply only
// numbers above the last they applied), and the stream a new message id
// tag (StreamMarks.Tag).
func (s *Store) StreamRestarted(ctx context.Context, reseed bool, above uint64) error {
	return s.Write(ctx, func(tx *Tx) error {
		if _, err := tx.exec(`UPDATE hall SET restart_after = NULL WHERE id = 1`); err != nil {
			return fmt.Errorf("storage: stream restart: %w", err)
		}
		if !reseed {
			return nil
		}
		tag := "r" + strconv.FormatInt(s.wallMs(time.Time{}), 36)
		if _, err := tx.exec(`UPDATE hall SET stream_tag = ? WHERE id = 1`, tag); err != nil {
			return fmt.Errorf("storage: stream restart: %w", err)
		}
		for _, q := range []string{
			`UPDATE sqlite_sequence SET seq = ?1 WHERE name = 'outbox' AND seq < ?1`,
			`INSERT INTO sqlite_sequence (name, seq) SELECT 'outbox', ?1 WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'outbox')`,
		} {
			if _, err := tx.exec(q, above); err != nil {
				return fmt.Errorf("storage: stream restart: numbering the outbox above %d: %w", above, err)
			}
		}
		return tx.ReseedOutbox()
	})
}
