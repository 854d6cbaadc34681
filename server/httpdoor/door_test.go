package httpdoor_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chesshall/hallclock/server/httpdoor"
)

// serve runs handler behind a door of limits on a loopback port and
// returns its address and the door. Requests with "Authorization: Bearer
// good" are trusted; GET /healthz is the health check.
func serve(t *testing.T, limits httpdoor.Limits, handler http.Handler) (string, *httpdoor.Door) {
	t.Helper()
	d := httpdoor.New(limits, func(r *http.Request) bool { return r.Header.Get("Authorization") == "Bearer good" },
		func(r *http.Request) bool { return r.URL.Path == "/healthz" })
	srv := &http.Server{Handler: handler}
	d.Configure(srv)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(d.Listen(l))
	t.Cleanup(func() { srv.Close() })
	return l.Addr().String(), d
}

// mux answers /healthz, /read (reads the body) and /plain.
func mux() http.Handler {
	m := http.NewServeMux()
	m.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "ok") })
	m.HandleFunc("/read", func(w http.ResponseWriter, r *http.Request) {
		if _, err := io.ReadAll(r.Body); err != nil {
			http.Error(w, err.Error(), http.StatusRequestTimeout)
			return
		}
		io.WriteString(w, "read")
	})
	m.HandleFunc("/plain", func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "plain") })
	return m
}

// staller is a client that sends a request's headers, promising a body
// it never sends.
type staller struct{ c net.Conn }

func stall(t *testing.T, addr string) *staller {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	fmt.Fprintf(c, "POST /read HTTP/1.1\r\nHost: hall\r\nContent-Type: text/plain\r\nContent-Length: 1000\r\n\r\nabc")
	return &staller{c}
}

// cut waits up to within for the server to end the connection (whatever
// it answered before) and reports whether it did: closed it, or reset it
// (refused at once, its request unread).
func (s *staller) cut(within time.Duration) bool {
	_ = s.c.SetReadDeadline(time.Now().Add(within))
	_, err := io.Copy(io.Discard, s.c)
	return !errors.Is(err, os.ErrDeadlineExceeded)
}

// get sends one request on a new connection and returns the status, the
// Retry-After and the body ("" and 0 if the connection was closed first).
func get(t *testing.T, addr, path, auth string) (int, string, string) {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(5 * time.Second))
	req, _ := http.NewRequest(http.MethodGet, "http://hall"+path, nil)
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	if err := req.Write(c); err != nil {
		return 0, "", ""
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), req)
	if err != nil {
		return 0, "", ""
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("Retry-After"), string(b)
}

func eventually(t *testing.T, within time.Duration, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %v", what, within)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// A body that does not come is cut at BodyTimeout, and counted; the
// headers' bound is the server's.
func TestStalledBodyIsCut(t *testing.T) {
	t.Parallel()
	addr, d := serve(t, httpdoor.Limits{BodyTimeout: 200 * time.Millisecond}, mux())
	s := stall(t, addr)
	if !s.cut(10 * time.Second) {
		t.Fatal("a stalled body still holds its connection 10 s on; want it cut after 200 ms")
	}
	eventually(t, 5*time.Second, "the cut body counted", func() bool { return d.Stats().Refused[httpdoor.RefusedBodyTimeout] == 1 })
	// A body that comes in time is read.
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "POST /read HTTP/1.1\r\nHost: hall\r\nContent-Length: 3\r\n\r\nabc")
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("a body sent at once: %v %v; want 200", resp, err)
	}
}

// Slow clients fill the anonymous places; then health checks are still
// answered on the reserve, a trusted client still gets in, anyone else is
// told 503 with Retry-After or not let in at all — and once the stalled
// bodies are cut, anonymous clients are served again.
func TestFullPortServesHealthChecksAndTrustedClientsFirst(t *testing.T) {
	t.Parallel()
	const conns, anon, reserve = 12, 6, 3
	const bodyTimeout = 2 * time.Second
	addr, d := serve(t, httpdoor.Limits{Conns: conns, Anonymous: anon, Reserve: reserve, BodyTimeout: bodyTimeout}, mux())
	start := time.Now()
	var slow []*staller
	for range 40 {
		slow = append(slow, stall(t, addr))
	}
	eventually(t, 5*time.Second, "the anonymous places full", func() bool {
		st := d.Stats()
		return st.Anonymous == anon && st.Refused[httpdoor.RefusedFull]+st.Refused[httpdoor.RefusedReserveOnly]+st.Refused[httpdoor.RefusedMadeWay] >= 40-anon
	})
	for i := range 5 {
		if code, _, body := get(t, addr, "/healthz", ""); code != 200 || body != "ok" {
			t.Errorf("health check %d with the port full = %d %q; want 200 ok", i, code, body)
		}
	}
	if code, _, body := get(t, addr, "/plain", "Bearer good"); code != 200 || body != "plain" {
		t.Errorf("a trusted request with the port full = %d %q; want 200", code, body)
	}
	if code, retry, _ := get(t, addr, "/plain", ""); time.Since(start) < bodyTimeout && (code != http.StatusServiceUnavailable || retry == "") {
		t.Errorf("an anonymous request with the port full = %d, Retry-After %q; want 503 with Retry-After", code, retry)
	}
	st := d.Stats()
	if st.Anonymous > anon || st.Anonymous+st.Trusted+st.Reserve > conns || st.Reserve > reserve {
		t.Errorf("the door holds %+v; want at most %d anonymous, %d on the reserve, %d in all", st, anon, reserve, conns)
	}
	// The stalled bodies are cut; anonymous clients come in again.
	for i, s := range slow[:anon] {
		if !s.cut(10 * time.Second) {
			t.Fatalf("stalled body %d still held 10 s on; want it cut after 2 s", i)
		}
	}
	eventually(t, 5*time.Second, "anonymous requests served again", func() bool {
		code, _, _ := get(t, addr, "/plain", "")
		return code == 200
	})
}

// A reserve connection that has asked nothing makes way for a newcomer:
// clients that open connections and say nothing do not keep health checks
// out.
func TestSilentReserveMakesWay(t *testing.T) {
	t.Parallel()
	addr, d := serve(t, httpdoor.Limits{Conns: 4, Anonymous: 2, Reserve: 2}, mux())
	for range 10 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
	}
	eventually(t, 5*time.Second, "the places full", func() bool { st := d.Stats(); return st.Anonymous == 2 && st.Reserve == 2 })
	if code, _, _ := get(t, addr, "/healthz", ""); code != 200 {
		t.Errorf("health check among silent connections = %d, want 200", code)
	}
	if d.Stats().Refused[httpdoor.RefusedMadeWay] == 0 {
		t.Errorf("no silent reserve connection made way: %+v", d.Stats())
	}
}

// An event stream outlives the bound on answers once it lifts it; an
// answer that does not is cut at WriteTimeout.
func TestStreamsOutliveTheWriteTimeout(t *testing.T) {
	t.Parallel()
	m := http.NewServeMux()
	stream := func(lift bool) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			if lift {
				_ = http.NewResponseController(w).SetWriteDeadline(time.Time{})
			}
			w.Header().Set("Content-Type", "text/event-stream")
			for i := range 6 {
				if _, err := fmt.Fprintf(w, "data: %d\n\n", i); err != nil {
					return
				}
				w.(http.Flusher).Flush()
				select {
				case <-time.After(100 * time.Millisecond):
				case <-r.Context().Done():
					return
				}
			}
		}
	}
	m.HandleFunc("/stream", stream(true))
	m.HandleFunc("/unlifted", stream(false))
	addr, _ := serve(t, httpdoor.Limits{WriteTimeout: 150 * time.Millisecond, BodyTimeout: 150 * time.Millisecond}, m)
	events := func(path string) int {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+addr+path, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return strings.Count(string(b), "data: ")
	}
	if n := events("/stream"); n != 6 {
		t.Errorf("a stream that lifted the bound got %d of 6 events over 600 ms; want all (the bound is 150 ms)", n)
	}
	if n := events("/unlifted"); n >= 6 {
		t.Errorf("an answer that did not lift the bound got all %d events over 600 ms; want it cut at 150 ms", n)
	}
}

// A handler that closes a body it did not read does not wait for it
// without end: what is left is read under the body's deadline.
func TestClosingAStalledBodyIsBounded(t *testing.T) {
	t.Parallel()
	m := http.NewServeMux()
	m.HandleFunc("/read", func(w http.ResponseWriter, r *http.Request) {
		r.Body.Close()
		io.WriteString(w, "closed")
	})
	addr, d := serve(t, httpdoor.Limits{BodyTimeout: 200 * time.Millisecond}, m)
	if s := stall(t, addr); !s.cut(10 * time.Second) {
		t.Fatal("a body closed unread still holds its connection 10 s on; want it cut after 200 ms")
	}
	eventually(t, 5*time.Second, "the cut body counted", func() bool { return d.Stats().Refused[httpdoor.RefusedBodyTimeout] == 1 })
}
