package server_test

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	"github.com/chesshall/hallclock/internal/mono"
	"github.com/chesshall/hallclock/internal/testkit/faultfs"
	"github.com/chesshall/hallclock/internal/testkit/halltest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/server"
	"github.com/chesshall/hallclock/storage"
)

// A disk that stops answering (a frozen file system) fails no write:
// acknowledgements just stop. The hall said it was ready, and logged
// nothing, for as long as it lasted. Now, once a write has waited the
// store's StallAfter (3 s here) for its commit, the hall is not ready and
// says why, its gRPC health status turns NOT_SERVING by itself (a Watch
// hears it without anyone asking /readyz), and one line is logged; when
// the disk answers again, the write commits (nothing lost) and the hall is
// ready again, with one line more.
func TestAStalledStoreMakesTheHallNotReady(t *testing.T) {
	t.Parallel()
	clock := mono.NewFake(time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC))
	disk := faultfs.NewStall()
	logs := &halltest.SyncBuffer{}
	h := halltest.Start(t,
		halltest.WithOptions(server.Options{ReadinessClock: clock, ReadinessInterval: time.Hour,
			Logger: slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelInfo}))}),
		halltest.WithStore(storage.Options{Now: clock.Now, StallAfter: 3 * time.Second, BeforeCommit: disk.Hook}))
	t.Cleanup(disk.Thaw) // before the hall stops: its store waits for the commit
	web := h.HTTP(t)
	if code, body := getText(t, web+"/readyz"); code != 200 {
		t.Fatalf("/readyz before the fault: %d %s", code, body)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	hc := healthpb.NewHealthClient(h.Conn(t))
	watch, err := hc.Watch(ctx, &healthpb.HealthCheckRequest{Service: "hall.v1.ClockLink"})
	if err != nil {
		t.Fatal(err)
	}
	statuses := make(chan healthpb.HealthCheckResponse_ServingStatus, 8)
	go func() {
		for {
			resp, err := watch.Recv()
			if err != nil {
				return
			}
			statuses <- resp.GetStatus()
		}
	}()
	next := func(want healthpb.HealthCheckResponse_ServingStatus) {
		t.Helper()
		select {
		case got := <-statuses:
			if got != want {
				t.Fatalf("gRPC health Watch said %s, want %s", got, want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("gRPC health Watch said nothing; want %s", want)
		}
	}
	next(healthpb.HealthCheckResponse_SERVING)

	disk.Freeze()
	arb, actx := h.Arbiter(t)
	created := make(chan error, 1)
	go func() {
		_, err := arb.CreateTournament(actx, &pb.CreateTournamentRequest{Name: "Written in a stall",
			DefaultConfig: &pb.ClockConfig{TimeControl: "90+30"}})
		created <- err
	}()
	select {
	case <-disk.Waiting():
	case <-time.After(10 * time.Second):
		t.Fatal("no commit waits on the frozen disk")
	}
	// The follower waits on the clock for the moment the write would stall.
	halltest.Eventually(t, 10*time.Second, func() error {
		if clock.Pending() != 1 {
			return errors.New("the readiness follower is not waiting on its clock")
		}
		return nil
	})
	clock.Advance(2999 * time.Millisecond)
	if code, body := getText(t, web+"/readyz"); code != 200 {
		t.Errorf("/readyz after a write waited 2.999 s: %d %q; want 200 (not ready from 3 s)", code, body)
	}
	clock.Advance(time.Millisecond)
	next(healthpb.HealthCheckResponse_NOT_SERVING)
	for range 2 {
		code, body := getText(t, web+"/readyz")
		if code != http.StatusServiceUnavailable || !strings.Contains(body, "stalled") || !strings.Contains(body, "waited 3s") {
			t.Errorf("/readyz in the stall: %d %q; want 503 saying the commits stalled, for how long", code, body)
		}
	}
	resp, err := hc.Check(ctx, &healthpb.HealthCheckRequest{})
	if err != nil || resp.GetStatus() != healthpb.HealthCheckResponse_NOT_SERVING {
		t.Errorf("gRPC health Check in the stall = %v, %v; want NOT_SERVING", resp, err)
	}
	if n := strings.Count(logs.String(), "not ready: the hall cannot commit events"); n != 1 || !strings.Contains(logs.String(), "commits stalled") {
		t.Errorf("the stall's beginning was logged %d times; want once, saying the commits stalled:\n%s", n, logs.String())
	}

	disk.Thaw()
	if err := <-created; err != nil {
		t.Errorf("the tournament created in the stall: %v; want it committed once the disk answers", err)
	}
	next(healthpb.HealthCheckResponse_SERVING)
	if code, body := getText(t, web+"/readyz"); code != 200 {
		t.Errorf("/readyz after the stall: %d %q; want 200", code, body)
	}
	out := logs.String()
	if n, m := strings.Count(out, "not ready: the hall cannot commit events"), strings.Count(out, "ready again"); n != 1 || m != 1 {
		t.Errorf("logged %d lines for the stall's beginning and %d for its end; want one each:\n%s", n, m, out)
	}
}
