package main

import (
	"bytes"
	"context"
	"net/url"
	"strings"
	"testing"

	"github.com/chesshall/hallclock/internal/testkit/halltest"
)

// An arbiter plays a board under the rules for visually disabled players
// from the command line (FIDE 2018 Appendix D), asks for an announcement
// and makes the sign-in link of the player's assistant (D.2.10).
func TestBlindPlayCommands(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t, halltest.OnLoopback())
	b := h.Round(t, "90m+30s", 1)[0]
	do, expect := runner(t, chiefEnv(h))

	expect(do("blind", "1.1"), "not played under the rules for visually disabled players")
	out := do("blind", "1.1", "W+A:de", "-reason", "Anna arrived with her assistant")
	expect(out, "W+A:de: White is visually disabled, with an assistant; his clock speaks de")
	expect(do("board", "1.1"), "W+A:de: White is visually disabled")
	// The clock is not connected: the words are printed, not said.
	expect(do("announce", "1.1", "white"), "Weiß: 0 Züge, 0 Sekunden verbraucht.", "not said: the clock "+b.GetDeviceId()+" is not connected")

	out = do("assistant-link", "1.1", "white", "-label", "Maria", "-web", "http://hall.example:7080/")
	expect(out, `assistant "Maria" of white`, "http://hall.example:7080/signin?code=sc_", "hallctl token revoke tok-")
	i := strings.Index(out, "/signin?code=")
	code := strings.Fields(out[i+len("/signin?code="):])[0]
	w := url.Values{"code": {code}}
	resp, err := h.HTTPClient().PostForm(h.HTTP(t)+"/api/session", w)
	if err != nil || resp.StatusCode != 200 {
		t.Errorf("signing in with the printed link: %v, %v", resp, err)
	}

	// What the rules refuse, and what is no notation, are said.
	var buf bytes.Buffer
	for _, tc := range []struct{ spec, want string }{
		{"B=A,W+A", "D.2.11"}, // a sighted player's assistant beside the visually disabled player's
		{"left", "W or B"},    // no notation
	} {
		if err := run(context.Background(), []string{"blind", "1.1", tc.spec}, &buf, chiefEnv(h)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("hallctl blind 1.1 %s = %v; want an error saying %q", tc.spec, err, tc.want)
		}
	}
	expect(do("blind", "1.1", "-"), "not played under the rules for visually disabled players")
	if err := run(context.Background(), []string{"assistant-link", "1.1", "white"}, &buf, chiefEnv(h)); err == nil || !strings.Contains(err.Error(), "no assistant") {
		t.Errorf("an assistant's link for a board not under the appendix: %v; want it refused", err)
	}
}
