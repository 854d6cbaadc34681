package auth

import (
	_ "embed"
	"encoding/json"
	"errors"
	"html/template"
	"net/http"
	"strings"
	"time"

	"github.com/chesshall/hallclock/internal/i18n"
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
	// Zone is the hall's time zone: the sign-in page says its times in
	// it, naming it, and tells the pages its name (SessionInfo.TimeZone).
	// nil: UTC.
	Zone *time.Location
	// Lang is the hall's default language (hallserver -lang): the page's
	// first lang attribute for a browser whose Accept-Language the hall
	// does not speak. "": English.
	Lang string
}

// zone is the hall's time zone.
func (p *Pages) zone() *time.Location {
	if p.Zone == nil {
		return time.UTC
	}
	return p.Zone
}

// Clock writes t for people in zone, saying the zone: "14:30 +04
// (Asia/Yerevan)", "14:30 UTC".
func Clock(t time.Time, zone *time.Location) string {
	s := t.In(zone).Format("15:04 MST")
	if name := zone.String(); name != "UTC" {
		s += " (" + name + ")"
	}
	return s
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
func (p *Pages) refusePage(w http.ResponseWriter, r *http.Request, err error) {
	c, _, msg := p.Codes.HTTP(err)
	p.renderSignIn(w, r, c, signInPage{Error: msg, Next: "/"})
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

// signInPage is what the sign-in page shows: the token form, or the
// button of a sign-in link.
type signInPage struct {
	Error, Next, TTL string
	TTLHours         int // TTL in hours, for the page's plural
	// Code: a sign-in link's, valid; its button signs in as Who until Until.
	Code, Who, Until string
	Lang             string // the page's language until its script chose (i18n.Match)
}

func (p *Pages) renderSignIn(w http.ResponseWriter, r *http.Request, code int, page signInPage) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	// The page of a link holds its code in its URL: no referrer carries it
	// to another site ("no-referrer" would make the browser's own form
	// post say Origin: null, which the sign-in refuses).
	w.Header().Set("Referrer-Policy", "same-origin")
	w.WriteHeader(code)
	page.TTL = SessionTTL.String()
	page.TTLHours = int(SessionTTL / time.Hour)
	page.Lang = i18n.Match(r.Header.Get("Accept-Language"), p.Lang)
	w.Header().Set("Content-Language", page.Lang)
	w.Header().Add("Vary", "Accept-Language")
	_ = signinPage.Execute(w, page)
}

// GET /signin: the form; with ?code=, who the sign-in link signs in as and
// a button that signs in (a POST): opening the link spends nothing.
func (p *Pages) serveSignInPage(w http.ResponseWriter, r *http.Request) {
	if r.URL.Query().Has("token") {
		p.renderSignIn(w, r, http.StatusBadRequest, signInPage{Error: "Tokens never go in links: type it below.", Next: "/"})
		return
	}
	if code := r.URL.Query().Get("code"); code != "" {
		id, until, err := p.Sessions.Link(r.Context(), code)
		if err != nil {
			c, _, msg := p.Codes.HTTP(err)
			p.renderSignIn(w, r, c, signInPage{Error: msg, Next: "/"})
			return
		}
		p.renderSignIn(w, r, http.StatusOK, signInPage{Next: next(r), Code: code, Who: Describe(id),
			Until: Clock(until, p.zone())})
		return
	}
	p.renderSignIn(w, r, http.StatusOK, signInPage{Next: next(r)})
}

// Describe names an identity for people: "Anna (arbiter, sections A, B)".
func Describe(id *Identity) string {
	var role []string
	switch id.Role {
	case RoleChief:
		role = append(role, "chief arbiter")
	case RoleBroadcast:
		role = append(role, "broadcast, read-only")
	default:
		role = append(role, string(id.Role))
	}
	if len(id.Sections) > 0 {
		role = append(role, "sections "+strings.Join(id.Sections, ", "))
	}
	if strings.Contains(strings.ToLower(id.Label), role[0]) {
		role = role[1:]
	}
	if len(role) == 0 {
		return id.Label
	}
	return id.Label + " (" + strings.Join(role, ", ") + ")"
}

// maxSignInBody bounds a sign-in's form, read before anyone is known: a
// token or a code, and where to go next.
const maxSignInBody = 8 << 10

// POST /signin: the form's token (or code).
func (p *Pages) serveSignInForm(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, maxSignInBody)
	cred := r.PostFormValue("token")
	if cred == "" {
		cred = r.PostFormValue("code")
	}
	id, _, err := p.Sessions.SignIn(w, r, cred)
	if err != nil {
		c, _, msg := p.Codes.HTTP(err)
		p.renderSignIn(w, r, c, signInPage{Error: msg, Next: next(r)})
		return
	}
	http.Redirect(w, r, Home(id, next(r)), http.StatusSeeOther)
}

// AssistantPage is the one page an assistant's session may open.
const AssistantPage = "/assist"

// Home is where a browser signed in as id goes after signing in, asked
// for next: an assistant to his page whatever he asked for (nothing else
// of the hall is his), everyone else to next.
func Home(id *Identity, next string) string {
	if id.Role == RoleAssistant {
		return AssistantPage
	}
	return next
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
	in.TimeZone = p.zone().String()
	writeJSON(w, in)
}

func (p *Pages) serveSessionSignIn(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, maxSignInBody)
	cred := r.PostFormValue("token")
	if cred == "" {
		cred = r.PostFormValue("code")
	}
	_, in, err := p.Sessions.SignIn(w, r, cred)
	if err != nil {
		p.Codes.WriteHTTP(w, err)
		return
	}
	in.TimeZone = p.zone().String()
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
