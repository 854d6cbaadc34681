package fanout

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// Ingest is behind after a sample whose worst press took over 500 ms to
// be acknowledged, until a second passes without another; then the held
// watchers are released at once.
func TestIngest(t *testing.T) {
	var m Ingest
	t0 := time.Unix(1_700_000_000, 0)
	m.ObserveAck(400 * time.Millisecond)
	m.Sample(t0)
	if m.behind() != nil {
		t.Fatal("behind after a worst of 400 ms")
	}
	m.ObserveAck(100 * time.Millisecond)
	m.ObserveAck(600 * time.Millisecond)
	m.ObserveAck(200 * time.Millisecond)
	m.Sample(t0.Add(250 * time.Millisecond))
	release := m.behind()
	if release == nil {
		t.Fatal("not behind after a worst of 600 ms")
	}
	m.Sample(t0.Add(1000 * time.Millisecond)) // nothing since: the hold runs to 1.25 s
	select {
	case <-release:
		t.Fatal("released 750 ms after the slow sample")
	default:
	}
	if m.behind() != release {
		t.Fatal("a new hold while still behind")
	}
	m.Sample(t0.Add(1250 * time.Millisecond))
	select {
	case <-release:
	default:
		t.Fatal("not released a second after the slow sample")
	}
	if m.behind() != nil {
		t.Fatal("still behind once released")
	}
}

// However long ingest stays behind, a held watcher gets an update every
// watchFloor, with what changed meanwhile: never none, and so never a view
// more than about a second old. In a bubble of its own (synctest): the
// hold's times are real ones, here virtual.
func TestHeldWatcherGetsAnUpdateEveryFloor(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var m Ingest
		h := NewHub(0)
		h.HoldWith(m.Hold)
		h.Publish("R", &pb.BoardState{BoardId: "b0"}, 1)
		sub := h.Subscribe(Scope{}, 0, 50*time.Millisecond)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		if u, err := sub.NextUpdate(ctx); err != nil || !u.Msg().GetSnapshot() {
			t.Fatalf("first update: %v, %v; want a snapshot", u, err)
		}
		// Ingest behind from now on (a press acknowledged a second late
		// in every sample), and a board changing every 10 ms.
		start := time.Now()
		m.ObserveAck(time.Second)
		m.Sample(start)
		published := make(chan struct{})
		defer func() { cancel(); <-published; sub.Close() }()
		go func() {
			defer close(published)
			for seq := uint64(2); ctx.Err() == nil; seq++ {
				m.ObserveAck(time.Second)
				if seq%25 == 0 {
					m.Sample(time.Now())
				}
				h.Publish("R", &pb.BoardState{BoardId: "b0", BoardSeq: seq}, seq)
				time.Sleep(10 * time.Millisecond)
			}
		}()
		last, lastSeq := start, uint64(1)
		for range 6 {
			u, err := sub.NextUpdate(ctx)
			if err != nil {
				t.Fatal(err)
			}
			now := time.Now()
			if gap := now.Sub(last); gap < watchFloor || gap > watchFloor+100*time.Millisecond {
				t.Errorf("update %s after the last one while ingest is behind, want %s to %s", gap, watchFloor, watchFloor+100*time.Millisecond)
			}
			if seq := u.Msg().GetSeq(); seq < lastSeq+uint64(watchFloor/(10*time.Millisecond))-2 {
				t.Errorf("update at seq %d after one at %d: want what changed in the %s held, merged", seq, lastSeq, watchFloor)
			}
			last, lastSeq = now, u.Msg().GetSeq()
		}
		if m.Holds() < 6 {
			t.Errorf("holds counted: %d, want at least the 6 updates'", m.Holds())
		}
	})
}
