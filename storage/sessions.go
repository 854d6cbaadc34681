package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// The web pages' sign-ins, kept so that a restart signs nobody out: the
// sessions of browsers and the one-time sign-in links that make them.
// Both are stored by the hash of their secret (the caller hashes), never
// the secret itself. A token's revocation (Tx.RevokeToken) ends its
// sessions and unused links in the same transaction.

// WebSession is a browser's session: it acts as its token until Expires.
type WebSession struct {
	Hash    string // of the session id the browser's cookie holds
	TokenID string
	Created time.Time
	Expires time.Time
}

// SignInLink is a one-time sign-in link: its code signs one browser in as
// TokenID, once, before Expires.
type SignInLink struct {
	Hash    string // of the link's code
	TokenID string
	MadeBy  string // the actor who made it
	Created time.Time
	Expires time.Time
	Used    time.Time // zero until a browser signed in with it
}

// Errors of SpendSignInLink and SpendClockLink, wrapping ErrConflict.
var (
	ErrLinkUsed    = fmt.Errorf("%w: the link was used already", ErrConflict)
	ErrLinkExpired = fmt.Errorf("%w: the link has expired", ErrConflict)
)

// PutWebSession stores a new session.
func (t *Tx) PutWebSession(ws WebSession) error {
	_, err := t.exec(`INSERT INTO web_sessions (hash, token_id, created_ms, expires_ms) VALUES (?, ?, ?, ?)`,
		ws.Hash, ws.TokenID, t.s.wallMs(ws.Created), ws.Expires.UnixMilli())
	if constraint(err) == "unique" {
		return errorf(ErrDuplicate, "web session: already stored")
	}
	if err != nil {
		return fmt.Errorf("storage: web session of token %s: %w", ws.TokenID, err)
	}
	return nil
}

// EndWebSession deletes a session (signed out); an unknown one is no error.
func (t *Tx) EndWebSession(hash string) error {
	if _, err := t.exec(`DELETE FROM web_sessions WHERE hash = ?`, hash); err != nil {
		return fmt.Errorf("storage: web session: %w", err)
	}
	return nil
}

// PruneSignIns deletes the sessions and links that expired before now.
func (t *Tx) PruneSignIns(now time.Time) error {
	ms := now.UnixMilli()
	if _, err := t.exec(`DELETE FROM web_sessions WHERE expires_ms <= ?`, ms); err != nil {
		return fmt.Errorf("storage: web sessions: %w", err)
	}
	if _, err := t.exec(`DELETE FROM signin_links WHERE expires_ms <= ?`, ms); err != nil {
		return fmt.Errorf("storage: sign-in links: %w", err)
	}
	return nil
}

// endSignInsOf deletes a token's sessions and links (its revocation).
func (t *Tx) endSignInsOf(tokenID string) error {
	if _, err := t.exec(`DELETE FROM web_sessions WHERE token_id = ?`, tokenID); err != nil {
		return fmt.Errorf("storage: web sessions of token %s: %w", tokenID, err)
	}
	if _, err := t.exec(`DELETE FROM signin_links WHERE token_id = ?`, tokenID); err != nil {
		return fmt.Errorf("storage: sign-in links of token %s: %w", tokenID, err)
	}
	return nil
}

// PutSignInLink stores a new sign-in link.
func (t *Tx) PutSignInLink(l SignInLink) error {
	_, err := t.exec(`INSERT INTO signin_links (hash, token_id, made_by, created_ms, expires_ms) VALUES (?, ?, ?, ?, ?)`,
		l.Hash, l.TokenID, l.MadeBy, t.s.wallMs(l.Created), l.Expires.UnixMilli())
	if constraint(err) == "unique" {
		return errorf(ErrDuplicate, "sign-in link: already stored")
	}
	if err != nil {
		return fmt.Errorf("storage: sign-in link for token %s: %w", l.TokenID, err)
	}
	return nil
}

// SpendSignInLink marks a link used at now and returns it: ErrNotFound
// for an unknown link, ErrLinkUsed for one used already, ErrLinkExpired
// for one past its time. A link is spent once, whatever races.
func (t *Tx) SpendSignInLink(hash string, now time.Time) (SignInLink, error) {
	l, err := scanSignInLink(t.queryRow(`SELECT `+signInLinkCols+` FROM signin_links WHERE hash = ?`, hash))
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return l, errorf(ErrNotFound, "sign-in link: unknown")
	case err != nil:
		return l, err
	}
	if err := t.spendOnce("signin_links", hash, l.Used, l.Expires, now); err != nil {
		return l, err
	}
	l.Used = fromMs(now.UnixMilli())
	return l, nil
}

const signInLinkCols = `hash, token_id, made_by, created_ms, expires_ms, used_ms`

func scanSignInLink(sc scanner) (SignInLink, error) {
	var (
		l                SignInLink
		created, expires int64
		used             sql.NullInt64
	)
	if err := sc.Scan(&l.Hash, &l.TokenID, &l.MadeBy, &created, &expires, &used); err != nil {
		return l, scanErr("sign-in link", err)
	}
	l.Created, l.Expires, l.Used = fromMs(created), fromMs(expires), fromNullMs(used)
	return l, nil
}

// SignInLinkByHash returns a link, used or not (check Used and Expires),
// or ErrNotFound. Reading it does not spend it.
func (s *Store) SignInLinkByHash(ctx context.Context, hash string) (SignInLink, error) {
	db, err := s.reader()
	if err != nil {
		return SignInLink{}, err
	}
	return queryOne(ctx, db, scanSignInLink, "sign-in link: unknown", `SELECT `+signInLinkCols+` FROM signin_links WHERE hash = ?`, hash)
}

// WebSessions returns the sessions that have not expired at now, oldest
// first (a server loads them at start).
func (s *Store) WebSessions(ctx context.Context, now time.Time) ([]WebSession, error) {
	db, err := s.reader()
	if err != nil {
		return nil, err
	}
	return queryAll(ctx, db, func(sc scanner) (WebSession, error) {
		var (
			ws               WebSession
			created, expires int64
		)
		if err := sc.Scan(&ws.Hash, &ws.TokenID, &created, &expires); err != nil {
			return ws, scanErr("web session", err)
		}
		ws.Created, ws.Expires = fromMs(created), fromMs(expires)
		return ws, nil
	}, `SELECT hash, token_id, created_ms, expires_ms FROM web_sessions WHERE expires_ms > ? ORDER BY created_ms, hash`, now.UnixMilli())
}
