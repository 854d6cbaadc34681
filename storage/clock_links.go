package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Clock links: one-time links that make the browser that spends one a
// clock device (a tablet) of a board or of a table of the hall plan. Kept
// like sign-in links (sessions.go): by the hash of their code, spent once.

// DeviceTablet is the kind of a device enrolled by a clock link: a
// browser running the device library.
const DeviceTablet = "tablet"

// ClockLink is a one-time clock link.
type ClockLink struct {
	Hash       string // of the link's code
	BoardID    string // the board whose clock the browser becomes; "" for a table
	Venue      string // with Table: a table of this venue's hall plan ("" the hall)
	Table      int    // 0 for a board's link
	MadeBy     string // the actor who made it
	MakerToken string // the token they made it with
	Created    time.Time
	Expires    time.Time
	Used       time.Time // zero until spent
	DeviceID   string    // the device it made, once spent
}

// PutClockLink stores a new clock link.
func (t *Tx) PutClockLink(l ClockLink) error {
	_, err := t.exec(`INSERT INTO clock_links (hash, board_id, venue, table_no, made_by, maker_token, created_ms, expires_ms)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
		l.Hash, l.BoardID, l.Venue, l.Table, l.MadeBy, l.MakerToken, t.s.wallMs(l.Created), l.Expires.UnixMilli())
	if constraint(err) == "unique" {
		return errorf(ErrDuplicate, "clock link: already stored")
	}
	if err != nil {
		return fmt.Errorf("storage: clock link: %w", err)
	}
	return nil
}

// SpendClockLink marks a link used at now by the device it made and
// returns it, with the errors of SpendSignInLink: ErrNotFound, ErrLinkUsed,
// ErrLinkExpired. A link is spent once, whatever races.
func (t *Tx) SpendClockLink(hash, deviceID string, now time.Time) (ClockLink, error) {
	l, err := scanClockLink(t.queryRow(`SELECT `+clockLinkCols+` FROM clock_links WHERE hash = ?`, hash))
	if errors.Is(err, sql.ErrNoRows) {
		return l, errorf(ErrNotFound, "clock link: unknown")
	}
	if err != nil {
		return l, err
	}
	if err := t.spendOnce("clock_links", hash, l.Used, l.Expires, now); err != nil {
		return l, err
	}
	if _, err := t.exec(`UPDATE clock_links SET device_id = ? WHERE hash = ?`, deviceID, hash); err != nil {
		return l, fmt.Errorf("storage: clock link: %w", err)
	}
	l.Used, l.DeviceID = fromMs(now.UnixMilli()), deviceID
	return l, nil
}

// spendOnce marks the one-time link hash of table (signin_links,
// clock_links) used at now, if it was not (used zero) and has not expired.
func (t *Tx) spendOnce(table, hash string, used, expires, now time.Time) error {
	switch {
	case !used.IsZero():
		return ErrLinkUsed
	case !now.Before(expires):
		return ErrLinkExpired
	}
	if _, err := t.exec(`UPDATE `+table+` SET used_ms = ? WHERE hash = ? AND used_ms IS NULL`, now.UnixMilli(), hash); err != nil {
		return fmt.Errorf("storage: %s: %w", table, err)
	}
	return nil
}

const clockLinkCols = `hash, board_id, venue, table_no, made_by, maker_token, created_ms, expires_ms, used_ms, device_id`

func scanClockLink(sc scanner) (ClockLink, error) {
	var (
		l                ClockLink
		created, expires int64
		used             sql.NullInt64
	)
	if err := sc.Scan(&l.Hash, &l.BoardID, &l.Venue, &l.Table, &l.MadeBy, &l.MakerToken, &created, &expires, &used, &l.DeviceID); err != nil {
		return l, scanErr("clock link", err)
	}
	l.Created, l.Expires, l.Used = fromMs(created), fromMs(expires), fromNullMs(used)
	return l, nil
}

// ClockLinkByHash returns a clock link, used or not (check Used and
// Expires), or ErrNotFound. Reading it does not spend it.
func (s *Store) ClockLinkByHash(ctx context.Context, hash string) (ClockLink, error) {
	db, err := s.reader()
	if err != nil {
		return ClockLink{}, err
	}
	return queryOne(ctx, db, scanClockLink, "clock link: unknown", `SELECT `+clockLinkCols+` FROM clock_links WHERE hash = ?`, hash)
}

// PutDeviceKind records a device of kind (DeviceTablet) before it is first
// heard from, creating it if new; what it says later (TouchDevice) keeps
// its kind.
func (t *Tx) PutDeviceKind(id, kind string, now time.Time) error {
	_, err := t.exec(`INSERT INTO devices (id, last_seen_ms, kind) VALUES (?, ?, ?)
		ON CONFLICT (id) DO UPDATE SET kind = excluded.kind`, id, t.s.wallMs(now), kind)
	if err != nil {
		return fmt.Errorf("storage: device %s: %w", id, err)
	}
	return nil
}
