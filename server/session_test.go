package server_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/chesshall/hallclock/internal/testkit/halltest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/server/auth"
)

// web is a browser's view of the hall's HTTP port: a client that keeps
// the session cookie by hand (as a browser would, same origin).
type web struct {
	t      *testing.T
	h      *halltest.Hall
	base   string
	client *http.Client
	cookie *http.Cookie
}

func newWeb(t *testing.T, h *halltest.Hall) *web {
	return &web{t: t, h: h, base: h.HTTP(t), client: h.HTTPClient()}
}

// do sends a request with the session cookie (if any) and headers, and
// returns the response with its body read.
func (w *web) do(method, path string, form url.Values, header map[string]string) (*http.Response, string) {
	w.t.Helper()
	if form == nil {
		return w.send(method, path, nil, header)
	}
	h := map[string]string{"Content-Type": "application/x-www-form-urlencoded"}
	for k, v := range header {
		h[k] = v
	}
	return w.send(method, path, strings.NewReader(form.Encode()), h)
}

// send sends a request with the session cookie (if any), the body and the
// headers, and returns the response with its body read.
func (w *web) send(method, path string, body io.Reader, header map[string]string) (*http.Response, string) {
	w.t.Helper()
	req, err := http.NewRequest(method, w.base+path, body)
	if err != nil {
		w.t.Fatal(err)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	if w.cookie != nil {
		req.AddCookie(w.cookie)
	}
	resp, err := w.client.Do(req)
	if err != nil {
		w.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	for _, c := range resp.Cookies() {
		if c.Name == auth.SessionCookie {
			if c.MaxAge < 0 {
				w.cookie = nil
			} else {
				w.cookie = c
			}
		}
	}
	return resp, string(b)
}

func (w *web) session() auth.SessionInfo {
	w.t.Helper()
	resp, body := w.do("GET", "/api/session", nil, nil)
	if resp.StatusCode != 200 {
		w.t.Fatalf("GET /api/session = %d %s", resp.StatusCode, body)
	}
	var in auth.SessionInfo
	if err := json.Unmarshal([]byte(body), &in); err != nil {
		w.t.Fatal(err)
	}
	return in
}

// Tokens never go in URLs: ?token= is refused on every endpoint
// that used to take it.
func TestTokenInURLIsRefused(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t)
	h.Round(t, "180+2", 1)
	w := newWeb(t, h)
	for _, p := range []string{"/api/boards?token=" + h.Chief, "/api/watch?token=" + h.Chief} {
		resp, body := w.do("GET", p, nil, nil)
		if resp.StatusCode != http.StatusBadRequest || !strings.Contains(body, "never go in URLs") {
			t.Errorf("GET %s = %d %q; want 400 saying tokens never go in URLs", strings.Split(p, "?")[0], resp.StatusCode, body)
		}
	}
}

// Sign-in exchanges a token for a session cookie (HttpOnly,
// SameSite=Strict), which the feeds accept; state-changing requests by
// cookie need the CSRF token and this server's origin; signing out ends
// the session; revoking the token ends it too.
func TestSignInSessionCookie(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t)
	h.Round(t, "180+2", 1)
	arbTok := h.Token(t, pb.Role_ROLE_ARBITER, "Anna", "")
	w := newWeb(t, h)

	if resp, _ := w.do("GET", "/api/boards", nil, nil); resp.StatusCode != 401 {
		t.Errorf("GET /api/boards before signing in = %d, want 401", resp.StatusCode)
	}
	// Another site's form cannot sign the browser in.
	if resp, _ := w.do("POST", "/signin", url.Values{"token": {arbTok}}, map[string]string{"Origin": "http://evil.example"}); resp.StatusCode != 403 || w.cookie != nil {
		t.Errorf("POST /signin from another origin = %d (cookie %v), want 403 and no session", resp.StatusCode, w.cookie)
	}
	if resp, _ := w.do("POST", "/signin", url.Values{"token": {"hc_wrong"}}, nil); resp.StatusCode != 401 || w.cookie != nil {
		t.Errorf("POST /signin with a wrong token = %d, want 401 and no session", resp.StatusCode)
	}
	resp, _ := w.do("POST", "/signin", url.Values{"token": {arbTok}, "next": {"/"}}, map[string]string{"Origin": w.base})
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/" {
		t.Fatalf("POST /signin = %d to %q, want 303 to /", resp.StatusCode, resp.Header.Get("Location"))
	}
	c := w.cookie
	if c == nil || !c.HttpOnly || c.SameSite != http.SameSiteStrictMode || c.Path != "/" || c.Secure {
		t.Fatalf("session cookie = %+v; want HttpOnly, SameSite=Strict, path /, not Secure over plain HTTP", c)
	}
	if strings.Contains(c.Value, arbTok) {
		t.Error("the session cookie holds the token")
	}
	if resp, body := w.do("GET", "/api/boards", nil, nil); resp.StatusCode != 200 {
		t.Errorf("GET /api/boards signed in = %d %s, want 200", resp.StatusCode, body)
	}
	in := w.session()
	if in.Role != auth.RoleArbiter || in.Label != "Anna" || in.CSRF == "" {
		t.Errorf("GET /api/session = %+v, want Anna, arbiter, with a CSRF token", in)
	}

	// Sign-out is state-changing: without the CSRF token, refused.
	if resp, _ := w.do("POST", "/signout", url.Values{}, nil); resp.StatusCode != 403 || w.cookie == nil {
		t.Errorf("POST /signout without the CSRF token = %d, want 403", resp.StatusCode)
	}
	if resp, _ := w.do("DELETE", "/api/session", nil, map[string]string{"X-CSRF-Token": in.CSRF, "Origin": "http://evil.example"}); resp.StatusCode != 403 {
		t.Errorf("DELETE /api/session from another origin = %d, want 403", resp.StatusCode)
	}
	old := w.cookie
	if resp, _ := w.do("POST", "/signout", url.Values{"csrf": {in.CSRF}}, nil); resp.StatusCode != http.StatusSeeOther || w.cookie != nil {
		t.Fatalf("POST /signout with the CSRF token = %d (cookie %v), want 303 and the cookie cleared", resp.StatusCode, w.cookie)
	}
	w.cookie = old // a copy of the cookie kept by someone
	if resp, _ := w.do("GET", "/api/boards", nil, nil); resp.StatusCode != 401 {
		t.Errorf("GET /api/boards with a signed-out session = %d, want 401", resp.StatusCode)
	}

	// Revoking the token ends its sessions.
	w.cookie = nil
	w.do("POST", "/signin", url.Values{"token": {arbTok}}, nil)
	arb, ctx := h.Arbiter(t)
	toks, err := arb.ListTokens(ctx, &pb.ListTokensRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tk := range toks.GetTokens() {
		if tk.GetLabel() == "Anna" {
			if _, err := arb.RevokeToken(ctx, &pb.RevokeTokenRequest{TokenId: tk.GetTokenId()}); err != nil {
				t.Fatal(err)
			}
		}
	}
	if resp, _ := w.do("GET", "/api/boards", nil, nil); resp.StatusCode != 401 {
		t.Errorf("GET /api/boards after the token was revoked = %d, want 401", resp.StatusCode)
	}
}

// A sign-in link signs a browser in once, without a token in the link.
// Opening it (GET, as a chat app's preview does) only shows who it signs
// in as, with a button, however often: the button's POST spends it, and
// a second POST is refused.
func TestSignInLinkOpenedThenUsedOnce(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t)
	w := newWeb(t, h)
	code, err := h.Server.Sessions().IssueCode(context.Background(), h.Token(t, pb.Role_ROLE_BROADCAST, "screen", ""))
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		resp, body := w.do("GET", "/signin?code="+code, nil, nil)
		if resp.StatusCode != http.StatusOK || w.cookie != nil || !strings.Contains(body, `name="code" value="`+code+`"`) ||
			!strings.Contains(body, "screen (broadcast, read-only)") {
			t.Fatalf("GET /signin?code= = %d, cookie %v, body %.300q; want the link's page with its button, no session", resp.StatusCode, w.cookie, body)
		}
	}
	resp, _ := w.do("POST", "/signin", url.Values{"code": {code}}, nil)
	if resp.StatusCode != http.StatusSeeOther || w.cookie == nil {
		t.Fatalf("POST /signin code= = %d, cookie %v; want 303 and a session", resp.StatusCode, w.cookie)
	}
	if in := w.session(); in.Role != auth.RoleBroadcast {
		t.Errorf("signed in as %+v, want the broadcast token", in)
	}
	w.cookie = nil
	if resp, body := w.do("POST", "/signin", url.Values{"code": {code}}, nil); resp.StatusCode != 401 || w.cookie != nil {
		t.Errorf("the link's second use = %d %q, want 401", resp.StatusCode, body)
	}
	if resp, body := w.do("GET", "/signin?code="+code, nil, nil); resp.StatusCode != 401 || strings.Contains(body, `name="code"`) {
		t.Errorf("opening a used link = %d %.200q, want 401 and no button", resp.StatusCode, body)
	}
	// A clock device's token does not sign in to the web pages: no link
	// is made for it.
	if _, err := h.Server.Sessions().IssueCode(context.Background(), h.DeviceToken(t, "CLK-9")); err == nil {
		t.Errorf("a sign-in link for a device's token was made")
	}
}

// A session outlives a restart of the server: the browser's cookie still
// signs it in, with the same CSRF token; so does an unused sign-in link.
func TestSessionOutlivesARestart(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t)
	w := newWeb(t, h)
	w.do("POST", "/signin", url.Values{"token": {h.Token(t, pb.Role_ROLE_ARBITER, "Anna", "", "A")}}, nil)
	before := w.session()
	code, err := h.Server.Sessions().IssueCode(context.Background(), h.Chief)
	if err != nil {
		t.Fatal(err)
	}
	h.Restart(t)
	w.base = h.HTTP(t)
	after := w.session()
	if after.Label != "Anna" || after.CSRF != before.CSRF || after.ExpiresUnixMs != before.ExpiresUnixMs {
		t.Errorf("the session after a restart = %+v, want %+v", after, before)
	}
	if resp, _ := w.do("POST", "/api/arbiter/ListBoards", nil, map[string]string{"X-CSRF-Token": before.CSRF}); resp.StatusCode != 200 {
		t.Errorf("a call with the session after a restart = %d, want 200", resp.StatusCode)
	}
	w2 := &web{t: t, h: h, base: w.base, client: h.HTTPClient()}
	if resp, _ := w2.do("POST", "/signin", url.Values{"code": {code}}, nil); resp.StatusCode != http.StatusSeeOther || w2.session().Role != auth.RoleChief {
		t.Errorf("a sign-in link made before the restart = %d, want it to sign in as the chief", resp.StatusCode)
	}
}

// With a certificate, the HTTP port serves HTTPS (the same
// certificate as gRPC), the session cookie is Secure, and plain HTTP gets
// nowhere.
func TestHTTPSWithTheSameCertificate(t *testing.T) {
	t.Parallel()
	cfg, pool := selfSigned(t)
	h := halltest.Start(t, halltest.WithTLS(cfg, pool))
	w := newWeb(t, h)
	if !strings.HasPrefix(w.base, "https://") {
		t.Fatalf("base URL %s", w.base)
	}
	if resp, body := w.do("GET", "/healthz", nil, nil); resp.StatusCode != 200 || resp.TLS == nil {
		t.Fatalf("GET /healthz over HTTPS = %d %q (TLS %v)", resp.StatusCode, body, resp.TLS != nil)
	}
	w.do("POST", "/signin", url.Values{"token": {h.Chief}}, nil)
	if w.cookie == nil || !w.cookie.Secure {
		t.Errorf("session cookie over HTTPS = %+v, want Secure", w.cookie)
	}
	plain := "http://" + strings.TrimPrefix(w.base, "https://")
	ctx, cancel := context.WithTimeout(context.Background(), 5e9)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", plain+"/healthz", nil)
	if resp, err := http.DefaultClient.Do(req); err == nil {
		resp.Body.Close()
		if resp.StatusCode == 200 {
			t.Errorf("plain HTTP to the HTTPS port = %d, want no service", resp.StatusCode)
		}
	}
}

// The broadcast feeds (PGN, display) of a round that is not public read a
// signed-in browser's session as its token; a token in their URL is
// refused like anywhere else; without either, the round is not shown.
func TestFeedsTakeTheSession(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t)
	b := h.Round(t, "180+2", 1)[0]
	w := newWeb(t, h)
	pgn := "/api/pgn/round/" + b.GetRoundId()
	if resp, _ := w.do("GET", pgn, nil, nil); resp.StatusCode == 200 {
		t.Errorf("GET %s without credentials = 200, want it refused (the round is not public)", pgn)
	}
	if resp, _ := w.do("GET", pgn+"?token="+h.Chief, nil, nil); resp.StatusCode != http.StatusBadRequest {
		t.Errorf("GET %s?token= = %d, want 400", pgn, resp.StatusCode)
	}
	w.do("POST", "/signin", url.Values{"token": {h.Token(t, pb.Role_ROLE_BROADCAST, "screen", "")}}, nil)
	if resp, body := w.do("GET", pgn, nil, nil); resp.StatusCode != 200 || !strings.Contains(body, "[White ") {
		t.Errorf("GET %s signed in = %d %.80q, want the round's PGN", pgn, resp.StatusCode, body)
	}
}
