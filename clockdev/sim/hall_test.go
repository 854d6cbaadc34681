package sim_test

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/chesshall/hallclock/clockdev"
	"github.com/chesshall/hallclock/clockdev/sim"
	"github.com/chesshall/hallclock/internal/testkit/halltest"
	"github.com/chesshall/hallclock/internal/wire"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
	"github.com/chesshall/hallclock/server"
	"github.com/chesshall/hallclock/storage"
)

// hall is a real server on a temporary database, on a clock speed times
// faster than real time, with a watcher of the whole hall and a record of
// every event the devices saw acknowledged.
type hall struct {
	*halltest.Hall
	speed     float64
	w         *halltest.Watcher
	outboxDir string

	mu    sync.Mutex
	acked map[string][]clockdev.Acked // by device
}

func startHall(t *testing.T, speed float64) *hall {
	t.Helper()
	// The hall's database on tmpfs too: these tests check what the hall
	// records, not the disk, and a dozen halls fsyncing at once on a shared
	// disk made acknowledgements take seconds (game minutes at 100x).
	// Keepalive more patient than a venue's: two hundred clocks and the
	// hall in one process under the race detector, on a machine others
	// load too, can leave a connection unread for seconds (the round's
	// StartRound then failed with UNAVAILABLE).
	patient := halltest.WithOptions(server.Options{KeepaliveTime: 5 * time.Second, KeepaliveTimeout: 20 * time.Second})
	h := &hall{Hall: halltest.Start(t, patient, halltest.OnLoopback(), halltest.WithSpeed(speed), halltest.InDir(outboxDir(t))), speed: speed, acked: map[string][]clockdev.Acked{}}
	h.w = h.Hall.WatchHall(t)
	h.outboxDir = outboxDir(t)
	return h
}

// outboxDir returns a directory for the devices' file outboxes: on tmpfs
// when there is one, so that 200 devices fsyncing every event and every
// acknowledgement measure the hall, not the test machine's disk.
func outboxDir(t *testing.T) string {
	t.Helper()
	if fi, err := os.Stat("/dev/shm"); err == nil && fi.IsDir() {
		if dir, err := os.MkdirTemp("/dev/shm", "sim-outbox-"); err == nil {
			t.Cleanup(func() { os.RemoveAll(dir) })
			return dir
		}
	}
	return t.TempDir()
}

// config returns a fleet configuration for the hall: seeded, recording
// acknowledgements, reading the server's counters.
func (h *hall) config(rounds ...sim.RoundSpec) sim.Config {
	return sim.Config{
		Target: h.Addr(), ChiefToken: h.Chief, Speed: h.speed, Seed: 1, Rounds: rounds,
		OnAck: func(dev string, a clockdev.Acked) {
			h.mu.Lock()
			h.acked[dev] = append(h.acked[dev], a)
			h.mu.Unlock()
		},
		HallStats: h.stats,
		Logger:    testLogger(),
		OutboxDir: h.outboxDir,
	}
}

func (h *hall) stats() sim.HallStats {
	s := h.Server.Stats()
	return sim.HallStats{Connects: s.Connects, Applied: s.EventsApplied, Rejected: s.Rejected,
		Duplicates: s.Duplicates, Gaps: s.Gaps, Commands: s.Commands}
}

// testLogger shows the fleet's warnings with SIM_LOG=1.
func testLogger() *slog.Logger {
	if os.Getenv("SIM_LOG") == "" {
		return slog.New(slog.DiscardHandler)
	}
	return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
}

// run runs a fleet to the end within limit and returns its summary.
func (h *hall) run(t *testing.T, cfg sim.Config, limit time.Duration) sim.Summary {
	t.Helper()
	if testing.Verbose() && cfg.Progress == nil {
		cfg.Progress, cfg.ProgressEvery = os.Stdout, 5*time.Second
	}
	f, err := sim.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	began := time.Now()
	sum, err := f.Run(ctx)
	t.Logf("fleet ran %s:\n%v", time.Since(began).Round(time.Millisecond), sum)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	return sum
}

// ruled keeps what the rules and the log decide of a board state.
func ruled(s *pb.BoardState) *pb.BoardState {
	c := halltest.Ruled(s)
	c.BoardId = ""
	return c
}

// hallReport is what check found, for the tests' own assertions.
type hallReport struct {
	boards   []storage.BoardRecord
	events   map[string][]storage.EventRecord // by board
	final    map[string]rules.State           // replayed from scratch
	acked    int                              // acknowledged events checked against the store
	rejected int
}

// check verifies the hall's record: every board finished exactly once and
// nothing after; every device sequence number at most once; every event a
// device saw acknowledged (and not refused) in the store exactly once, as
// sent; every board's log replaying from scratch to the state the watcher
// saw last.
func (h *hall) check(t *testing.T) hallReport {
	t.Helper()
	ctx := context.Background()
	boards, err := h.Store.Boards(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	rep := hallReport{boards: boards, events: map[string][]storage.EventRecord{}, final: map[string]rules.State{}}
	type devSeq struct {
		dev string
		seq uint64
	}
	bySeq := map[devSeq]storage.EventRecord{}
	watchDeadline := time.Now().Add(15 * time.Second) // for the watcher to catch up
	for _, b := range boards {
		evs, err := h.Store.Events(ctx, b.ID, 0)
		if err != nil {
			t.Fatal(err)
		}
		rep.events[b.ID] = evs
		st, err := rules.NewState(b.Config)
		if err != nil {
			t.Fatal(err)
		}
		endings := 0
		for i, e := range evs {
			if e.DeviceID != "" {
				k := devSeq{e.DeviceID, e.DeviceSeq}
				if prev, dup := bySeq[k]; dup {
					t.Errorf("device %s seq %d stored twice: board %s event %d and board %s event %d", k.dev, k.seq, prev.BoardID, prev.BoardSeq, e.BoardID, e.BoardSeq)
				}
				bySeq[k] = e
			}
			if st.Over() {
				t.Errorf("board %d (%s): event %d (%s by %s) after the game ended with %s %s", b.Number, b.ID, i+1, e.Event, e.Actor, st.Result, st.Termination)
			}
			n, err := rules.Apply(st, e.Event)
			if err != nil {
				t.Errorf("board %s: stored event %d does not apply: %v", b.ID, i+1, err)
				break
			}
			if n.Over() && !st.Over() {
				endings++
			}
			st = n
		}
		if endings != 1 || !st.Over() {
			t.Errorf("board %d (%s): %d events ended the game, final status %s; want exactly one ending", b.Number, b.ID, endings, st.Status)
		}
		rs, seq, err := h.Store.ReplayFromScratch(ctx, b.ID)
		if err != nil {
			t.Fatalf("ReplayFromScratch(%s): %v", b.ID, err)
		}
		rep.final[b.ID] = rs
		want := wire.State(rs)
		want.BoardSeq = seq
		var got *pb.BoardState
		for {
			got = h.w.Last(b.ID)
			if got.GetBoardSeq() >= seq || time.Now().After(watchDeadline) {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		if got == nil {
			t.Errorf("board %s: the watcher never saw it", b.ID)
		} else if g, w := ruled(got), ruled(want); !proto.Equal(g, w) {
			t.Errorf("board %d (%s): the watcher's last state differs from the replayed log:\n got %v\nwant %v", b.Number, b.ID, g, w)
		}
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	for dev, as := range h.acked {
		seen := map[uint64]bool{}
		for _, a := range as {
			ev := a.Event
			if seen[ev.GetSeq()] {
				t.Errorf("device %s: seq %d acknowledged twice", dev, ev.GetSeq())
			}
			seen[ev.GetSeq()] = true
			if a.Rejection != nil {
				rep.rejected++
				continue
			}
			rep.acked++
			e, ok := bySeq[devSeq{dev, ev.GetSeq()}]
			if !ok {
				t.Errorf("device %s: acknowledged seq %d (%v on %s) is not in the store", dev, ev.GetSeq(), ev.GetAction().GetKind(), ev.GetBoardId())
				continue
			}
			if e.BoardID != ev.GetBoardId() || wire.Action(e.Event).GetKind() != ev.GetAction().GetKind() || e.Event.T != ev.GetAction().GetTMs() {
				t.Errorf("device %s seq %d: stored %s on %s, acknowledged %v at %d on %s", dev, ev.GetSeq(), e.Event, e.BoardID,
					ev.GetAction().GetKind(), ev.GetAction().GetTMs(), ev.GetBoardId())
			}
		}
	}
	return rep
}

// describe summarises a report for the log.
func (r hallReport) String() string {
	ends := map[string]int{}
	for _, st := range r.final {
		ends[string(st.Result)+" "+string(st.Termination)]++
	}
	return fmt.Sprintf("%d boards, %d acknowledged events found in the store (%d refused), endings %v", len(r.boards), r.acked, r.rejected, ends)
}
