package auth_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/chesshall/hallclock/server/auth"
)

// The sign-in page's first HTML is in the browser's language, from its
// Accept-Language, where the hall speaks it; else the hall's default
// (-lang): the lang attribute a screen reader reads before the page's
// script runs, the same language the script then chooses.
func TestSignInPageSpeaksTheBrowsersLanguage(t *testing.T) {
	mux := http.NewServeMux()
	(&auth.Pages{Lang: "ru"}).Routes(mux)
	for _, c := range []struct{ accept, want string }{
		{"ko-KR,ko;q=0.9,en-US;q=0.8,en;q=0.7", "ko"},
		{"de-DE,de;q=0.9,hy;q=0.5,en;q=0.3", "hy"}, // German is not spoken: the next the hall speaks
		{"en-GB", "en"},
		{"de-DE", "ru"}, // none: the hall's default
		{"", "ru"},
	} {
		r := httptest.NewRequest(http.MethodGet, "/signin", nil)
		if c.accept != "" {
			r.Header.Set("Accept-Language", c.accept)
		}
		rec := httptest.NewRecorder()
		mux.ServeHTTP(rec, r)
		if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `<html lang="`+c.want+`">`) {
			t.Errorf("Accept-Language %q: %d, want <html lang=%q>:\n%.200s", c.accept, rec.Code, c.want, rec.Body.String())
		}
		if got := rec.Header().Get("Content-Language"); got != c.want {
			t.Errorf("Accept-Language %q: Content-Language %q, want %q", c.accept, got, c.want)
		}
	}
}
