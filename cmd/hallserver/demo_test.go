package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/encoding/protojson"

	"github.com/chesshall/hallclock/internal/testkit/halltest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/server/auth"
)

// The demo: a hall comes alive within seconds, and starting it again
// continues the same hall from its database instead of starting another.
// Each start prints one chief-arbiter token, the same every time, which
// is the chief arbiter's and not the fleet's.
func TestDemoComesAliveAndContinues(t *testing.T) {
	if testing.Short() {
		t.Skip("plays real-time games for a few seconds")
	}
	dir := filepath.Join(t.TempDir(), "hall")
	boards := func(httpAddr net.Addr) (*pb.ListBoardsResponse, error) {
		b, err := os.ReadFile(filepath.Join(dir, "demo", "tokens.json"))
		if err != nil {
			return nil, err
		}
		var toks demoTokens
		if err := json.Unmarshal(b, &toks); err != nil {
			return nil, err
		}
		req, _ := http.NewRequest("GET", "http://"+httpAddr.String()+"/api/boards", nil)
		req.Header.Set("Authorization", "Bearer "+toks.Broadcast)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return nil, err
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 200 {
			return nil, fmt.Errorf("/api/boards: %d %s", resp.StatusCode, body)
		}
		var list pb.ListBoardsResponse
		return &list, protojson.Unmarshal(body, &list)
	}
	out := &halltest.SyncBuffer{}
	run := func(check func(net.Addr) error) {
		m := &Main{DataDir: dir, GRPCAddr: "127.0.0.1:0", HTTPAddr: "127.0.0.1:0", LogLevel: "error", Grace: time.Second,
			Demo: true, DemoBoards: 2, Stdout: out, Stderr: io.Discard}
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		ready := make(chan net.Addr, 1)
		m.Ready = func(_, h net.Addr) { ready <- h }
		done := make(chan error, 1)
		go func() { done <- m.Run(ctx) }()
		var addr net.Addr
		select {
		case addr = <-ready:
		case err := <-done:
			t.Fatalf("Run ended early: %v", err)
		}
		deadline := time.Now().Add(30 * time.Second)
		for {
			err := check(addr)
			if err == nil {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("after 30 s: %v", err)
			}
			time.Sleep(200 * time.Millisecond)
		}
		cancel()
		if err := <-done; err != nil {
			t.Fatalf("Run = %v after cancel, want nil", err)
		}
	}
	var first map[string]int32
	run(func(a net.Addr) error {
		list, err := boards(a)
		if err != nil {
			return err
		}
		moves := map[string]int32{}
		played, phone := 0, 0
		for _, b := range list.GetBoards() {
			if b.GetTournamentName() == demoTabletTournament {
				phone++ // the newcomer's phone's table: no clock plays it
				continue
			}
			moves[b.GetBoardId()] = b.GetState().GetWhite().GetMoves()
			if b.GetState().GetStatus() != pb.BoardStatus_BOARD_STATUS_WAITING && b.GetState().GetWhite().GetMoves() > 0 {
				played++
			}
		}
		if len(moves) != 6 || played == 0 || phone != 1 {
			return fmt.Errorf("%d boards, %d with moves, %d for a phone; want 6 boards (3 tournaments of 2) and play, and the phone's", len(moves), played, phone)
		}
		if err := clockLink(out.String()); err != nil {
			return err
		}
		first = moves
		if err := demoBlindBoard(a, dir); err != nil {
			return err
		}
		if err := exportsWork(out.String(), dir); err != nil {
			return err
		}
		if !strings.Contains(out.String(), "simple Swiss stand-in (not FIDE Dutch)") {
			return fmt.Errorf("the demo does not say its pairing is a stand-in, not FIDE Dutch:\n%s", out.String())
		}
		if err := signInLink(out.String()); err != nil {
			return err
		}
		return oneChief(out.String(), a, dir)
	})
	run(func(a net.Addr) error {
		list, err := boards(a)
		if err != nil {
			return err
		}
		grew := 0
		for _, b := range list.GetBoards() {
			if b.GetTournamentName() == demoTabletTournament {
				continue
			}
			m, ok := first[b.GetBoardId()]
			if !ok && b.GetState().GetStatus() != pb.BoardStatus_BOARD_STATUS_FINISHED {
				return fmt.Errorf("board %s appeared after the restart while the first round is unfinished", b.GetBoardId())
			}
			if ok && b.GetState().GetWhite().GetMoves() > m {
				grew++
			}
		}
		if grew == 0 {
			return fmt.Errorf("no board of the first start has moved on after the restart")
		}
		return oneChief(out.String(), a, dir)
	})
}

// oneChief checks that what the demo printed names one chief-arbiter
// token (however many times it started): the chief arbiter's, not the
// fleet's, which has one of its own.
func oneChief(printed string, httpAddr net.Addr, dir string) error {
	found := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)(?:\bCHIEF=|chief-arbiter token .*: )(\S+)`).FindAllStringSubmatch(printed, -1) {
		found[m[1]] = true
	}
	if len(found) != 1 {
		return fmt.Errorf("the demo printed %d chief-arbiter tokens, want one:\n%s", len(found), printed)
	}
	b, err := os.ReadFile(filepath.Join(dir, "demo", "tokens.json"))
	if err != nil {
		return err
	}
	var toks demoTokens
	if err := json.Unmarshal(b, &toks); err != nil {
		return err
	}
	for secret, want := range map[string]string{toks.Chief: "chief arbiter", toks.Fleet: demoFleetLabel} {
		if who := signedInAs(httpAddr, secret); who != "chief "+want {
			return fmt.Errorf("a token of tokens.json signs in as %q, want %q", who, "chief "+want)
		}
	}
	if !found[toks.Chief] {
		return fmt.Errorf("the demo printed a chief token that is not tokens.json's chief")
	}
	return nil
}

// signedInAs says whom a token signs in as: "role label".
func signedInAs(httpAddr net.Addr, secret string) string {
	resp, err := http.PostForm("http://"+httpAddr.String()+"/api/session", url.Values{"token": {secret}})
	if err != nil {
		return err.Error()
	}
	defer resp.Body.Close()
	var who struct{ Role, Label string }
	if err := json.NewDecoder(resp.Body).Decode(&who); err != nil {
		return fmt.Sprintf("%d: %v", resp.StatusCode, err)
	}
	return who.Role + " " + who.Label
}

// An older demo kept the fleet's token as "chief" and printed it as the
// chief arbiter's: it stays the fleet's, and the chief arbiter gets a
// token of his own.
func TestDemoTokensKeepTheFleetApart(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t)
	ctx := context.Background()
	_, old, err := h.Server.Tokens().Issue(ctx, auth.RoleChief, demoFleetLabel, "", nil, "server")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "tokens.json")
	if err := os.WriteFile(path, []byte(`{"chief": "`+old+`"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	toks, err := (&Main{}).demoTokens(ctx, h.Server, path, "")
	if err != nil {
		t.Fatal(err)
	}
	label := func(secret string) string {
		id, ok := h.Server.Tokens().Lookup(secret)
		if !ok {
			return "(unknown)"
		}
		return string(id.Role) + " " + id.Label
	}
	if toks.Fleet != old || toks.Chief == old || label(toks.Chief) != "chief chief arbiter" {
		t.Errorf("tokens after an older demo: fleet %s (was the chief %s), chief %s (%s); want the old one the fleet's, a chief arbiter's of its own",
			label(toks.Fleet), label(old), label(toks.Chief), toks.Chief)
	}
	again, err := (&Main{}).demoTokens(ctx, h.Server, path, "")
	if err != nil || again != toks {
		t.Errorf("the tokens read again: %+v, %v; want the same %+v", again, err, toks)
	}
}

// clockLink opens the demo's printed clock link for a phone: a page that
// makes the phone the clock of table 1, where the phone's board waits.
func clockLink(printed string) error {
	link := regexp.MustCompile(`play on a phone +(http://\S+/clock/enrol\?code=cl_\S+)`).FindStringSubmatch(printed)
	if link == nil {
		return fmt.Errorf("the demo printed no clock link for a phone:\n%s", printed)
	}
	resp, err := http.Get(link[1])
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "table 1 of the hall") {
		return fmt.Errorf("GET %s = %d; want the page making a clock of table 1 of the hall:\n%s", link[1], resp.StatusCode, body)
	}
	return nil
}

// signInLink follows the demo's printed dashboard link: a one-time code
// that signs a browser in, with no token in any link printed.
func signInLink(printed string) error {
	if strings.Contains(printed, "token=") {
		return fmt.Errorf("the demo prints a token in a link:\n%s", printed)
	}
	link := regexp.MustCompile(`http://\S+/signin\?code=sc_\S+`).FindString(printed)
	if link == "" {
		return fmt.Errorf("the demo printed no sign-in link:\n%s", printed)
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	// Opening the link shows its button; the button's POST signs in.
	resp, err := client.Get(link)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || len(resp.Cookies()) > 0 {
		return fmt.Errorf("GET %s = %d, cookies %v; want the link's page, no session", link, resp.StatusCode, resp.Cookies())
	}
	base, code, _ := strings.Cut(link, "/signin?code=")
	resp, err = client.PostForm(base+"/signin", url.Values{"code": {code}})
	if err != nil {
		return err
	}
	resp.Body.Close()
	var session *http.Cookie
	for _, c := range resp.Cookies() {
		if c.Name == "hall_session" {
			session = c
		}
	}
	if resp.StatusCode != http.StatusSeeOther || session == nil {
		return fmt.Errorf("POST %s/signin with its code = %d, cookie %v; want 303 with a session", base, resp.StatusCode, session)
	}
	req, _ := http.NewRequest("GET", base+"/api/boards", nil)
	req.AddCookie(session)
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		return fmt.Errorf("/api/boards signed in by the demo's link = %d, want 200", resp.StatusCode)
	}
	return nil
}

// exportsWork runs the line the demo prints for the shell, as a newcomer
// pastes it, and checks that it gives the commands it prints ($ARBITER,
// $BROADCAST) the demo's tokens: the README's steps use them as printed.
func exportsWork(printed, dir string) error {
	var line string
	for _, l := range strings.Split(printed, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "export ") {
			line = strings.TrimSpace(l)
		}
	}
	if line == "" {
		return fmt.Errorf("the demo printed no export line for the shell:\n%s", printed)
	}
	if !strings.Contains(printed, `"Authorization: Bearer $BROADCAST"`) || !strings.Contains(printed, "HALL_TOKEN=$ARBITER") {
		return fmt.Errorf("the demo's commands do not use $BROADCAST and $ARBITER:\n%s", printed)
	}
	got, err := exec.Command("sh", "-c", line+`; printf '%s %s %s' "$ARBITER" "$BROADCAST" "$CHIEF"`).Output()
	if err != nil {
		return fmt.Errorf("sh -c %q: %v", line, err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "demo", "tokens.json"))
	if err != nil {
		return err
	}
	var toks demoTokens
	if err := json.Unmarshal(b, &toks); err != nil {
		return err
	}
	if want := toks.Arbiter + " " + toks.Broadcast + " " + toks.Chief; string(got) != want {
		return fmt.Errorf("after %q the shell has ARBITER BROADCAST CHIEF = %q, want %q", line, got, want)
	}
	return nil
}

// A phone cannot open "localhost": the demo's clock link names this
// machine's address on its network when the server listens on all.
func TestPhoneBase(t *testing.T) {
	for _, web := range []string{"http://127.0.0.1:7080", "http://hall.local:7080"} {
		if got := phoneBase(web); got != web {
			t.Errorf("phoneBase(%q) = %q, want it unchanged", web, got)
		}
	}
	got := phoneBase("http://localhost:7080")
	if !strings.HasPrefix(got, "http://") || !strings.HasSuffix(got, ":7080") || strings.Contains(got, "127.0.0.1") {
		t.Errorf("phoneBase(localhost) = %q, want this machine's network address on port 7080 (or localhost without one)", got)
	}
}
