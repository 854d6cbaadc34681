package main

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestFlagsFromEnvironment(t *testing.T) {
	m := &Main{Stderr: io.Discard}
	env := map[string]string{"HALL_DATA_DIR": "/srv/hall", "HALL_GRPC_ADDR": ":9000", "HALL_SHUTDOWN_GRACE": "2s"}
	if err := m.ParseFlags([]string{"-http-addr", ":9001"}, func(k string) string { return env[k] }); err != nil {
		t.Fatal(err)
	}
	if m.DataDir != "/srv/hall" || m.GRPCAddr != ":9000" || m.HTTPAddr != ":9001" || m.Grace != 2*time.Second {
		t.Errorf("flags = %+v, want data /srv/hall, grpc :9000, http :9001, grace 2s", m)
	}
	for _, bad := range [][]string{{"-tls-cert", "c.pem"}, {"-shutdown-grace", "soon"}, {"extra"}} {
		if err := (&Main{Stderr: io.Discard}).ParseFlags(bad, func(string) string { return "" }); err == nil {
			t.Errorf("ParseFlags(%q) = nil, want an error", bad)
		}
	}
}

// First start creates the data directory and prints a chief token; the
// second start on the same directory does not print one again.
func TestRunCreatesDataAndPrintsTokenOnce(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "hall")
	start := func() string {
		var out bytes.Buffer
		m := &Main{DataDir: dir, GRPCAddr: "127.0.0.1:0", HTTPAddr: "127.0.0.1:0", LogLevel: "error", Grace: time.Second, Stdout: &out, Stderr: io.Discard}
		ctx, cancel := context.WithCancel(context.Background())
		ready := make(chan net.Addr, 1)
		m.Ready = func(_, h net.Addr) { ready <- h }
		done := make(chan error, 1)
		go func() { done <- m.Run(ctx) }()
		var httpAddr net.Addr
		select {
		case httpAddr = <-ready:
		case err := <-done:
			t.Fatalf("Run ended early: %v", err)
		}
		resp, err := http.Get("http://" + httpAddr.String() + "/healthz")
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Errorf("GET /healthz = %v, %v; want 200", resp, err)
		}
		if resp != nil {
			resp.Body.Close()
		}
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run = %v after cancel, want nil", err)
		}
		return out.String()
	}
	first := start()
	if !strings.Contains(first, "chief-arbiter token") || !strings.Contains(first, "hc_") {
		t.Errorf("first start printed %q, want a chief-arbiter token", first)
	}
	if _, err := os.Stat(filepath.Join(dir, "hall.db")); err != nil {
		t.Errorf("no database in the data directory: %v", err)
	}
	if second := start(); strings.Contains(second, "hc_") {
		t.Errorf("second start printed a token again: %q", second)
	}
}
