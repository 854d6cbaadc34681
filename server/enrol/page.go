package enrol

import (
	_ "embed"
	"encoding/json"
	"html/template"
	"net/http"
	"time"

	"github.com/chesshall/hallclock/internal/i18n"
	"github.com/chesshall/hallclock/server/auth"
	"github.com/chesshall/hallclock/server/hallerr"
)

//go:embed enrol.html
var enrolHTML string

var enrolPage = template.Must(template.New("enrol").Parse(enrolHTML))

// Page serves the enrolment page of Links.
type Page struct {
	Links *Links
	Codes hallerr.Codes // the statuses of refusals
	// Zone is the hall's time zone: the page says the link's expiry in
	// it, naming it (auth.Clock). nil: UTC.
	Zone *time.Location
	// Lang is the hall's default language: the page's first lang
	// attribute for a browser whose Accept-Language the hall does not
	// speak (i18n.Match).
	Lang string
}

func (p *Page) zone() *time.Location {
	if p.Zone == nil {
		return time.UTC
	}
	return p.Zone
}

// maxBody bounds the POST: a code.
const maxBody = 4 << 10

// Routes registers GET and POST Path.
func (p *Page) Routes(mux *http.ServeMux) {
	// Path, written out for the read-path table's test.
	mux.HandleFunc("GET /clock/enrol", p.serveGet)
	mux.HandleFunc("POST /clock/enrol", p.servePost)
}

type pageData struct {
	Error, Code, What, Until string
	StorageKey, FacePath     string
	Lang                     string // until the page's script chose
}

func (p *Page) render(w http.ResponseWriter, r *http.Request, status int, d pageData) {
	d.Lang = i18n.Match(r.Header.Get("Accept-Language"), p.Lang)
	w.Header().Set("Content-Language", d.Lang)
	w.Header().Add("Vary", "Accept-Language")
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	// The page's URL holds the code: no referrer carries it elsewhere.
	w.Header().Set("Referrer-Policy", "same-origin")
	w.Header().Set("Content-Security-Policy", "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'unsafe-inline'")
	w.WriteHeader(status)
	d.StorageKey, d.FacePath = StorageKey, FacePath
	_ = enrolPage.Execute(w, d)
}

// GET Path?code=: what the link makes and a button; opening it spends
// nothing.
func (p *Page) serveGet(w http.ResponseWriter, r *http.Request) {
	code := r.URL.Query().Get("code")
	if code == "" {
		p.render(w, r, http.StatusBadRequest, pageData{Error: "This page needs a clock link's code: ask the arbiter for a clock link (hallctl clock-link, or the dashboard's \"Use a tablet as this table's clock\")."})
		return
	}
	link, what, err := p.Links.Peek(r.Context(), code)
	if err != nil {
		status, _, msg := p.Codes.HTTP(err)
		p.render(w, r, status, pageData{Error: msg})
		return
	}
	p.render(w, r, http.StatusOK, pageData{Code: code, What: what, Until: auth.Clock(link.Expires, p.zone())})
}

// POST Path, form code: spends the link and answers the new device's
// {device_id, token, label} as JSON (the page keeps it), or the refusal as
// text.
func (p *Page) servePost(w http.ResponseWriter, r *http.Request) {
	if err := auth.SameOrigin(r); err != nil {
		p.Codes.WriteHTTP(w, err)
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxBody)
	code := r.PostFormValue("code")
	if code == "" {
		p.Codes.WriteHTTP(w, hallerr.BadRequest("no code: give the clock link's code (form field code)"))
		return
	}
	e, err := p.Links.Spend(r.Context(), code)
	if err != nil {
		p.Codes.WriteHTTP(w, err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_ = json.NewEncoder(w).Encode(e)
}
