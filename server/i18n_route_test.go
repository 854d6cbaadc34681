package server_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/chesshall/hallclock/internal/testkit/halltest"
	"github.com/chesshall/hallclock/server"
)

// The hall serves its pages' words with its default language (-lang), to
// anyone: the sign-in page needs them before a session.
func TestHallServesItsPagesWords(t *testing.T) {
	h := halltest.Start(t, halltest.WithOptions(server.Options{Lang: "ru"}))
	resp, err := http.Get(h.HTTP(t) + "/i18n/i18n.js")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(string(body), `window.HALL_I18N = {"default": "ru"`) || !strings.Contains(string(body), `"ko": {`) {
		t.Errorf("GET /i18n/i18n.js: %d %.80s", resp.StatusCode, body)
	}
}
