package auth

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/chesshall/hallclock/server/hallerr"
	"github.com/chesshall/hallclock/storage"
)

// Sign-in for the web pages.
//
// Tokens never travel in URLs (they end up in browser histories, proxy
// logs and screenshots). An HTTP request proves who it is in one of two
// ways:
//
//   - Authorization: Bearer <token>, for programs (curl, feeds, gateways);
//   - the session cookie, for browsers: a person signs in once (POST
//     /signin with a token, or a one-time sign-in link's code), and the
//     server answers with a session cookie (HttpOnly, SameSite=Strict,
//     Secure over HTTPS, path /) naming a random session id. The hall's
//     database keeps the session by the hash of that id, so a restart
//     signs nobody out.
//
// A session lives SessionTTL (12 h) at most, and ends when its token is
// revoked, or when the person signs out (POST /signout). Requests
// authenticated by the cookie that change state (any method but GET,
// HEAD, OPTIONS) must carry the session's CSRF token (derived from the
// session id), in the X-CSRF-Token header or a csrf form field, and an
// Origin, when the browser sends one, of this server; the page gets the
// token from GET /api/session. A sign-in (POST) from another origin is
// refused too.
//
// A sign-in link (IssueLink, links.go) is a one-time, short-lived
// (CodeTTL, 15 min) stand-in for a token, so a link can sign a person in
// without carrying a token: /signin?code=.... Opening it (GET) only shows
// who it signs in as, with a button: a chat app's preview or a mail
// scanner fetching it spends nothing. The button's POST spends it, once.
//
// # Endpoints
//
//	GET  /signin               the sign-in form; with ?code=, who the link signs in as and a button
//	POST /signin               form field token (or code): signs in, 303 to next (default /)
//	POST /signout              form field csrf: signs out, 303 to /signin
//	GET  /api/session          {"role", "label", "csrf", "expires_unix_ms", "time_zone"} or 401
//	POST /api/session          form field token or code: signs in, the same JSON
//	DELETE /api/session        (X-CSRF-Token) signs out
//
// Handlers of the web pages read the caller with Sessions.WebIdentity (or
// Sessions.Identity), which does all of the above checks.

// SessionCookie is the name of the session cookie.
const SessionCookie = "hall_session"

// Lifetimes of sessions and sign-in links.
const (
	SessionTTL = 12 * time.Hour
	CodeTTL    = 15 * time.Minute
)

// Sessions are the web sign-ins of one hall, kept in its store (so that a
// restart signs nobody out) and in memory for the requests' lookups.
type Sessions struct {
	tokens *Tokens
	store  *storage.Store
	now    func() time.Time
	zone   *time.Location // the hall's: the audit says a link's expiry in it (SetZone)

	mu       sync.Mutex
	sessions map[string]storage.WebSession // by hash of the cookie's session id
}

// SetZone sets the hall's time zone, in which the audit says a sign-in
// link's expiry (default UTC). Call it before serving.
func (ss *Sessions) SetZone(loc *time.Location) { ss.zone = loc }

// LoadSessions returns the web sign-ins of tokens, reading the sessions
// still valid from the tokens' store; now is the clock of their
// lifetimes (wall time: they are stored as such).
func LoadSessions(ctx context.Context, tokens *Tokens, now func() time.Time) (*Sessions, error) {
	ss := &Sessions{tokens: tokens, store: tokens.store, now: now, sessions: map[string]storage.WebSession{}}
	stored, err := ss.store.WebSessions(ctx, now())
	if err != nil {
		return nil, err
	}
	for _, ws := range stored {
		ss.sessions[ws.Hash] = ws
	}
	return ss, nil
}

// SessionInfo is what GET /api/session tells the page.
type SessionInfo struct {
	Role          Role     `json:"role"`
	Label         string   `json:"label"`
	CSRF          string   `json:"csrf"`
	ExpiresUnixMs int64    `json:"expires_unix_ms"`
	Sections      []string `json:"sections,omitempty"` // an arbiter limited to sections: those
	// Board and Side: an assistant's board and the player he assists.
	Board string `json:"board_id,omitempty"`
	Side  string `json:"side,omitempty"`
	// DelayMs: what this session watches lags the hall by this much (a
	// broadcast token under a broadcast delay); 0: live.
	DelayMs int64 `json:"delay_ms,omitempty"`
	// ServerUnixMs is the server's clock when it answered, for pages that
	// extrapolate running clocks from the states' server_unix_ms.
	ServerUnixMs int64 `json:"server_unix_ms,omitempty"`
	// TimeZone is the hall's time zone (IANA name, "Asia/Yerevan"): the
	// pages show the hall's times in it (Intl.DateTimeFormat's timeZone).
	TimeZone string `json:"time_zone,omitempty"`
}

func randomID(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

func hashOf(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// csrfOf is a session's CSRF token: derived from the session id (which
// only the browser's cookie holds), so that the store keeps no secret of
// a session and the token survives a restart with it.
func csrfOf(sid string) string {
	h := sha256.Sum256([]byte("hall csrf\x00" + sid))
	return base64.RawURLEncoding.EncodeToString(h[:18])
}

// signInError is what a refused sign-in link says, whatever the reason
// (unknown, used, expired): the same words, so a guess learns nothing.
func signInError() error {
	return fmt.Errorf("%w: the sign-in link is unknown, used or expired (a link signs one browser in, once, within %s of being made): ask for a new one, or sign in with a token", hallerr.ErrUnauthenticated, CodeTTL)
}

// SignIn exchanges a token secret or a sign-in link's code for a session:
// it stores the session (a code is spent in the same transaction), sets
// the session cookie on w and returns the session. Devices do not sign in.
func (ss *Sessions) SignIn(w http.ResponseWriter, r *http.Request, credential string) (*Identity, SessionInfo, error) {
	if err := sameOrigin(r); err != nil {
		return nil, SessionInfo{}, err
	}
	credential = strings.TrimSpace(credential)
	var id *Identity
	link := ""
	switch {
	case strings.HasPrefix(credential, codePrefix):
		link = hashOf(credential)
	case credential == "":
		return nil, SessionInfo{}, fmt.Errorf("%w: give a token (or a sign-in link's code)", hallerr.ErrUnauthenticated)
	default:
		var ok bool
		if id, ok = ss.tokens.Lookup(credential); !ok {
			return nil, SessionInfo{}, fmt.Errorf("%w: unknown or revoked token", hallerr.ErrUnauthenticated)
		}
	}
	now := ss.now()
	sid := randomID(24)
	ws := storage.WebSession{Hash: hashOf(sid), Created: now, Expires: now.Add(SessionTTL)}
	err := ss.store.Write(r.Context(), func(tx *storage.Tx) error {
		if link != "" {
			l, err := tx.SpendSignInLink(link, now)
			if err != nil {
				return err
			}
			var ok bool
			if id, ok = ss.tokens.LookupID(l.TokenID); !ok {
				return fmt.Errorf("%w: the sign-in link's token was revoked", hallerr.ErrUnauthenticated)
			}
			what := "signed in with a link made by " + l.MadeBy
			if err := tx.AddAudit(&storage.AuditRecord{Actor: id.Actor(), What: what, Outcome: storage.OutcomeApplied,
				Kind: "did.signin_with_link", Params: map[string]string{"by": l.MadeBy, "text": what}}); err != nil {
				return err
			}
		}
		if id.Role == RoleDevice {
			return fmt.Errorf("%w: clock devices do not sign in to the web pages", hallerr.ErrPermission)
		}
		ws.TokenID = id.TokenID
		if err := tx.PruneSignIns(now); err != nil {
			return err
		}
		return tx.PutWebSession(ws)
	})
	if errors.Is(err, storage.ErrNotFound) || errors.Is(err, storage.ErrLinkUsed) || errors.Is(err, storage.ErrLinkExpired) {
		err = signInError()
	}
	if err != nil {
		return nil, SessionInfo{}, err
	}
	ss.mu.Lock()
	ss.pruneLocked(now)
	ss.sessions[ws.Hash] = ws
	ss.mu.Unlock()
	http.SetCookie(w, &http.Cookie{Name: SessionCookie, Value: sid, Path: "/", HttpOnly: true, Secure: r.TLS != nil,
		SameSite: http.SameSiteStrictMode, MaxAge: int(SessionTTL / time.Second)})
	return id, info(id, ws, sid), nil
}

// pruneLocked drops the sessions that expired from memory (the store's
// are pruned at each sign-in).
func (ss *Sessions) pruneLocked(now time.Time) {
	for k, v := range ss.sessions {
		if !now.Before(v.Expires) {
			delete(ss.sessions, k)
		}
	}
}

func info(id *Identity, s storage.WebSession, sid string) SessionInfo {
	return SessionInfo{Role: id.Role, Label: id.Label, CSRF: csrfOf(sid), ExpiresUnixMs: s.Expires.UnixMilli(), Sections: id.Sections,
		Board: id.BoardID, Side: id.Side}
}

// SignOut ends the request's session (if any) and clears the cookie. It
// checks the CSRF token like any state-changing request.
func (ss *Sessions) SignOut(w http.ResponseWriter, r *http.Request) error {
	_, ws, _, err := ss.session(r)
	if err != nil {
		return err
	}
	if err := ss.store.Write(r.Context(), func(tx *storage.Tx) error { return tx.EndWebSession(ws.Hash) }); err != nil {
		return err
	}
	ss.mu.Lock()
	delete(ss.sessions, ws.Hash)
	ss.mu.Unlock()
	http.SetCookie(w, &http.Cookie{Name: SessionCookie, Value: "", Path: "/", HttpOnly: true, Secure: r.TLS != nil,
		SameSite: http.SameSiteStrictMode, MaxAge: -1})
	return nil
}

// session returns the request's session, its identity and its session id,
// checking the CSRF token and origin of a state-changing request.
func (ss *Sessions) session(r *http.Request) (*Identity, storage.WebSession, string, error) {
	c, err := r.Cookie(SessionCookie)
	if err != nil || c.Value == "" {
		return nil, storage.WebSession{}, "", fmt.Errorf("%w: not signed in: sign in at /signin, or send 'Authorization: Bearer <token>'", hallerr.ErrUnauthenticated)
	}
	sid := c.Value
	ss.mu.Lock()
	ws, ok := ss.sessions[hashOf(sid)]
	ss.mu.Unlock()
	if !ok || !ss.now().Before(ws.Expires) {
		return nil, ws, "", fmt.Errorf("%w: the session has ended: sign in again at /signin", hallerr.ErrUnauthenticated)
	}
	id, ok := ss.tokens.LookupID(ws.TokenID)
	if !ok {
		ss.mu.Lock()
		delete(ss.sessions, ws.Hash) // the store's went with the token
		ss.mu.Unlock()
		return nil, ws, "", fmt.Errorf("%w: the session's token was revoked", hallerr.ErrUnauthenticated)
	}
	if !safeMethod(r.Method) {
		if err := sameOrigin(r); err != nil {
			return nil, ws, "", err
		}
		got := r.Header.Get("X-CSRF-Token")
		if got == "" {
			got = r.PostFormValue("csrf")
		}
		if subtle.ConstantTimeCompare([]byte(got), []byte(csrfOf(sid))) != 1 {
			return nil, ws, "", fmt.Errorf("%w: a %s signed in by cookie needs the session's CSRF token (X-CSRF-Token header or csrf form field, from GET /api/session)", hallerr.ErrPermission, r.Method)
		}
	}
	return id, ws, sid, nil
}

// Identity returns the caller of an HTTP request: its bearer token, or
// its session (with the checks of a state-changing request). A token in
// the URL (?token=) is refused: tokens never go in URLs.
func (ss *Sessions) Identity(r *http.Request) (*Identity, error) {
	if r.URL.Query().Has("token") {
		return nil, hallerr.BadRequest("tokens never go in URLs (they end up in histories and logs): send 'Authorization: Bearer <token>', or sign in at /signin")
	}
	if h := r.Header.Get("Authorization"); h != "" {
		secret, ok := strings.CutPrefix(h, "Bearer ")
		if !ok || secret == "" {
			return nil, fmt.Errorf("%w: send 'Authorization: Bearer <token>'", hallerr.ErrUnauthenticated)
		}
		id, ok := ss.tokens.Lookup(secret)
		if !ok {
			return nil, fmt.Errorf("%w: unknown or revoked token", hallerr.ErrUnauthenticated)
		}
		return id, nil
	}
	id, _, _, err := ss.session(r)
	return id, err
}

// Info returns what GET /api/session says of the request's session.
func (ss *Sessions) Info(r *http.Request) (SessionInfo, error) {
	id, ws, sid, err := ss.session(r)
	if err != nil {
		return SessionInfo{}, err
	}
	return info(id, ws, sid), nil
}

func safeMethod(m string) bool {
	return m == http.MethodGet || m == http.MethodHead || m == http.MethodOptions
}

// sameOrigin refuses a request whose Origin (sent by browsers on POST and
// cross-origin requests) is not this server.
func sameOrigin(r *http.Request) error {
	o := r.Header.Get("Origin")
	if o == "" {
		return nil // not a browser's cross-origin request; the CSRF token decides
	}
	u, err := url.Parse(o)
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	if err != nil || u.Scheme != scheme || u.Host != r.Host {
		return fmt.Errorf("%w: request from origin %q, not this server (%s://%s)", hallerr.ErrPermission, o, scheme, r.Host)
	}
	return nil
}

// WebIdentity returns the caller of an HTTP request if its role is one of
// roles (Identity, then the role): the door of the web pages' endpoints.
func (ss *Sessions) WebIdentity(r *http.Request, roles ...Role) (*Identity, error) {
	id, err := ss.Identity(r)
	if err != nil {
		return nil, err
	}
	if !slices.Contains(roles, id.Role) {
		return nil, fmt.Errorf("%w: role %s may not use %s", hallerr.ErrPermission, id.Role, r.URL.Path)
	}
	return id, nil
}
