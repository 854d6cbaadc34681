package server_test

import (
	"context"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	"github.com/chesshall/hallclock/internal/testkit/faultfs"
	"github.com/chesshall/hallclock/internal/testkit/halltest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/server"
)

func getText(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// grpcHealth waits up to a few seconds for the gRPC health status want.
func grpcHealth(t *testing.T, h *halltest.Hall, want healthpb.HealthCheckResponse_ServingStatus) {
	t.Helper()
	hc := healthpb.NewHealthClient(h.Conn(t))
	halltest.Eventually(t, 5*time.Second, func() error {
		resp, err := hc.Check(context.Background(), &healthpb.HealthCheckRequest{Service: "hall.v1.ClockLink"})
		if err != nil {
			return err
		}
		if resp.GetStatus() != want {
			return &statusErr{resp.GetStatus(), want}
		}
		return nil
	})
}

type statusErr struct {
	got, want healthpb.HealthCheckResponse_ServingStatus
}

func (e *statusErr) Error() string {
	return "gRPC health " + e.got.String() + ", want " + e.want.String()
}

// A full disk. /healthz (liveness) stays ok; /readyz and the
// gRPC health status say the hall cannot commit, and come back once space
// is freed.
func TestReadinessFollowsAFullDisk(t *testing.T) {
	t.Parallel()
	dir := faultfs.Small(t, 4<<20)
	h := halltest.Start(t, halltest.InDir(dir), halltest.WithOptions(server.Options{ReadinessInterval: 50 * time.Millisecond}))
	web := h.HTTP(t)
	if code, body := getText(t, web+"/readyz"); code != 200 {
		t.Fatalf("/readyz before the fault: %d %s", code, body)
	}
	filler := faultfs.Fill(t, dir)
	arb, ctx := h.Arbiter(t)
	// Writes fail now (the store's fault, not the caller's).
	for i := 0; i < 200; i++ {
		_, err := arb.CreateTournament(ctx, &pb.CreateTournamentRequest{Name: strings.Repeat("x", 150) + string(rune('a'+i%26)),
			DefaultConfig: &pb.ClockConfig{TimeControl: "180+2"}})
		if err != nil {
			break
		}
	}
	code, body := getText(t, web+"/readyz")
	if code != http.StatusServiceUnavailable || !(strings.Contains(body, "space") || strings.Contains(body, "full")) {
		t.Errorf("/readyz on a full disk: %d %q; want 503 saying the disk is full", code, body)
	}
	if code, body := getText(t, web+"/healthz"); code != 200 {
		t.Errorf("/healthz on a full disk: %d %q; want 200 (liveness)", code, body)
	}
	grpcHealth(t, h, healthpb.HealthCheckResponse_NOT_SERVING)

	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	halltest.Eventually(t, 5*time.Second, func() error {
		if code, body := getText(t, web+"/readyz"); code != 200 {
			return &httpErr{code, body}
		}
		return nil
	})
	grpcHealth(t, h, healthpb.HealthCheckResponse_SERVING)
}

type httpErr struct {
	code int
	body string
}

func (e *httpErr) Error() string { return "HTTP " + http.StatusText(e.code) + ": " + e.body }

// A full disk without root: a store that can no longer commit (closed under
// the server) makes the hall not ready, while it stays alive.
func TestNotReadyWhenTheStoreCannotCommit(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t, halltest.WithOptions(server.Options{ReadinessInterval: 50 * time.Millisecond}))
	web := h.HTTP(t)
	if code, body := getText(t, web+"/readyz"); code != 200 {
		t.Fatalf("/readyz: %d %s", code, body)
	}
	grpcHealth(t, h, healthpb.HealthCheckResponse_SERVING)
	h.Store.Close()
	if code, body := getText(t, web+"/readyz"); code != http.StatusServiceUnavailable || !strings.Contains(body, "closed") {
		t.Errorf("/readyz with the store closed: %d %q, want 503", code, body)
	}
	if code, _ := getText(t, web+"/healthz"); code != 200 {
		t.Errorf("/healthz with the store closed: %d, want 200 (liveness)", code)
	}
	grpcHealth(t, h, healthpb.HealthCheckResponse_NOT_SERVING)
}
