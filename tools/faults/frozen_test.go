package faults

import (
	"context"
	"errors"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	"github.com/chesshall/hallclock/internal/testkit/faultfs"
	"github.com/chesshall/hallclock/internal/testkit/halltest"
)

// A frozen disk (fsfreeze of the store's file system; needs root and a
// loop device, skipped with a message otherwise) under a fleet: nothing
// fails, acknowledgements stop. Within a few seconds (the hall's
// -stall-after, 3 s) /readyz and gRPC health say the hall is not ready
// because its commits stalled, and it logs so once; after the thaw it is
// ready again, play resumes, and nothing acknowledged is lost.
func TestFrozenDisk(t *testing.T) {
	need(t)
	fz := faultfs.Freezable(t, 64<<20)
	h := newHall(t, filepath.Join(fz.Dir, "hall"), speed)
	p := h.start()
	t.Cleanup(fz.Thaw) // before the process is killed: a process waiting on a frozen disk may not die
	chief := p.chief
	book := newAckBook()
	w := watch(t, h, chief)
	stop := fleet(t, h, chief, 20, book)
	halltest.Eventually(t, 30*time.Second, func() error {
		if n := book.count(); n < 100 {
			return errors.New("the fleet has not played yet")
		}
		return nil
	})
	conn, err := grpc.NewClient(h.grpc, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	hc := healthpb.NewHealthClient(conn)
	health := func() healthpb.HealthCheckResponse_ServingStatus {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		r, err := hc.Check(ctx, &healthpb.HealthCheckRequest{})
		if err != nil {
			return healthpb.HealthCheckResponse_UNKNOWN
		}
		return r.GetStatus()
	}
	if c, b := h.ready(); c != 200 || health() != healthpb.HealthCheckResponse_SERVING {
		t.Fatalf("before the freeze: /readyz %d %q, gRPC health %s", c, b, health())
	}

	fz.Freeze()
	frozen := time.Now()
	atFreeze := book.count()
	var code int
	var body string
	halltest.Eventually(t, 15*time.Second, func() error {
		if code, body = h.ready(); code != 503 {
			return errors.New("/readyz " + strconv.Itoa(code) + " " + body + " on a frozen disk")
		}
		return nil
	})
	notReadyAfter := time.Since(frozen)
	grpcState := health()
	time.Sleep(10*time.Second - time.Since(frozen)) // frozen for 10 s, as in the issue
	during := book.count() - atFreeze
	fz.Thaw()
	thawed := time.Now()
	halltest.Eventually(t, 15*time.Second, func() error {
		if c, b := h.ready(); c != 200 {
			return errors.New("/readyz " + strconv.Itoa(c) + " " + b + " after the thaw")
		}
		return nil
	})
	readyAfter := time.Since(thawed)
	resumed := book.count()
	halltest.Eventually(t, 30*time.Second, func() error {
		if book.count() < resumed+50 {
			return errors.New("no play after the thaw")
		}
		return nil
	})
	stop()
	db := filepath.Join(h.dir, "hall.db")
	caughtUp(t, db, w)
	p.stop(t)
	v := check(t, db, book, w, true)
	logged := strings.Count(p.out.String(), "not ready: the hall cannot commit events")
	figures("frozen disk: not ready %.1f s after the freeze, saying %q; gRPC health %s; %d events acknowledged while frozen; ready %.1f s after the thaw; logged %d times; %v",
		notReadyAfter.Seconds(), body, grpcState, during, readyAfter.Seconds(), logged, v)
	if !strings.Contains(body, "stalled") {
		t.Errorf("/readyz on a frozen disk said %q, want it to say the commits stalled", body)
	}
	if grpcState != healthpb.HealthCheckResponse_NOT_SERVING {
		t.Errorf("gRPC health on a frozen disk: %s, want NOT_SERVING", grpcState)
	}
	if logged != 1 || !strings.Contains(p.out.String(), "commits stalled") {
		t.Errorf("the stall was logged %d times; want once, saying the commits stalled:\n%s", logged, p.out)
	}
}
