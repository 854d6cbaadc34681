package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/encoding/protojson"

	"github.com/chesshall/hallclock/internal/testkit/halltest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// The demo: a hall comes alive within seconds, and starting it again
// continues the same hall from its database instead of starting another.
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
		played := 0
		for _, b := range list.GetBoards() {
			moves[b.GetBoardId()] = b.GetState().GetWhite().GetMoves()
			if b.GetState().GetStatus() != pb.BoardStatus_BOARD_STATUS_WAITING && b.GetState().GetWhite().GetMoves() > 0 {
				played++
			}
		}
		if len(list.GetBoards()) != 6 || played == 0 {
			return fmt.Errorf("%d boards, %d with moves; want 6 boards (3 tournaments of 2) and play", len(list.GetBoards()), played)
		}
		first = moves
		return signInLink(out.String())
	})
	run(func(a net.Addr) error {
		list, err := boards(a)
		if err != nil {
			return err
		}
		grew := 0
		for _, b := range list.GetBoards() {
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
		return nil
	})
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
	resp, err := client.Get(link)
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
		return fmt.Errorf("GET %s = %d, cookie %v; want 303 with a session", link, resp.StatusCode, session)
	}
	req, _ := http.NewRequest("GET", strings.Split(link, "/signin")[0]+"/api/boards", nil)
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
