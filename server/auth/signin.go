package auth

import (
	_ "embed"
	"encoding/json"
	"errors"
	"html/template"
	"net/http"
	"strings"
	"time"

	"github.com/chesshall/hallclock/server/hallerr"
)

// The sign-in endpoints of sessions.go.

//go:embed signin.html
var signinHTML string

var signinPage = template.Must(template.New("signin").Parse(signinHTML))

// Pages are the sign-in endpoints of a server's sessions.
type Pages struct {
	Sessions *Sessions
	Codes    hallerr.Codes    // the statuses of refusals
	Now      func() time.Time // the server's clock, told to the page (SessionInfo.ServerUnixMs)
	// BroadcastDelay is how late broadcast tokens watch the hall
	// (SessionInfo.DelayMs); 0: live.
	BroadcastDelay time.Duration
	// Limit, if set, limits the sign-ins per address (signin_limit.go).
	Limit *SignInLimit
}

// Routes registers the sign-in endpoints (see sessions.go).
func (p *Pages) Routes(mux *http.ServeMux) {
	mux.HandleFunc("GET /signin", p.limited(p.serveSignInPage, p.refusePage))
	mux.HandleFunc("POST /signin", p.limited(p.serveSignInForm, p.refusePage))
	mux.HandleFunc("POST /signout", p.serveSignOutForm)
	mux.HandleFunc("GET /api/session", p.serveSessionInfo)
	mux.HandleFunc("POST /api/session", p.limited(p.serveSessionSignIn, p.refuseText))
	mux.HandleFunc("DELETE /api/session", p.serveSessionSignOut)
}

// limited is h under the sign-in limit, if there is one.
func (p *Pages) limited(h http.HandlerFunc, refuse func(http.ResponseWriter, *http.Request, error)) http.HandlerFunc {
	if p.Limit == nil {
		return h
	}
	return p.Limit.Wrap(h, refuse)
}

// refusePage answers a refused sign-in with the form and why.
func (p *Pages) refusePage(w http.ResponseWriter, _ *http.Request, err error) {
	c, _, msg := p.Codes.HTTP(err)
	p.renderSignIn(w, c, msg, "/")
}

// refuseText answers a refused sign-in as text.
func (p *Pages) refuseText(w http.ResponseWriter, _ *http.Request, err error) {
	p.Codes.WriteHTTP(w, err)
}

// next is where a sign-in form sends the browser: a path of this server.
func next(r *http.Request) string {
	n := r.FormValue("next")
	if !strings.HasPrefix(n, "/") || strings.HasPrefix(n, "//") || strings.ContainsAny(n, "\\\r\n") {
		return "/"
	}
	return n
}

func (p *Pages) renderSignIn(w http.ResponseWriter, code int, msg, nextPath string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	_ = signinPage.Execute(w, struct{ Error, Next, TTL string }{msg, nextPath, SessionTTL.String()})
}

// GET /signin: the form; with ?code=, a one-time sign-in code signs in.
func (p *Pages) serveSignInPage(w http.ResponseWriter, r *http.Request) {
	if r.URL.Query().Has("token") {
		p.renderSignIn(w, http.StatusBadRequest, "Tokens never go in links: type it below.", "/")
		return
	}
	if code := r.URL.Query().Get("code"); code != "" {
		if _, _, err := p.Sessions.SignIn(w, r, code); err != nil {
			c, _, msg := p.Codes.HTTP(err)
			p.renderSignIn(w, c, msg, "/")
			return
		}
		http.Redirect(w, r, "/", http.StatusSeeOther)
		return
	}
	p.renderSignIn(w, http.StatusOK, "", next(r))
}

// POST /signin: the form's token (or code).
func (p *Pages) serveSignInForm(w http.ResponseWriter, r *http.Request) {
	cred := r.PostFormValue("token")
	if cred == "" {
		cred = r.PostFormValue("code")
	}
	if _, _, err := p.Sessions.SignIn(w, r, cred); err != nil {
		c, _, msg := p.Codes.HTTP(err)
		p.renderSignIn(w, c, msg, next(r))
		return
	}
	http.Redirect(w, r, next(r), http.StatusSeeOther)
}

// POST /signout: the form's csrf.
func (p *Pages) serveSignOutForm(w http.ResponseWriter, r *http.Request) {
	if err := p.Sessions.SignOut(w, r); err != nil {
		p.Codes.WriteHTTP(w, err)
		return
	}
	http.Redirect(w, r, "/signin", http.StatusSeeOther)
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_ = json.NewEncoder(w).Encode(v)
}

func (p *Pages) serveSessionInfo(w http.ResponseWriter, r *http.Request) {
	in, err := p.Sessions.Info(r)
	if err != nil {
		p.Codes.WriteHTTP(w, err)
		return
	}
	if in.Role == RoleBroadcast {
		in.DelayMs = p.BroadcastDelay.Milliseconds()
	}
	in.ServerUnixMs = p.Now().UnixMilli()
	writeJSON(w, in)
}

func (p *Pages) serveSessionSignIn(w http.ResponseWriter, r *http.Request) {
	cred := r.PostFormValue("token")
	if cred == "" {
		cred = r.PostFormValue("code")
	}
	_, in, err := p.Sessions.SignIn(w, r, cred)
	if err != nil {
		p.Codes.WriteHTTP(w, err)
		return
	}
	writeJSON(w, in)
}

func (p *Pages) serveSessionSignOut(w http.ResponseWriter, r *http.Request) {
	if err := p.Sessions.SignOut(w, r); err != nil {
		if errors.Is(err, hallerr.ErrUnauthenticated) {
			w.WriteHeader(http.StatusNoContent) // nothing to end
			return
		}
		p.Codes.WriteHTTP(w, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
