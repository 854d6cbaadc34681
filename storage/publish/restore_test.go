package publish

import (
	"context"
	"maps"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/chesshall/hallclock/formats/hallstream"
	"github.com/chesshall/hallclock/internal/testkit/streamtest"
	"github.com/chesshall/hallclock/storage"
)

// restored is the hall h as a backup taken now holds it, opened where a
// restore puts it, once h has played on.
type restored struct {
	backup string
	seqs   map[string]uint64
}

func backup(t *testing.T, h *hall) restored {
	t.Helper()
	path := filepath.Join(t.TempDir(), "backup.db")
	if _, err := h.st.Backup(context.Background(), path); err != nil {
		t.Fatal(err)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	return restored{backup: path, seqs: maps.Clone(h.seqs)}
}

func (r restored) open(t *testing.T, h *hall) *hall {
	t.Helper()
	st, err := storage.Open(context.Background(), r.backup, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return &hall{t: t, st: st, id: h.id, seqs: maps.Clone(r.seqs), board: h.board}
}

// playedOnAfterBackup: a hall published, was backed up, played on and
// published that too; then it is restored from the backup, and its clocks
// resend more than it lost, so that its outbox outgrows the stream.
func playedOnAfterBackup(t *testing.T, nc *nats.Conn) (*hall, restored, int) {
	h := newHall(t, t.TempDir(), 2)
	h.play(5)
	p, stop := run(t, h, nc, Options{})
	drained(t, p)
	b := backup(t, h)
	h.play(5)
	drained(t, p)
	stop()
	return h, b, len(readStream(t, nc, h.id))
}

// A hall restored from an older backup (its file put back by hand, no
// restart mark) never writes into the stream that went on without it,
// and says so for as long as it lasts — also once its outbox outgrew the
// stream — with the command that fixes it.
func TestPublishRestoredByHandStopsWithALastingAlarm(t *testing.T) {
	n := startNATS(t)
	nc := connect(t, n.URL())
	h, b, before := playedOnAfterBackup(t, nc)
	r := b.open(t, h)
	r.play(8) // the clocks resend: more rows than the stream has
	p, _ := run(t, r, nc, Options{DivergedRetry: 20 * time.Millisecond, RestartHint: "hallserver stream-reset -data-dir D"})
	var s Status
	deadline := time.Now().Add(10 * time.Second)
	for {
		s, _ = p.Status(context.Background())
		if s.Sessions >= 5 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("status %+v: want several sessions", s)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if !s.Ahead || s.Connected || !strings.Contains(s.LastError, "hallserver stream-reset -data-dir D") || s.Acked != 0 {
		t.Errorf("status after %d sessions: %+v; want the stream reported ahead, with the command that fixes it, nothing published", s.Sessions, s)
	}
	if got := len(readStream(t, nc, h.id)); got != before {
		t.Errorf("stream has %d messages, %d before: the restored hall wrote into it", got, before)
	}
}

// A hall restored by hallserver restore (the restart mark) purges the
// stream that went on without it and publishes itself whole, its first
// message telling followers to start the hall again: the stream then
// holds exactly the restored hall.
func TestPublishRestoredStartsTheStreamAgain(t *testing.T) {
	n := startNATS(t)
	nc := connect(t, n.URL())
	h, b, _ := playedOnAfterBackup(t, nc)
	r := b.open(t, h)
	if err := r.st.RestartStream(context.Background(), false, "restored"); err != nil {
		t.Fatal(err)
	}
	r.play(8)
	p, _ := run(t, r, nc, Options{})
	s := drained(t, p)
	if s.Ahead {
		t.Errorf("status %+v: the restored hall's stream reported ahead", s)
	}
	msgs := readStream(t, nc, h.id)
	checkExactlyOnce(t, r, msgs)
	if msgs[0].Header.Get(hallstream.HeaderStart) != "1" || msgs[0].Kind != hallstream.KindHall {
		t.Errorf("first message after the restart: %s with %v, want the hall's settings starting the hall", msgs[0].Kind, msgs[0].Header)
	}
	for _, m := range msgs[1:] {
		if m.Header.Get(hallstream.HeaderStart) != "" {
			t.Errorf("stream seq %d also starts the hall", m.StreamSeq)
		}
	}
	if m, _ := r.st.StreamMarks(context.Background()); m.Restart {
		t.Error("the restart mark is still set")
	}
}

// The restored hall's new start is numbered above every outbox row the
// purged stream held, though its database had fewer rows than the hall
// that went on: a gateway applies only numbers above the last it applied,
// so that it takes the restored hall and refuses replays of the old one.
func TestPublishRestoredNumbersAboveTheStream(t *testing.T) {
	n := startNATS(t)
	nc := connect(t, n.URL())
	h, b, _ := playedOnAfterBackup(t, nc)
	old := readStream(t, nc, h.id)
	r := b.open(t, h)
	if err := r.st.RestartStream(context.Background(), false, "restored"); err != nil {
		t.Fatal(err)
	}
	p, _ := run(t, r, nc, Options{})
	drained(t, p)
	msgs := readStream(t, nc, h.id)
	if last := old[len(old)-1].Outbox; msgs[0].Outbox <= last {
		t.Errorf("the restored hall starts its stream at outbox row %d, the purged stream held up to %d: want it above", msgs[0].Outbox, last)
	}
	for i := 1; i < len(msgs); i++ {
		if msgs[i].Outbox <= msgs[i-1].Outbox {
			t.Errorf("stream seq %d: outbox row %d after %d", msgs[i].StreamSeq, msgs[i].Outbox, msgs[i-1].Outbox)
		}
	}
}

// A message the hall did not write, put into its stream by anyone NATS
// lets in, does not stop the hall's publishing: it is counted and
// passed over.
func TestPublishGoesOnAfterAForeignMessage(t *testing.T) {
	n := startNATS(t)
	nc := connect(t, n.URL())
	h := newHall(t, t.TempDir(), 2)
	h.play(3)
	p, _ := run(t, h, nc, Options{})
	drained(t, p)
	js, _ := jetstream.New(nc)
	forged := nats.NewMsg("hall." + h.id + ".board.b1")
	forged.Data = []byte(`{"seq":999,"board_id":"b1","board_seq":4,"event":{"kind":"result","result":"0-1"}}`)
	forged.Header.Set(hallstream.HeaderOutbox, "999999")
	if _, err := js.PublishMsg(context.Background(), forged); err != nil {
		t.Fatal(err)
	}
	h.play(3)
	s := drained(t, p)
	if s.Foreign != 1 {
		t.Errorf("status %+v: want the foreign message counted once", s)
	}
	followersConverge(t, h, readStream(t, nc, h.id))
}

// followersConverge checks that a follower reading the stream as the
// gateways do (each board's events in board order: one already applied
// is passed over, one out of order refused) ends with every committed
// event of every board, whatever else the stream holds.
func followersConverge(t *testing.T, h *hall, msgs []streamtest.Message) {
	t.Helper()
	committed, err := streamtest.Committed(context.Background(), h.st)
	if err != nil {
		t.Fatal(err)
	}
	applied := map[string]uint64{}
	for _, m := range msgs {
		if m.Kind != hallstream.KindEvent || m.Outbox == 999999 {
			continue
		}
		if e := m.Event; e.BoardSeq == applied[e.BoardID]+1 {
			applied[e.BoardID] = e.BoardSeq
		}
	}
	for b, log := range committed {
		if applied[b] != uint64(len(log)) {
			t.Errorf("board %s: a follower applies %d of its %d events", b, applied[b], len(log))
		}
	}
}
