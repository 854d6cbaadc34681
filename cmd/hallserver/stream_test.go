package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/chesshall/hallclock/formats/hallstream"
	"github.com/chesshall/hallclock/server"
)

// By default the hall runs NATS in its own process and publishes to it:
// the banner names the server, gateways can connect, the stream holds the
// hall, and /api/stream says all is published.
func TestRunPublishesToEmbeddedNATS(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "hall")
	var out bytes.Buffer
	m := &Main{DataDir: dir, GRPCAddr: "127.0.0.1:0", HTTPAddr: "127.0.0.1:0", LogLevel: "error", Grace: time.Second,
		HallID: "bergen-1", BroadcastDelay: 15 * time.Minute, Stdout: &out, Stderr: io.Discard}
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan net.Addr, 1)
	m.Ready = func(_, h net.Addr) { ready <- h }
	done := make(chan error, 1)
	go func() { done <- m.Run(ctx) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run = %v", err)
		}
	}()
	var httpAddr net.Addr
	select {
	case httpAddr = <-ready:
	case err := <-done:
		t.Fatalf("Run ended early: %v", err)
	}
	url := regexp.MustCompile(`NATS   embedded (nats://\S+), stream HALL_bergen-1`).FindStringSubmatch(out.String())
	if url == nil {
		t.Fatalf("banner %q names no embedded NATS server and stream", out.String())
	}
	token := regexp.MustCompile(`hc_\S+`).FindString(out.String())
	gatewaySeed := filepath.Join(dir, "nats", "gateway.nk")
	if !strings.Contains(out.String(), "-nats-nkey "+gatewaySeed) {
		t.Errorf("banner %q does not say how gateways connect", out.String())
	}
	// The port is any free one: the banner gives the command that follows it.
	follow := regexp.MustCompile(`follow it: (hallgateway -nats \S+ -nats-nkey \S+ -hall-key bergen-1=\S+)\n`).FindStringSubmatch(out.String())
	if follow == nil || !strings.Contains(follow[1], "-nats "+url[1]+" -nats-nkey "+gatewaySeed) {
		t.Errorf("banner %q: want the hallgateway command that follows %s", out.String(), url[1])
	}
	seed, err := nats.NkeyOptionFromSeed(gatewaySeed)
	if err != nil {
		t.Fatal(err)
	}
	nc, err := nats.Connect(url[1], seed)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, _ := jetstream.New(nc)
	var st server.StreamStatus
	deadline := time.Now().Add(10 * time.Second)
	for {
		req, _ := http.NewRequest("GET", "http://"+httpAddr.String()+"/api/stream", nil)
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		st = server.StreamStatus{}
		err = json.NewDecoder(resp.Body).Decode(&st)
		resp.Body.Close()
		if err == nil && st.Connected && st.Backlog == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("GET /api/stream = %+v (%v), want connected with nothing left to publish", st, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if st.Hall != "bergen-1" || st.Stream != "HALL_bergen-1" {
		t.Errorf("status %+v: want hall bergen-1, stream HALL_bergen-1", st)
	}
	s, err := js.Stream(context.Background(), "HALL_bergen-1")
	if err != nil {
		t.Fatal(err)
	}
	m0, err := s.GetLastMsgForSubject(context.Background(), "hall.bergen-1.meta.hall")
	if err != nil {
		t.Fatal(err)
	}
	msg, err := hallstream.Decode(m0.Subject, m0.Data)
	if err != nil || msg.Settings.DelayMs != (15*time.Minute).Milliseconds() {
		t.Errorf("the hall's settings in the stream = %+v, %v; want the 15m broadcast delay", msg.Settings, err)
	}
}
