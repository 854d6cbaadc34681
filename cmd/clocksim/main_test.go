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
	pb "github.com/chesshall/hallclock/proto/hall/v1"
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
		{args: []string{"-round", "Open:3", "-loop"}, env: map[string]string{"HALL_CHIEF_TOKEN": "x"}, wantErr: "plays one round of the hall"},
		{
			args: []string{"-round", "Open:3"}, env: map[string]string{"HALL_CHIEF_TOKEN": "tok"},
			check: func(m *Main) string {
				if m.Config.Round != "Open:3" || len(m.Config.Rounds) != 0 {
					return "the hall's round not taken, or rounds of the fleet's own made"
				}
				return ""
			},
		},
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

// clocksim plays a round the hall already has, imported from a pairing
// program's file (-round "TOURNAMENT:N"): it brings a clock to each board
// the plan gave none that works, starts them and plays every game, and
// creates no tournament of its own.
func TestRunPlaysAnImportedRound(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t, halltest.OnLoopback(), halltest.WithSpeed(200))
	arb, ctx := h.Arbiter(t)
	if _, err := arb.CreateTournament(ctx, &pb.CreateTournamentRequest{Name: "Open", DefaultConfig: &pb.ClockConfig{TimeControl: "60+1"}}); err != nil {
		t.Fatal(err)
	}
	csv := "Round,Board,White,Black\n3,1,Berzins,Haugen\n3,2,Ottesen,Nguyen\n3,3,Lindqvist,Moreau\n"
	imp, err := arb.ImportRound(ctx, &pb.ImportRoundRequest{Tournament: "Open", Content: []byte(csv)})
	if err != nil {
		t.Fatal(err)
	}
	// Board 2's result came from its scoresheet before the fleet came:
	// the fleet leaves it alone.
	if r, err := arb.BoardAction(ctx, &pb.BoardActionRequest{BoardId: imp.GetBoards()[1].GetBoardId(), Reason: "scoresheet",
		Action: &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_RESULT, Result: "0-1"}}); err != nil || r.GetStatus() != pb.CommandStatus_COMMAND_STATUS_APPLIED {
		t.Fatalf("board 2's result: %v, %v", r, err)
	}
	var out bytes.Buffer
	m := &Main{Stdout: &out, Stderr: io.Discard}
	args := []string{"-target", h.Addr(), "-round", "open:3", "-speed", "200", "-seed", "1", "-progress", "0"}
	if err := m.ParseFlags(args, func(k string) string { return map[string]string{"HALL_CHIEF_TOKEN": h.Chief}[k] }); err != nil {
		t.Fatal(err)
	}
	if err := m.Run(context.Background()); err != nil {
		t.Fatalf("Run %q: %v\n%s", args, err, out.String())
	}
	expectIn(t, out.String(), `round "open:3"`, "summary: 1 rounds, 3 games")
	bs, err := arb.ListBoards(ctx, &pb.ListBoardsRequest{Tournament: "Open", Number: 3})
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range bs.GetBoards() {
		if b.GetNumber() == 2 {
			if b.GetState().GetResult() != "0-1" || b.GetDeviceId() != "" {
				t.Errorf("board 2, finished before: %v, clock %q; want its 0-1 untouched, no clock", b.GetState(), b.GetDeviceId())
			}
			continue
		}
		if b.GetState().GetStatus() != pb.BoardStatus_BOARD_STATUS_FINISHED || b.GetState().GetWhite().GetMoves() == 0 || b.GetDeviceId() == "" {
			t.Errorf("board %d (%s-%s): %v, clock %q; want a game played to its end on a clock", b.GetNumber(),
				b.GetWhite().GetName(), b.GetBlack().GetName(), b.GetState(), b.GetDeviceId())
		}
	}
	ts, err := arb.ListTournaments(ctx, &pb.ListTournamentsRequest{})
	if err != nil || len(ts.GetTournaments()) != 1 {
		t.Errorf("tournaments after the run: %v, %v; want the hall's one only", ts.GetTournaments(), err)
	}

	// A round the hall does not have is named in the refusal.
	m = &Main{Stdout: io.Discard, Stderr: io.Discard}
	if err := m.ParseFlags([]string{"-target", h.Addr(), "-round", "Open:4", "-progress", "0"}, func(k string) string { return map[string]string{"HALL_CHIEF_TOKEN": h.Chief}[k] }); err != nil {
		t.Fatal(err)
	}
	if err := m.Run(context.Background()); err == nil || !strings.Contains(err.Error(), `"Open:4"`) {
		t.Errorf("Run -round Open:4 = %v; want a refusal naming the round", err)
	}
}

func expectIn(t *testing.T, out string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
}
