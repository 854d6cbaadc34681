package faults

import (
	"context"
	"errors"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
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
// acknowledged. A little space freed: it writes its log back and either
// takes events again or says in /readyz how much more space it needs;
// once that is free it is ready, takes the clocks' backlog without
// turning not ready again, and is ready after a restart too.
func TestFullDisk(t *testing.T) {
	need(t)
	dir := faultfs.Small(t, 24<<20)
	h := newHall(t, filepath.Join(dir, "hall"), speed)
	p := h.start()
	chief := p.chief
	book := newAckBook()
	w := watch(t, h, chief)
	stop := fleet(t, h, chief, 32, book)
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
	time.Sleep(8 * time.Second) // the clocks gather a backlog
	during := book.count() - atFault

	free := func(n int64) {
		t.Helper()
		fi, err := os.Stat(filler)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Truncate(filler, max(fi.Size()-n, 0)); err != nil {
			t.Fatal(err)
		}
	}
	more := regexp.MustCompile(`free ([0-9.]+) MiB more`)
	if !more.MatchString(body) {
		t.Errorf("/readyz on a full disk said %q, want it to say how much space to free", body)
	}
	free(512 << 10)
	var littleCode int
	var littleBody string
	halltest.Eventually(t, 20*time.Second, func() error {
		littleCode, littleBody = h.ready()
		if littleCode == 200 || more.MatchString(littleBody) {
			return nil
		}
		return errors.New("/readyz " + strconv.Itoa(littleCode) + " " + littleBody + ": want ready, or how much space to free")
	})
	freedMore := 0.0
	if littleCode != 200 {
		freedMore, _ = strconv.ParseFloat(more.FindStringSubmatch(littleBody)[1], 64)
		free(int64(freedMore*(1<<20)) + 1<<20)
	}
	awaitReady := func(within time.Duration) {
		t.Helper()
		halltest.Eventually(t, within, func() error {
			if c, b := h.ready(); c != 200 {
				return errors.New("/readyz " + strconv.Itoa(c) + " " + b)
			}
			return nil
		})
	}
	awaitReady(15 * time.Second)
	resumed := book.count()
	var flaps []string
	halltest.Eventually(t, 30*time.Second, func() error {
		if c, b := h.ready(); c != 200 {
			flaps = append(flaps, b)
		}
		if book.count() < resumed+50 {
			return errors.New("no play after the disk was freed")
		}
		return nil
	})
	if len(flaps) > 0 {
		t.Errorf("the hall turned not ready %d times while it took the clocks' backlog: %q", len(flaps), flaps[0])
	}

	// A restart on the disk as it is now.
	p.stop(t)
	p = h.start()
	awaitReady(30 * time.Second)
	restarted := book.count()
	halltest.Eventually(t, 30*time.Second, func() error {
		if book.count() < restarted+50 {
			return errors.New("no play after the restart")
		}
		return nil
	})
	stop()
	db := filepath.Join(h.dir, "hall.db")
	caughtUp(t, db, w)
	p.stop(t)
	v := check(t, db, book, w, true)
	figures("full disk: /readyz said %d %q; %d events acknowledged while full; with 512 KiB freed it said %d %q; %.1f MiB more freed; play resumed, and after a restart; %v",
		code, body, during, littleCode, littleBody, freedMore, v)
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
