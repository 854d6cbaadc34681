package main

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// With -debug-addr the banner names the profiler's address and it serves
// the profiles; without it nothing is listening there (the public HTTP port
// has no /debug/pprof).
func TestDebugListenerServesProfiles(t *testing.T) {
	var out bytes.Buffer
	m := &Main{DataDir: filepath.Join(t.TempDir(), "hall"), GRPCAddr: "127.0.0.1:0", HTTPAddr: "127.0.0.1:0", DebugAddr: "127.0.0.1:0",
		LogLevel: "error", Grace: time.Second, Stdout: &out, Stderr: io.Discard}
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan net.Addr, 1)
	m.Ready = func(_, h net.Addr) { ready <- h }
	done := make(chan error, 1)
	go func() { done <- m.Run(ctx) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run = %v after cancel", err)
		}
	}()
	var httpAddr net.Addr
	select {
	case httpAddr = <-ready:
	case err := <-done:
		t.Fatalf("Run ended early: %v", err)
	}
	match := regexp.MustCompile(`debug  (http://\S+/debug/pprof/)`).FindStringSubmatch(out.String())
	if match == nil {
		t.Fatalf("banner %q names no debug address", out.String())
	}
	get := func(url string) (int, string) {
		resp, err := http.Get(url)
		if err != nil {
			t.Fatalf("GET %s: %v", url, err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, body := get(match[1] + "goroutine?debug=1"); code != http.StatusOK || !strings.Contains(body, "goroutine profile: total") {
		t.Errorf("goroutine profile: %d %.80q", code, body)
	}
	if code, body := get(match[1] + "mutex?debug=1"); code != http.StatusOK || !strings.Contains(body, "mutex") {
		t.Errorf("mutex profile: %d %.80q", code, body)
	}
	// The runtime's pauses so far, for the bench's windows.
	if code, body := get(strings.TrimSuffix(match[1], "pprof/") + "runtime"); code != http.StatusOK || !strings.Contains(body, `"pause_gc"`) {
		t.Errorf("runtime readings: %d %.80q", code, body)
	}
	if code, _ := get("http://" + httpAddr.String() + "/debug/pprof/"); code == http.StatusOK {
		t.Errorf("the public HTTP port serves the profiler")
	}
}
