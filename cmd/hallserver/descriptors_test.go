package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"regexp"
	"strconv"
	"syscall"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/chesshall/hallclock/internal/testkit/halltest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

const childNofileEnv = "HALLSERVER_TEST_NOFILE"

// TestHallserverChildFewDescriptors is not a test of its own: it is the
// hallserver process of TestSlowBodiesWithFewDescriptors, run with the
// descriptor limit it is given.
func TestHallserverChildFewDescriptors(t *testing.T) {
	n, err := strconv.ParseUint(os.Getenv(childNofileEnv), 10, 64)
	if err != nil {
		t.Skip("the hallserver process of TestSlowBodiesWithFewDescriptors")
	}
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &syscall.Rlimit{Cur: n, Max: n}); err != nil {
		t.Fatal(err)
	}
	TestHallserverChild(t)
}

// A hall with few descriptors (256) and 400 clients that send a
// request's headers and then stall its body: they once held their
// connections for minutes and took every descriptor, so that health
// checks and new clocks were refused. Now the HTTP port holds at most
// half the descriptors, the stalled bodies are cut, and meanwhile /healthz
// answers and a new clock connects.
func TestSlowBodiesWithFewDescriptors(t *testing.T) {
	t.Parallel()
	p := &hallProc{t: t, grpc: halltest.FreeAddr(t), http: halltest.FreeAddr(t), run: "TestHallserverChildFewDescriptors", env: []string{childNofileEnv + "=256"}}
	p.args = []string{"-data-dir", t.TempDir(), "-grpc-addr", p.grpc, "-http-addr", p.http, "-nats", "off",
		"-http-body-timeout", "2s", "-log-level", "error", "-shutdown-grace", "1s"}
	p.start()
	chief := regexp.MustCompile(`hc_[A-Za-z0-9_-]+`).FindString(p.out.String())

	// A board with its clock's token, to connect the clock later.
	conn, err := grpc.NewClient(p.grpc, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	arb, ctx := pb.NewArbiterClient(conn), halltest.Ctx(context.Background(), chief)
	tour, err := arb.CreateTournament(ctx, &pb.CreateTournamentRequest{Name: "Door", DefaultConfig: &pb.ClockConfig{TimeControl: "300+2"}})
	if err != nil {
		t.Fatal(err)
	}
	round, err := arb.CreateRound(ctx, &pb.CreateRoundRequest{TournamentId: tour.GetTournamentId(), Number: 1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := arb.AddBoard(ctx, &pb.AddBoardRequest{RoundId: round.GetRoundId(), Number: 1, DeviceId: "CLK-1",
		White: &pb.Player{Name: "W"}, Black: &pb.Player{Name: "B"}}); err != nil {
		t.Fatal(err)
	}
	tok, err := arb.IssueToken(ctx, &pb.IssueTokenRequest{Role: pb.Role_ROLE_DEVICE, Label: "clock 1", DeviceId: "CLK-1"})
	if err != nil {
		t.Fatal(err)
	}

	start := time.Now()
	var slow []net.Conn
	for range 400 {
		c, err := net.Dial("tcp", p.http)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		fmt.Fprintf(c, "POST /api/session HTTP/1.1\r\nHost: hall\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\ntoken=")
		slow = append(slow, c)
	}
	for i := range 5 {
		if code := healthz(p.http); code != 200 {
			t.Errorf("GET /healthz %d while 400 bodies stall = %d, want 200\n%s", i, code, p.out)
		}
	}
	if err := connectClock(p.grpc, tok.GetToken(), "CLK-1"); err != nil {
		t.Errorf("a new clock while 400 bodies stall: %v; want it welcomed", err)
	}
	cut, until := 0, time.Now().Add(15*time.Second)
	for _, c := range slow {
		_ = c.SetReadDeadline(until)
		// Closed (EOF), or reset: a connection refused at once is closed
		// with its request unread.
		if _, err := io.Copy(io.Discard, c); !errors.Is(err, os.ErrDeadlineExceeded) {
			cut++
		}
	}
	if cut != len(slow) {
		t.Errorf("%d of %d stalled bodies were let go within %v; want every one (cut at 2 s, or never let in)", cut, len(slow), time.Since(start).Round(time.Second))
	}
	t.Logf("%d of 400 stalled bodies let go after %v", cut, time.Since(start).Round(time.Millisecond))
}

// healthz answers GET /healthz on a connection of its own: its status, 0
// if none came.
func healthz(addr string) int {
	c := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	resp, err := c.Get("http://" + addr + "/healthz")
	if err != nil {
		return 0
	}
	resp.Body.Close()
	return resp.StatusCode
}

// connectClock connects a clock over a new gRPC connection and waits for
// its Welcome.
func connectClock(addr, token, dev string) error {
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return err
	}
	defer conn.Close()
	ctx, cancel := context.WithTimeout(halltest.Ctx(context.Background(), token), 5*time.Second)
	defer cancel()
	s, err := pb.NewClockLinkClient(conn).Connect(ctx)
	if err != nil {
		return err
	}
	if err := s.Send(&pb.DeviceMessage{Msg: &pb.DeviceMessage_Hello{Hello: &pb.Hello{DeviceId: dev}}}); err != nil {
		return err
	}
	m, err := s.Recv()
	if err != nil {
		return err
	}
	if m.GetWelcome() == nil {
		return fmt.Errorf("first message %v, want a Welcome", m)
	}
	return nil
}
