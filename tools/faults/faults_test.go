package faults

import (
	"context"
	"errors"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/chesshall/hallclock/clockdev/sim"
	"github.com/chesshall/hallclock/internal/testkit/faultfs"
	"github.com/chesshall/hallclock/internal/testkit/halltest"
)

const speed = 20 // clocks and server alike: blitz rounds in seconds

// fleet plays on the hall until the returned stop is called; every
// acknowledged event goes into book.
func fleet(t *testing.T, h *hall, chief string, boards int, book *ackBook) (stop func() sim.Summary) {
	t.Helper()
	f, err := sim.New(sim.Config{
		Target: h.grpc, ChiefToken: chief, Speed: speed, Seed: 8, Loop: true,
		Rounds: []sim.RoundSpec{{TimeControl: "60+1", Boards: boards}},
		OnAck:  book.onAck, Logger: slog.New(slog.DiscardHandler),
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan sim.Summary, 1)
	go func() {
		sum, err := f.Run(ctx)
		if err != nil && !errors.Is(err, context.Canceled) {
			t.Errorf("fleet: %v", err)
		}
		done <- sum
	}()
	return func() sim.Summary { cancel(); return <-done }
}

func watch(t *testing.T, h *hall, chief string) *halltest.Watcher {
	t.Helper()
	conn, err := grpc.NewClient(h.grpc, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	return halltest.Watch(ctx, conn, chief)
}

// Kill -9 of a real server, cycle after cycle, while a fleet presses:
// nothing acknowledged is lost or stored twice, and the logs replay to what
// the watchers saw.
func TestKillCycles(t *testing.T) {
	need(t)
	cycles := 6
	if n, err := strconv.Atoi(os.Getenv("HALL_FAULT_CYCLES")); err == nil && n > 0 {
		cycles = n
	}
	dir := t.TempDir()
	h := newHall(t, dir, speed)
	p := h.start()
	if p.chief == "" {
		t.Fatalf("no chief token printed:\n%s", p.out)
	}
	chief := p.chief

	// One server per data directory: a second exits at once, naming it.
	second := h.launch()
	out, err := second.wait(t, 10*time.Second)
	if err == nil || !strings.Contains(out, "PID "+strconv.Itoa(p.cmd.Process.Pid)) {
		t.Errorf("a second server on the data directory: %v\n%s\nwant it to exit naming PID %d", err, out, p.cmd.Process.Pid)
	}

	book := newAckBook()
	w := watch(t, h, chief)
	stop := fleet(t, h, chief, 24, book)
	rng := rand.New(rand.NewPCG(1, 2))
	began := time.Now()
	db := filepath.Join(dir, "hall.db")
	for c := 1; c <= cycles; c++ {
		time.Sleep(time.Duration(1500+rng.IntN(2000)) * time.Millisecond)
		p.kill()
		// Each cycle, with the server dead: everything acknowledged so far
		// is stored once, and every board's log holds what the watcher saw
		// and replays to it.
		v := check(t, db, book, w, false)
		if t.Failed() {
			t.Fatalf("cycle %d: %v", c, v)
		}
		figures("kill -9 cycle %d: %v", c, v)
		p = h.start()
	}
	time.Sleep(3 * time.Second) // the clocks resend what the last kill left unacknowledged
	sum := stop()
	caughtUp(t, db, w)
	p.stop(t)
	v := check(t, db, book, w, true)
	figures("kill -9: %d cycles in %v; %v; fleet: %d presses, %d connects", cycles, time.Since(began).Round(time.Second), v, sum.Presses, sum.Connects)
	if v.acked < 100*cycles/2 {
		t.Errorf("only %d events acknowledged over %d cycles: the fleet hardly played", v.acked, cycles)
	}
}

// A full disk: the hall turns not ready and loses nothing it
// acknowledged; once space is freed it is ready and plays on.
func TestFullDisk(t *testing.T) {
	need(t)
	dir := faultfs.Small(t, 24<<20)
	h := newHall(t, filepath.Join(dir, "hall"), speed)
	p := h.start()
	chief := p.chief
	book := newAckBook()
	w := watch(t, h, chief)
	stop := fleet(t, h, chief, 12, book)
	halltest.Eventually(t, 30*time.Second, func() error {
		if n := book.count(); n < 100 {
			return errors.New("the fleet has not played yet")
		}
		return nil
	})
	filler := faultfs.Fill(t, dir)
	halltest.Eventually(t, 15*time.Second, func() error {
		if code, body := h.ready(); code != 503 {
			return errors.New("/readyz " + strconv.Itoa(code) + " " + body)
		}
		return nil
	})
	code, body := h.ready()
	atFault := book.count()
	time.Sleep(3 * time.Second)
	during := book.count() - atFault
	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	halltest.Eventually(t, 15*time.Second, func() error {
		if c, b := h.ready(); c != 200 {
			return errors.New("/readyz " + strconv.Itoa(c) + " " + b)
		}
		return nil
	})
	resumed := book.count()
	halltest.Eventually(t, 30*time.Second, func() error {
		if book.count() < resumed+50 {
			return errors.New("no play after the disk was freed")
		}
		return nil
	})
	stop()
	db := filepath.Join(h.dir, "hall.db")
	caughtUp(t, db, w)
	p.stop(t)
	v := check(t, db, book, w, true)
	figures("full disk: /readyz said %d %q; %d events acknowledged while full, play resumed after freeing; %v", code, body, during, v)
	if !strings.Contains(body, "space") && !strings.Contains(body, "full") {
		t.Errorf("/readyz on a full disk said %q, want it to say the disk is full", body)
	}
}

// A read-only store: the server refuses to start and says so (not "no
// such file"), for a new hall and for an existing one.
func TestReadOnlyStore(t *testing.T) {
	need(t)
	for _, c := range []struct {
		name     string
		populate func(dir string)
	}{
		{"new hall", func(string) {}},
		{"existing hall", func(dir string) {
			h := newHall(t, dir, 1)
			h.start().stop(t)
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := faultfs.ReadOnly(t, c.populate)
			p := newHall(t, dir, 1).launch()
			out, err := p.wait(t, 15*time.Second)
			ok := err != nil && (strings.Contains(out, "read-only file system") || strings.Contains(out, "permission denied")) && !strings.Contains(out, "no such file")
			figures("read-only store (%s): hallserver exited (%v): %s", c.name, err, strings.TrimSpace(out))
			if !ok {
				t.Errorf("hallserver on a read-only store: %v\n%s\nwant it to exit saying the store is read-only", err, out)
			}
		})
	}
}
