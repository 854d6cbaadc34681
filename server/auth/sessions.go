package auth

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/chesshall/hallclock/server/hallerr"
)

// Sign-in for the web pages.
//
// Tokens never travel in URLs (they end up in browser histories, proxy
// logs and screenshots). An HTTP request proves who it is in one of two
// ways:
//
//   - Authorization: Bearer <token>, for programs (curl, feeds, gateways);
//   - the session cookie, for browsers: a person signs in once (POST
//     /signin with a token, or a one-time sign-in code), and the server
//     answers with a session cookie (HttpOnly, SameSite=Strict, Secure
//     over HTTPS, path /) naming a random session id, kept in memory.
//
// A session lives SessionTTL (12 h) at most, and ends when its token is
// revoked, when the person signs out (POST /signout) or when the server
// restarts (sign in again). Requests authenticated by the cookie that
// change state (any method but GET, HEAD, OPTIONS) must carry the
// session's CSRF token, in the X-CSRF-Token header or a csrf form field,
// and an Origin, when the browser sends one, of this server; the page gets
// the token from GET /api/session. A sign-in (POST) from another origin is
// refused too.
//
// A sign-in code (IssueCode) is a one-time, short-lived (CodeTTL, 15 min)
// stand-in for a token, so a link can sign a person in without carrying a
// token: GET /signin?code=... exchanges it for a session once.
//
// # Endpoints
//
//	GET  /signin               the sign-in form; with ?code=, signs in with the code
//	POST /signin               form field token (or code): signs in, 303 to next (default /)
//	POST /signout              form field csrf: signs out, 303 to /signin
//	GET  /api/session          {"role", "label", "csrf", "expires_unix_ms"} or 401
//	POST /api/session          form field token or code: signs in, the same JSON
//	DELETE /api/session        (X-CSRF-Token) signs out
//
// Handlers of the web pages read the caller with Sessions.WebIdentity (or
// Sessions.Identity), which does all of the above checks.

// SessionCookie is the name of the session cookie.
const SessionCookie = "hall_session"

// Lifetimes of sessions and sign-in codes.
const (
	SessionTTL = 12 * time.Hour
	CodeTTL    = 15 * time.Minute
)

// Sessions are the web sign-ins of one server, in memory.
type Sessions struct {
	tokens *Tokens
	now    func() time.Time

	mu       sync.Mutex
	sessions map[string]*webSession // by hash of the cookie's session id
	codes    map[string]signInCode  // by hash of the code
}

type webSession struct {
	tokenID string
	csrf    string
	expires time.Time
}

type signInCode struct {
	tokenID string
	expires time.Time
}

// NewSessions returns the web sign-ins of tokens, in memory; now is the
// clock of their lifetimes.
func NewSessions(tokens *Tokens, now func() time.Time) *Sessions {
	return &Sessions{tokens: tokens, now: now, sessions: map[string]*webSession{}, codes: map[string]signInCode{}}
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

// IssueCode returns a one-time sign-in code for the token secret, valid
// for CodeTTL: GET /signin?code=<code> signs a browser in as the token.
func (ss *Sessions) IssueCode(secret string) (string, error) {
	id, ok := ss.tokens.Lookup(secret)
	if !ok {
		return "", fmt.Errorf("%w: unknown or revoked token", hallerr.ErrUnauthenticated)
	}
	code := "sc_" + randomID(18)
	ss.mu.Lock()
	ss.pruneLocked()
	ss.codes[hashOf(code)] = signInCode{tokenID: id.TokenID, expires: ss.now().Add(CodeTTL)}
	ss.mu.Unlock()
	return code, nil
}

// pruneLocked drops expired sessions and codes.
func (ss *Sessions) pruneLocked() {
	now := ss.now()
	for k, v := range ss.sessions {
		if now.After(v.expires) {
			delete(ss.sessions, k)
		}
	}
	for k, v := range ss.codes {
		if now.After(v.expires) {
			delete(ss.codes, k)
		}
	}
}

// credentialIdentity resolves a token secret or a sign-in code (used up).
func (ss *Sessions) credentialIdentity(credential string) (*Identity, error) {
	credential = strings.TrimSpace(credential)
	if strings.HasPrefix(credential, "sc_") {
		ss.mu.Lock()
		c, ok := ss.codes[hashOf(credential)]
		delete(ss.codes, hashOf(credential))
		ss.mu.Unlock()
		if !ok || ss.now().After(c.expires) {
			return nil, fmt.Errorf("%w: the sign-in code is unknown, used or expired (codes work once, for %s): sign in with a token", hallerr.ErrUnauthenticated, CodeTTL)
		}
		id, ok := ss.tokens.LookupID(c.tokenID)
		if !ok {
			return nil, fmt.Errorf("%w: the code's token was revoked", hallerr.ErrUnauthenticated)
		}
		return id, nil
	}
	if credential == "" {
		return nil, fmt.Errorf("%w: give a token (or a sign-in code)", hallerr.ErrUnauthenticated)
	}
	id, ok := ss.tokens.Lookup(credential)
	if !ok {
		return nil, fmt.Errorf("%w: unknown or revoked token", hallerr.ErrUnauthenticated)
	}
	return id, nil
}

// SignIn exchanges a token secret or a sign-in code for a session: it sets
// the session cookie on w and returns the session. Devices do not sign in.
func (ss *Sessions) SignIn(w http.ResponseWriter, r *http.Request, credential string) (*Identity, SessionInfo, error) {
	if err := sameOrigin(r); err != nil {
		return nil, SessionInfo{}, err
	}
	id, err := ss.credentialIdentity(credential)
	if err != nil {
		return nil, SessionInfo{}, err
	}
	if id.Role == RoleDevice {
		return nil, SessionInfo{}, fmt.Errorf("%w: clock devices do not sign in to the web pages", hallerr.ErrPermission)
	}
	sid := randomID(24)
	sess := &webSession{tokenID: id.TokenID, csrf: randomID(18), expires: ss.now().Add(SessionTTL)}
	ss.mu.Lock()
	ss.pruneLocked()
	ss.sessions[hashOf(sid)] = sess
	ss.mu.Unlock()
	http.SetCookie(w, &http.Cookie{Name: SessionCookie, Value: sid, Path: "/", HttpOnly: true, Secure: r.TLS != nil,
		SameSite: http.SameSiteStrictMode, MaxAge: int(SessionTTL / time.Second)})
	return id, info(id, sess), nil
}

func info(id *Identity, s *webSession) SessionInfo {
	return SessionInfo{Role: id.Role, Label: id.Label, CSRF: s.csrf, ExpiresUnixMs: s.expires.UnixMilli(), Sections: id.Sections,
		Board: id.BoardID, Side: id.Side}
}

// SignOut ends the request's session (if any) and clears the cookie. It
// checks the CSRF token like any state-changing request.
func (ss *Sessions) SignOut(w http.ResponseWriter, r *http.Request) error {
	if _, _, err := ss.session(r); err != nil {
		return err
	}
	if c, err := r.Cookie(SessionCookie); err == nil {
		ss.mu.Lock()
		delete(ss.sessions, hashOf(c.Value))
		ss.mu.Unlock()
	}
	http.SetCookie(w, &http.Cookie{Name: SessionCookie, Value: "", Path: "/", HttpOnly: true, Secure: r.TLS != nil,
		SameSite: http.SameSiteStrictMode, MaxAge: -1})
	return nil
}

// session returns the request's session and its identity, checking the
// CSRF token and origin of a state-changing request.
func (ss *Sessions) session(r *http.Request) (*Identity, *webSession, error) {
	c, err := r.Cookie(SessionCookie)
	if err != nil || c.Value == "" {
		return nil, nil, fmt.Errorf("%w: not signed in: sign in at /signin, or send 'Authorization: Bearer <token>'", hallerr.ErrUnauthenticated)
	}
	ss.mu.Lock()
	sess, ok := ss.sessions[hashOf(c.Value)]
	ss.mu.Unlock()
	if !ok || ss.now().After(sess.expires) {
		return nil, nil, fmt.Errorf("%w: the session has ended: sign in again at /signin", hallerr.ErrUnauthenticated)
	}
	id, ok := ss.tokens.LookupID(sess.tokenID)
	if !ok {
		return nil, nil, fmt.Errorf("%w: the session's token was revoked", hallerr.ErrUnauthenticated)
	}
	if !safeMethod(r.Method) {
		if err := sameOrigin(r); err != nil {
			return nil, nil, err
		}
		got := r.Header.Get("X-CSRF-Token")
		if got == "" {
			got = r.PostFormValue("csrf")
		}
		if subtle.ConstantTimeCompare([]byte(got), []byte(sess.csrf)) != 1 {
			return nil, nil, fmt.Errorf("%w: a %s signed in by cookie needs the session's CSRF token (X-CSRF-Token header or csrf form field, from GET /api/session)", hallerr.ErrPermission, r.Method)
		}
	}
	return id, sess, nil
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
	id, _, err := ss.session(r)
	return id, err
}

// Info returns what GET /api/session says of the request's session.
func (ss *Sessions) Info(r *http.Request) (SessionInfo, error) {
	id, sess, err := ss.session(r)
	if err != nil {
		return SessionInfo{}, err
	}
	return info(id, sess), nil
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
