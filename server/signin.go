package server

import (
	_ "embed"
	"encoding/json"
	"errors"
	"html/template"
	"net/http"
	"strings"

	"github.com/chesshall/hallclock/server/hallerr"
)

// The sign-in endpoints of session.go.

//go:embed signin.html
var signinHTML string

var signinPage = template.Must(template.New("signin").Parse(signinHTML))

func (s *Server) signinRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET /signin", s.serveSignInPage)
	mux.HandleFunc("POST /signin", s.serveSignInForm)
	mux.HandleFunc("POST /signout", s.serveSignOutForm)
	mux.HandleFunc("GET /api/session", s.serveSessionInfo)
	mux.HandleFunc("POST /api/session", s.serveSessionSignIn)
	mux.HandleFunc("DELETE /api/session", s.serveSessionSignOut)
}

// next is where a sign-in form sends the browser: a path of this server.
func next(r *http.Request) string {
	n := r.FormValue("next")
	if !strings.HasPrefix(n, "/") || strings.HasPrefix(n, "//") || strings.ContainsAny(n, "\\\r\n") {
		return "/"
	}
	return n
}

func (s *Server) renderSignIn(w http.ResponseWriter, code int, msg, nextPath string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	_ = signinPage.Execute(w, struct{ Error, Next, TTL string }{msg, nextPath, SessionTTL.String()})
}

// GET /signin: the form; with ?code=, a one-time sign-in code signs in.
func (s *Server) serveSignInPage(w http.ResponseWriter, r *http.Request) {
	if r.URL.Query().Has("token") {
		s.renderSignIn(w, http.StatusBadRequest, "Tokens never go in links: type it below.", "/")
		return
	}
	if code := r.URL.Query().Get("code"); code != "" {
		if _, _, err := s.sessions.SignIn(w, r, code); err != nil {
			c, _, msg := s.codes.HTTP(err)
			s.renderSignIn(w, c, msg, "/")
			return
		}
		http.Redirect(w, r, "/", http.StatusSeeOther)
		return
	}
	s.renderSignIn(w, http.StatusOK, "", next(r))
}

// POST /signin: the form's token (or code).
func (s *Server) serveSignInForm(w http.ResponseWriter, r *http.Request) {
	cred := r.PostFormValue("token")
	if cred == "" {
		cred = r.PostFormValue("code")
	}
	if _, _, err := s.sessions.SignIn(w, r, cred); err != nil {
		c, _, msg := s.codes.HTTP(err)
		s.renderSignIn(w, c, msg, next(r))
		return
	}
	http.Redirect(w, r, next(r), http.StatusSeeOther)
}

// POST /signout: the form's csrf.
func (s *Server) serveSignOutForm(w http.ResponseWriter, r *http.Request) {
	if err := s.sessions.SignOut(w, r); err != nil {
		s.codes.WriteHTTP(w, err)
		return
	}
	http.Redirect(w, r, "/signin", http.StatusSeeOther)
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_ = json.NewEncoder(w).Encode(v)
}

func (s *Server) serveSessionInfo(w http.ResponseWriter, r *http.Request) {
	in, err := s.sessions.Info(r)
	if err != nil {
		s.codes.WriteHTTP(w, err)
		return
	}
	if in.Role == RoleBroadcast && s.public != nil {
		in.DelayMs = s.opts.BroadcastDelay.Milliseconds()
	}
	in.ServerUnixMs = s.clock.Now().UnixMilli()
	writeJSON(w, in)
}

func (s *Server) serveSessionSignIn(w http.ResponseWriter, r *http.Request) {
	cred := r.PostFormValue("token")
	if cred == "" {
		cred = r.PostFormValue("code")
	}
	_, in, err := s.sessions.SignIn(w, r, cred)
	if err != nil {
		s.codes.WriteHTTP(w, err)
		return
	}
	writeJSON(w, in)
}

func (s *Server) serveSessionSignOut(w http.ResponseWriter, r *http.Request) {
	if err := s.sessions.SignOut(w, r); err != nil {
		if errors.Is(err, hallerr.ErrUnauthenticated) {
			w.WriteHeader(http.StatusNoContent) // nothing to end
			return
		}
		s.codes.WriteHTTP(w, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
