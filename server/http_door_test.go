package server_test

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/encoding/protojson"

	"github.com/chesshall/hallclock/internal/testkit/halltest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
	"github.com/chesshall/hallclock/server"
	"github.com/chesshall/hallclock/server/httpdoor"
)

// stallBody opens a connection that sends a sign-in's headers and a
// little of the body it promises, then nothing.
func stallBody(t *testing.T, base string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	fmt.Fprintf(c, "POST /api/session HTTP/1.1\r\nHost: hall\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\ntoken=")
	return c
}

// httpStatus answers GET path (with a bearer token if given) on a connection
// of its own: its status, 0 if the connection was closed unanswered.
func httpStatus(t *testing.T, base, path, token string) int {
	t.Helper()
	tr := &http.Transport{DisableKeepAlives: true}
	defer tr.CloseIdleConnections()
	req, _ := http.NewRequest(http.MethodGet, base+path, nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := (&http.Client{Transport: tr, Timeout: 5 * time.Second}).Do(req)
	if err != nil {
		return 0
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

// Slow or stalled request bodies held their connections for minutes
// (only the headers were bounded), and with a low descriptor limit the
// health checks and new clocks were refused. Now: stalled bodies are cut
// at the body timeout; while they fill the anonymous places, /healthz and
// /readyz are answered on the reserve, trusted callers get in, a new clock
// connects over gRPC, anyone else is told 503 — and a watcher's event
// stream, older than every timeout, goes on.
func TestSlowClientsDoNotKeepHealthChecksOrClocksOut(t *testing.T) {
	t.Parallel()
	limits := httpdoor.Limits{Conns: 24, Anonymous: 12, Reserve: 4, BodyTimeout: 3 * time.Second, WriteTimeout: 500 * time.Millisecond}
	h := halltest.Start(t, halltest.OnLoopback(), halltest.WithOptions(server.Options{HTTP: limits}))
	bs := h.Round(t, "300+2", 2)
	d := h.Device(t, bs[0].GetDeviceId())
	base := h.HTTP(t)

	// A watcher's event stream, opened before.
	resp := get(t, base+"/api/watch?board="+bs[0].GetBoardId(), h.Chief)
	defer resp.Body.Close()
	events := make(chan *pb.WatchUpdate, 64)
	go func() {
		defer close(events)
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				var u pb.WatchUpdate
				if protojson.Unmarshal([]byte(data), &u) == nil {
					events <- &u
				}
			}
		}
	}()
	if u := <-events; !u.GetSnapshot() {
		t.Fatalf("first event = %v, want a snapshot", u)
	}

	start := time.Now()
	var slow []net.Conn
	for range 60 {
		slow = append(slow, stallBody(t, base))
	}
	for _, p := range []string{"/healthz", "/readyz", "/healthz"} {
		if c := httpStatus(t, base, p, ""); c != 200 {
			t.Errorf("GET %s while slow bodies fill the port = %d, want 200", p, c)
		}
	}
	if c := httpStatus(t, base, "/api/boards", h.Chief); c != 200 {
		t.Errorf("GET /api/boards with a token while the port is full = %d, want 200", c)
	}
	asked := time.Now()
	if c := httpStatus(t, base, "/", ""); time.Since(start) < limits.BodyTimeout && c != http.StatusServiceUnavailable && c != 0 {
		t.Errorf("GET / without a token while the port is full = %d, want 503 (or no place at all)", c)
	} else if asked.Sub(start) >= limits.BodyTimeout {
		t.Logf("GET / was asked %v after the slow bodies began, when they may have been cut: not a test of a full port", asked.Sub(start))
	}
	h.Device(t, bs[1].GetDeviceId()) // a new clock connects (it waits for its Welcome)

	// Every stalled body is cut: closed, or reset (refused at once, its
	// request unread).
	until := time.Now().Add(10 * time.Second)
	for i, c := range slow {
		_ = c.SetReadDeadline(until)
		if _, err := io.Copy(io.Discard, c); errors.Is(err, os.ErrDeadlineExceeded) {
			t.Fatalf("stalled body %d still held %v after it began: %v; want it cut after 3 s", i, time.Since(start).Round(time.Millisecond), err)
		}
	}
	halltest.Eventually(t, 5*time.Second, func() error {
		if c := httpStatus(t, base, "/", ""); c != 200 {
			return fmt.Errorf("GET / after the slow bodies were cut = %d, want 200", c)
		}
		return nil
	})

	// The watcher's stream outlived the bounds on bodies and answers.
	arb, ctx := h.Arbiter(t)
	if _, err := arb.BoardAction(ctx, &pb.BoardActionRequest{BoardId: bs[0].GetBoardId(), Action: &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_START}, WaitMs: 5000}); err != nil {
		t.Fatal(err)
	}
	if err := d.Press(rules.White, "", ""); err != nil {
		t.Fatal(err)
	}
	deadline := time.After(5 * time.Second)
	for pressed := false; !pressed; {
		select {
		case u, ok := <-events:
			if !ok {
				t.Fatalf("the watcher's stream ended %v after it began; want it to go on", time.Since(start).Round(time.Millisecond))
			}
			for _, st := range u.GetBoards() {
				pressed = pressed || st.GetWhite().GetMoves() == 1
			}
		case <-deadline:
			t.Fatal("the watcher's stream did not show the press")
		}
	}

	// Counted.
	// A connection of its own (the slow clients' places may still be
	// coming free on a loaded machine: a refused one is asked again).
	var body []byte
	halltest.Eventually(t, 5*time.Second, func() error {
		tr := &http.Transport{DisableKeepAlives: true}
		defer tr.CloseIdleConnections()
		mresp, err := (&http.Client{Transport: tr, Timeout: 5 * time.Second}).Get(base + "/metrics")
		if err != nil {
			return err
		}
		defer mresp.Body.Close()
		if mresp.StatusCode != http.StatusOK {
			return fmt.Errorf("GET /metrics = %d", mresp.StatusCode)
		}
		body, err = io.ReadAll(mresp.Body)
		return err
	})
	value := func(reason string) float64 {
		m := regexp.MustCompile(`(?m)^hall_http_refused_total\{reason="` + reason + `"\} ([0-9.e+]+)$`).FindSubmatch(body)
		if m == nil {
			t.Errorf("/metrics has no hall_http_refused_total of %s", reason)
			return -1
		}
		v, _ := strconv.ParseFloat(string(m[1]), 64)
		return v
	}
	if v := value("body_timeout"); v < float64(limits.Anonymous) {
		t.Errorf("hall_http_refused_total{reason=body_timeout} = %v, want at least %d (the anonymous places' stalled bodies)", v, limits.Anonymous)
	}
	if full, reserve, way := value("full"), value("reserve_only"), value("made_way"); full+reserve+way < 60-float64(limits.Anonymous) {
		t.Errorf("refusals full %v, reserve_only %v, made_way %v; want the %d slow clients beyond the anonymous places counted",
			full, reserve, way, 60-limits.Anonymous)
	}
}
