package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/chesshall/hallclock/internal/qr"
	"github.com/chesshall/hallclock/internal/testkit/halltest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// hallctl signin-link prints a deputy's one-time link, who it signs in as,
// and the link's QR code; an arbiter cannot make one beyond their sections.
func TestSignInLinkCommand(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t, halltest.OnLoopback())
	h.Token(t, pb.Role_ROLE_ARBITER, "Bo", "", "A")
	env := func(k string) string {
		if k == "HALL_WEB" {
			return "https://hall.test:7443/"
		}
		return chiefEnv(h)(k)
	}
	do, expect := runner(t, env)
	out := do("signin-link", "-for", "Bo")
	expect(out, "https://hall.test:7443/signin?code=sc_", "signs one browser in as Bo (arbiter, sections A), once, until ")
	link := strings.Fields(out)[0]
	code, err := qr.Terminal(link)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(out, "\n"+code) {
		t.Errorf("the output does not end with the link's QR code:\n%s", out)
	}
	anna := h.Token(t, pb.Role_ROLE_ARBITER, "Anna", "", "B")
	var buf bytes.Buffer
	err = run(context.Background(), []string{"-token", anna, "signin-link", "-for", "Bo", "-no-qr"}, &buf, env)
	if err == nil || !strings.Contains(err.Error(), "NotFound") && !strings.Contains(err.Error(), "no token you may make a sign-in link for") {
		t.Errorf("an arbiter of section B makes a link for Bo (section A): %v, want it refused as not found", err)
	}
}

func TestWebBase(t *testing.T) {
	for _, c := range []struct {
		env, addr string
		tls       bool
		want      string
	}{
		{"", "localhost:7070", false, "http://localhost:7080"},
		{"", "hall.local:7070", true, "https://hall.local:7080"},
		{"", ":7070", false, "http://localhost:7080"},
		{"", "[::1]:7070", false, "http://[::1]:7080"},
		{"https://hall.example/", "x:1", false, "https://hall.example"},
	} {
		if got := webBase(c.env, c.addr, c.tls); got != c.want {
			t.Errorf("webBase(%q, %q, %v) = %q, want %q", c.env, c.addr, c.tls, got, c.want)
		}
	}
}
