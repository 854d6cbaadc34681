package enrol_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/chesshall/hallclock/server/enrol"
)

// The enrolment page's first HTML is in the browser's language where the
// hall speaks it (Accept-Language), else the hall's default, and it loads
// the pages' words (/i18n/i18n.js), which its Content-Security-Policy
// lets it.
func TestEnrolPageSpeaksTheBrowsersLanguage(t *testing.T) {
	mux := http.NewServeMux()
	(&enrol.Page{Lang: "hy"}).Routes(mux)
	for _, c := range []struct{ accept, want string }{
		{"ru-RU,ru;q=0.9", "ru"},
		{"fr", "hy"},
	} {
		r := httptest.NewRequest(http.MethodGet, "/clock/enrol", nil) // no code: the page says what it needs
		r.Header.Set("Accept-Language", c.accept)
		rec := httptest.NewRecorder()
		mux.ServeHTTP(rec, r)
		body := rec.Body.String()
		if !strings.Contains(body, `<html lang="`+c.want+`">`) {
			t.Errorf("Accept-Language %q: want <html lang=%q>:\n%.200s", c.accept, c.want, body)
		}
		if !strings.Contains(body, `<script src="/i18n/i18n.js"></script>`) || !strings.Contains(rec.Header().Get("Content-Security-Policy"), "script-src 'self'") {
			t.Errorf("the page does not load its words: CSP %q", rec.Header().Get("Content-Security-Policy"))
		}
	}
}
