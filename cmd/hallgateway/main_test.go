package main

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"fmt"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chesshall/hallclock/formats/hallstream"
	"github.com/chesshall/hallclock/internal/natsrun"
	"github.com/chesshall/hallclock/internal/testkit/halltest"
)

func TestFlags(t *testing.T) {
	m := &Main{Stderr: io.Discard}
	env := map[string]string{"HALL_NATS": "nats://a:4222,nats://b:4222", "HALL_GATEWAY_HALLS": "bergen, oslo"}
	if err := m.ParseFlags([]string{"-broadcast-delay", "15m"}, func(k string) string { return env[k] }); err != nil {
		t.Fatal(err)
	}
	if m.NATS != "nats://a:4222,nats://b:4222" || strings.Join(m.Halls, "|") != "bergen|oslo" || m.Delay != 15*time.Minute {
		t.Errorf("flags = %+v", m)
	}
	key := hallstream.KeyString(ed25519.NewKeyFromSeed(make([]byte, ed25519.SeedSize)).Public().(ed25519.PublicKey))
	m = &Main{Stderr: io.Discard}
	if err := m.ParseFlags([]string{"-hall-key", "bergen=" + key + ", oslo=" + key, "-allow-unsigned"}, func(string) string { return "" }); err != nil {
		t.Fatal(err)
	}
	if len(m.Keys["bergen"]) != 1 || len(m.Keys["oslo"]) != 1 || !m.AllowUnsigned {
		t.Errorf("-hall-key, -allow-unsigned = %v, %v", m.Keys, m.AllowUnsigned)
	}
	seed := filepath.Join(t.TempDir(), "gateway.nk")
	if _, err := natsrun.UserSeed(seed); err != nil {
		t.Fatal(err)
	}
	for _, bad := range [][]string{{"-halls", "a.b"}, {"-broadcast-delay", "soon"}, {"extra"}, {"-nats", ""},
		{"-hall-key", key}, {"-hall-key", "bergen=short"}, {"-hall-key", "a.b=" + key},
		{"-nats-nkey", seed, "-nats-creds", seed}, {"-nats-nkey", seed + ".missing"}, {"-nats-tls-cert", seed}} {
		if err := (&Main{Stderr: io.Discard}).ParseFlags(bad, func(string) string { return "" }); err == nil {
			t.Errorf("ParseFlags(%q) = nil, want an error", bad)
		}
	}
}

// The gateway starts whether or not a hall publishes yet, says where it
// serves, is alive at once and ready only once it follows a hall.
func TestRunServes(t *testing.T) {
	n, err := natsrun.Start(natsrun.Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Shutdown()
	var out bytes.Buffer
	m := &Main{NATS: n.URL(), GRPCAddr: "127.0.0.1:0", HTTPAddr: "127.0.0.1:0", LogLevel: "error", Grace: time.Second, Stdout: &out, Stderr: io.Discard}
	ctx, cancel := context.WithCancel(context.Background())
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
	for path, want := range map[string]int{"/healthz": 200, "/readyz": 503, "/api/federation": 200, "/": 200} {
		resp, err := http.Get("http://" + addr.String() + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("GET %s = %d, want %d", path, resp.StatusCode, want)
		}
	}
	if !strings.Contains(out.String(), "following every hall") {
		t.Errorf("banner %q", out.String())
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Run = %v after cancel", err)
	}
}

// syncBuffer is a log written from several goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// Without the credentials its NATS server asks for, the gateway says so
// in its log at once, with what to give, and keeps trying.
func TestRunSaysWhyItCannotFollow(t *testing.T) {
	seed := filepath.Join(t.TempDir(), "gateway.nk")
	key, err := natsrun.UserSeed(seed)
	if err != nil {
		t.Fatal(err)
	}
	n, err := natsrun.Start(natsrun.Options{Dir: t.TempDir(), Users: []natsrun.User{natsrun.FollowerUser(key)}})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Shutdown()
	var logs syncBuffer
	m := &Main{NATS: n.URL(), GRPCAddr: "127.0.0.1:0", HTTPAddr: "127.0.0.1:0", LogLevel: "info", Grace: time.Second, Stdout: io.Discard, Stderr: &logs}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- m.Run(ctx) }()
	defer func() {
		cancel()
		<-done
	}()
	halltest.Eventually(t, 10*time.Second, func() error {
		if !strings.Contains(logs.String(), "Authorization Violation") {
			return fmt.Errorf("the log says nothing of the authorization violation:\n%s", logs.String())
		}
		return nil
	})
	if l := logs.String(); !strings.Contains(l, `level=WARN msg="gateway: cannot follow the halls"`) || !strings.Contains(l, "-nats-nkey") {
		t.Errorf("log %q: want a WARN line saying why, and what to give", l)
	}
}
