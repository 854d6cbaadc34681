package main

import (
	"bytes"
	"context"
	"io"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"

	"github.com/chesshall/hallclock/internal/testkit/halltest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/storage"
)

// running is a Main serving in the test process.
type running struct {
	grpc, http net.Addr
	out        *halltest.SyncBuffer
	stop       func() error
}

// serve runs m until the test stops it; it fails the test if Run ends
// before it is ready.
func serve(t *testing.T, m *Main) *running {
	t.Helper()
	r := &running{out: &halltest.SyncBuffer{}}
	m.Stdout, m.Stderr = r.out, io.Discard
	if m.GRPCAddr == "" {
		m.GRPCAddr = "127.0.0.1:0"
	}
	if m.HTTPAddr == "" {
		m.HTTPAddr = "127.0.0.1:0"
	}
	m.LogLevel, m.Grace = "error", time.Second
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan [2]net.Addr, 1)
	m.Ready = func(g, h net.Addr) { ready <- [2]net.Addr{g, h} }
	done := make(chan error, 1)
	go func() { done <- m.Run(ctx) }()
	select {
	case a := <-ready:
		r.grpc, r.http = a[0], a[1]
	case err := <-done:
		cancel()
		t.Fatalf("Run ended before serving: %v", err)
	}
	var once sync.Once
	var err error
	r.stop = func() error {
		once.Do(func() { cancel(); err = <-done })
		return err
	}
	t.Cleanup(func() { r.stop() })
	return r
}

// runErr runs m expecting it to fail at once, and returns its error.
func runErr(t *testing.T, m *Main) error {
	t.Helper()
	m.Stdout, m.Stderr, m.LogLevel, m.Grace = io.Discard, io.Discard, "error", time.Second
	if m.GRPCAddr == "" {
		m.GRPCAddr = "127.0.0.1:0"
	}
	if m.HTTPAddr == "" {
		m.HTTPAddr = "127.0.0.1:0"
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ready := make(chan struct{}, 1)
	m.Ready = func(net.Addr, net.Addr) { ready <- struct{}{} }
	done := make(chan error, 1)
	go func() { done <- m.Run(ctx) }()
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("Run = nil, want an error")
		}
		return err
	case <-ready:
		cancel()
		<-done
		t.Fatal("Run served, want it to refuse")
	}
	return nil
}

var tokenRE = regexp.MustCompile(`hc_[A-Za-z0-9_-]+`)

// A second server on a data directory exits at once, naming the
// first one's process and addresses, instead of serving a split hall.
func TestSecondServerOnADataDirectoryExitsNamingTheFirst(t *testing.T) {
	dir := t.TempDir()
	first := serve(t, &Main{DataDir: dir})
	began := time.Now()
	err := runErr(t, &Main{DataDir: dir})
	msg := err.Error()
	for _, want := range []string{"PID " + strconv.Itoa(os.Getpid()), hostPort(first.grpc), hostPort(first.http), dir} {
		if !strings.Contains(msg, want) {
			t.Errorf("the second server said %q; want it to name %q", msg, want)
		}
	}
	if d := time.Since(began); d > 5*time.Second {
		t.Errorf("the second server took %v to give up; want at once", d)
	}
	if err := first.stop(); err != nil {
		t.Fatal(err)
	}
	// Once the first has stopped, the directory is free again.
	serve(t, &Main{DataDir: dir}).stop()
}

// A first start that fails (a port in use) creates no chief
// token nobody saw; the next start shows one.
func TestChiefTokenOnlyOnceTheListenersAreBound(t *testing.T) {
	dir := t.TempDir()
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	err = runErr(t, &Main{DataDir: dir, HTTPAddr: busy.Addr().String()})
	if !strings.Contains(err.Error(), "HTTP listener") {
		t.Errorf("Run with the HTTP port in use = %v, want it to say so", err)
	}
	r := serve(t, &Main{DataDir: dir})
	if !tokenRE.MatchString(r.out.String()) {
		t.Errorf("the first start that served printed no chief token:\n%s", r.out)
	}
}

// reset-chief recovers a lost chief token with file access
// only: the old token stops working, the new one works; it refuses while
// a server runs on the directory.
func TestResetChief(t *testing.T) {
	dir := t.TempDir()
	r := serve(t, &Main{DataDir: dir})
	old := tokenRE.FindString(r.out.String())
	if old == "" {
		t.Fatalf("no chief token printed:\n%s", r.out)
	}
	var out bytes.Buffer
	err := resetChief(context.Background(), []string{"-data-dir", dir}, &out, func(string) string { return "" })
	if err == nil || !strings.Contains(err.Error(), "PID "+strconv.Itoa(os.Getpid())) {
		t.Errorf("reset-chief while the server runs = %v, want a refusal naming it", err)
	}
	if err := r.stop(); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if err := resetChief(context.Background(), []string{"-data-dir", dir}, &out, func(string) string { return "" }); err != nil {
		t.Fatal(err)
	}
	fresh := tokenRE.FindString(out.String())
	if fresh == "" || fresh == old {
		t.Fatalf("reset-chief printed %q, want a new token", out.String())
	}
	r = serve(t, &Main{DataDir: dir})
	if tokenRE.MatchString(r.out.String()) {
		t.Errorf("the server issued yet another chief token after the reset:\n%s", r.out)
	}
	conn, err := grpc.NewClient(r.grpc.String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	arb := pb.NewArbiterClient(conn)
	if _, err := arb.ListTokens(halltest.Ctx(context.Background(), old), &pb.ListTokensRequest{}); status.Code(err) != codes.Unauthenticated {
		t.Errorf("the old chief token: %v, want Unauthenticated", err)
	}
	if _, err := arb.ListTokens(halltest.Ctx(context.Background(), fresh), &pb.ListTokensRequest{}); err != nil {
		t.Errorf("the new chief token: %v", err)
	}
}

// A 0-byte hall.db does not silently become a new hall with a
// new chief token; -new-hall says to.
func TestEmptyDatabaseIsNotANewHall(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "hall.db"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	err := runErr(t, &Main{DataDir: dir})
	if !strings.Contains(err.Error(), "empty") || !strings.Contains(err.Error(), "-new-hall") {
		t.Errorf("Run on an empty hall.db = %v, want it to say the file is empty and how to start anew", err)
	}
	r := serve(t, &Main{DataDir: dir, NewHall: true})
	if !tokenRE.MatchString(r.out.String()) {
		t.Errorf("-new-hall printed no chief token:\n%s", r.out)
	}
	_ = storage.ErrNoHall
}
