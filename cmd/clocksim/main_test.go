package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chesshall/hallclock/internal/testkit/halltest"
)

func TestParseFlags(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	for _, tc := range []struct {
		args    []string
		env     map[string]string
		wantErr string
		check   func(*Main) string
	}{
		{args: []string{"-boards", "5"}, wantErr: "-chief-token"},
		{args: []string{"-boards", "20000"}, env: map[string]string{"HALL_CHIEF_TOKEN": "x"}, wantErr: "1 to 10000"},
		{args: []string{"-chaos", "flood"}, env: map[string]string{"HALL_CHIEF_TOKEN": "x"}, wantErr: "unknown chaos mode"},
		{args: []string{"-supervision", "lax"}, env: map[string]string{"HALL_CHIEF_TOKEN": "x"}, wantErr: "adequate or insufficient"},
		{args: []string{"-seed", "x"}, env: map[string]string{"HALL_CHIEF_TOKEN": "x"}, wantErr: "integer"},
		{args: []string{"-blind", "grey"}, env: map[string]string{"HALL_CHIEF_TOKEN": "x"}, wantErr: "white, black, both"},
		{args: []string{"-blind-lang", "de"}, env: map[string]string{"HALL_CHIEF_TOKEN": "x"}, wantErr: "without -blind"},
		{
			args: []string{"-talking", "-blind", "black", "-blind-lang", "de"}, env: map[string]string{"HALL_CHIEF_TOKEN": "tok"},
			check: func(m *Main) string {
				b := m.Config.Rounds[0].BlindPlay
				if !m.Config.TalkingClocks || b.GetWhite() != nil || !b.GetBlack().GetVisuallyDisabled() || !b.GetBlack().GetAssistant() || b.GetBlack().GetLanguage() != "de" {
					return "talking clocks or the visually disabled player not taken"
				}
				return ""
			},
		},
		{
			args: []string{"-boards", "7", "-rounds", "2", "-tc", "G/15", "-quickplay", "-chaos", "cut,drift", "-seed", "9", "-speed", "4"},
			env:  map[string]string{"HALL_CHIEF_TOKEN": "tok"},
			check: func(m *Main) string {
				c := m.Config
				switch {
				case c.ChiefToken != "tok" || c.Seed != 9 || c.Speed != 4 || c.Chaos.String() != "cut,drift":
					return "token, seed, speed or chaos not taken"
				case len(c.Rounds) != 2 || c.Rounds[1].Boards != 7 || c.Rounds[0].TimeControl != "G/15" || !c.Rounds[0].Regulations.GetQuickplayFinish():
					return "rounds not as asked"
				}
				return ""
			},
		},
		{
			args: []string{"-demo-rounds", "-loop", "-boards", "3"}, env: map[string]string{"HALL_CHIEF_TOKEN": "tok", "SIM_STATE_DIR": "/tmp/s"},
			check: func(m *Main) string {
				if !m.Config.Loop || m.Config.StateDir != "/tmp/s" || len(m.Config.Rounds) != 3 || m.Config.Rounds[2].Boards != 3 {
					return "demo rounds, loop or state dir not taken"
				}
				return ""
			},
		},
	} {
		m := &Main{Stdout: io.Discard, Stderr: io.Discard}
		err := m.ParseFlags(tc.args, env(tc.env))
		switch {
		case tc.wantErr != "":
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("ParseFlags(%q) = %v, want an error about %s", tc.args, err, tc.wantErr)
			}
		case err != nil:
			t.Errorf("ParseFlags(%q) = %v", tc.args, err)
		default:
			if msg := tc.check(m); msg != "" {
				t.Errorf("ParseFlags(%q): %s: %+v", tc.args, msg, m.Config)
			}
		}
	}
}

// runRound runs clocksim with args against h and checks that it played
// a round of games boards.
func runRound(t *testing.T, h *halltest.Hall, games int, args ...string) {
	t.Helper()
	var out bytes.Buffer
	m := &Main{Stdout: &out, Stderr: io.Discard}
	args = append([]string{"-target", h.Addr(), "-boards", fmt.Sprint(games), "-tc", "60+1", "-speed", "200", "-seed", "1", "-progress", "0"}, args...)
	if err := m.ParseFlags(args, func(k string) string { return map[string]string{"HALL_CHIEF_TOKEN": h.Chief}[k] }); err != nil {
		t.Fatal(err)
	}
	if err := m.Run(context.Background()); err != nil {
		t.Fatalf("Run %q: %v\n%s", args, err, out.String())
	}
	if want := fmt.Sprintf("summary: 1 rounds, %d games", games); !strings.Contains(out.String(), want) {
		t.Errorf("output lacks %q:\n%s", want, out.String())
	}
}

// clocksim plays a round against a hall and prints its summary.
func TestRunPlaysARound(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t, halltest.OnLoopback(), halltest.WithSpeed(200))
	runRound(t, h, 3, "-chaos", "dup")
}

// clocksim plays against a hall whose certificate comes from a
// private CA, trusting that CA (-tls-ca).
func TestRunOverTLSWithAPrivateCA(t *testing.T) {
	t.Parallel()
	cfg, pool, caPEM := halltest.SelfSigned(t)
	h := halltest.Start(t, halltest.OnLoopback(), halltest.WithTLS(cfg, pool), halltest.WithSpeed(200))
	ca := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(ca, caPEM, 0o644); err != nil {
		t.Fatal(err)
	}
	runRound(t, h, 2, "-tls-ca", ca, "-tls-server-name", "localhost")
}
