package publish

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/chesshall/hallclock/formats/hallstream"
	"github.com/chesshall/hallclock/internal/natsrun"
	"github.com/chesshall/hallclock/internal/testkit/longtest"
	"github.com/chesshall/hallclock/internal/testkit/streamtest"
	"github.com/chesshall/hallclock/rules"
	"github.com/chesshall/hallclock/storage"
)

// hall is a store with a tournament, a round and boards that the test
// plays events on, as the hall server's board actors would.
type hall struct {
	t     testing.TB
	st    *storage.Store
	id    string
	mu    sync.Mutex
	seqs  map[string]uint64
	board []string
}

func newHall(t testing.TB, dir string, boards int) *hall {
	t.Helper()
	st, err := storage.Open(context.Background(), filepath.Join(dir, "hall.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	id, err := st.HallID(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	h := &hall{t: t, st: st, id: id, seqs: map[string]uint64{}}
	tc, err := rules.ParseTimeControl("180+2")
	if err != nil {
		t.Fatal(err)
	}
	cfg := rules.Config{Ruleset: rules.FIDE2023, TimeControl: tc}
	err = st.Write(context.Background(), func(tx *storage.Tx) error {
		if err := tx.CreateTournament(&storage.TournamentRecord{ID: "t1", Name: "Blitz Night", Config: cfg, TimeControl: "3m+2s"}); err != nil {
			return err
		}
		if err := tx.CreateRound(&storage.RoundRecord{ID: "r1", TournamentID: "t1", Number: 1}); err != nil {
			return err
		}
		for i := 1; i <= boards; i++ {
			id := fmt.Sprintf("b%d", i)
			h.board = append(h.board, id)
			if err := tx.CreateBoard(&storage.BoardRecord{ID: id, RoundID: "r1", Number: i, Config: cfg, TimeControl: "3m+2s",
				White: storage.PlayerRecord{Name: "White " + id}, Black: storage.PlayerRecord{Name: "Black " + id}}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// play commits n events on every board, boards concurrently.
func (h *hall) play(n int) {
	var wg sync.WaitGroup
	for _, b := range h.board {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range n {
				h.mu.Lock()
				seq := h.seqs[b] + 1
				h.mu.Unlock()
				ev := rules.Event{Kind: rules.KindPress, Side: rules.Side(seq % 2), T: int64(seq) * 1000}
				if seq == 1 {
					ev = rules.Event{Kind: rules.KindStart}
				}
				if err := h.st.Write(context.Background(), func(tx *storage.Tx) error {
					return tx.AppendEvent(&storage.EventRecord{BoardID: b, BoardSeq: seq, Event: ev, Actor: "test"})
				}); err != nil {
					h.t.Error(err)
					return
				}
				h.mu.Lock()
				h.seqs[b] = seq
				h.mu.Unlock()
			}
		}()
	}
	wg.Wait()
}

func startNATS(t testing.TB) *natsrun.Node { return streamtest.StartNATS(t) }

func connect(t testing.TB, url string) *nats.Conn { return streamtest.Connect(t, url) }

// run starts a publisher and returns it with a func that stops it.
func run(t testing.TB, h *hall, nc *nats.Conn, opts Options) (*Publisher, func()) {
	t.Helper()
	opts.Store, opts.Conn, opts.Hall = h.st, nc, h.id
	if opts.MaxBackoff == 0 {
		opts.MaxBackoff = 200 * time.Millisecond
	}
	p, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); p.Run(ctx) }()
	var once sync.Once
	stop := func() { once.Do(func() { cancel(); <-done }) }
	t.Cleanup(stop)
	return p, stop
}

// drained waits until the publisher has the whole outbox in the stream.
func drained(t testing.TB, p *Publisher) Status {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		s, err := p.Status(context.Background())
		if err == nil && s.Backlog == 0 && s.Connected {
			return s
		}
		if time.Now().After(deadline) {
			t.Fatalf("outbox not drained: %+v (err %v)", s, err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// readStream returns every message of the hall's stream, in order.
func readStream(t testing.TB, nc *nats.Conn, hall string) []streamtest.Message {
	t.Helper()
	// Just after a cluster restart the stream may still be electing its
	// leader: a JetStream API request times out; ask again for a while.
	deadline := time.Now().Add(20 * time.Second)
	for {
		msgs, err := streamtest.ReadAll(context.Background(), nc, hall)
		if err == nil {
			return msgs
		}
		if time.Now().After(deadline) {
			t.Fatalf("reading the stream: %v", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// checkExactlyOnce checks that the stream holds every committed event of
// the hall exactly once, each board's in board order, and that outbox
// rows follow each other without a repeat.
func checkExactlyOnce(t testing.TB, h *hall, msgs []streamtest.Message) {
	t.Helper()
	committed, err := streamtest.Committed(context.Background(), h.st)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := streamtest.Check(msgs, committed); err != nil {
		t.Fatal(err)
	}
}

func TestPublishEverythingOnce(t *testing.T) {
	h := newHall(t, t.TempDir(), 4)
	h.play(10)
	n := startNATS(t)
	nc := connect(t, n.URL())
	p, _ := run(t, h, nc, Options{Window: 16})
	h.play(15) // while publishing
	s := drained(t, p)
	msgs := readStream(t, nc, h.id)
	checkExactlyOnce(t, h, msgs)
	kinds := map[string]int{}
	for _, m := range msgs {
		kinds[m.Kind]++
	}
	if kinds[hallstream.KindHall] != 1 || kinds[hallstream.KindTournament] != 1 || kinds[hallstream.KindRound] != 1 || kinds[hallstream.KindBoard] != 4 || kinds[hallstream.KindEvent] != 100 {
		t.Errorf("stream holds %v, want 1 hall, 1 tournament, 1 round, 4 boards, 100 events", kinds)
	}
	if s.Published != msgs[len(msgs)-1].Outbox || s.Acked != uint64(len(msgs)) {
		t.Errorf("status %+v: want published %d, %d acked", s, msgs[len(msgs)-1].Outbox, len(msgs))
	}
	// A message sent again after its successor, even expecting its own
	// place in the stream (as its first sending did), is refused: a copy
	// never lands.
	js, _ := jetstream.New(nc)
	m := msgs[len(msgs)-2]
	subj, body, _ := hallstream.Encode(m.Message)
	_, err := js.Publish(context.Background(), subj, body,
		jetstream.WithMsgID(hallstream.MsgID(m.Message, m.Outbox)+"-again"),
		jetstream.WithExpectLastSequence(m.StreamSeq-1))
	var apiErr *jetstream.APIError
	if !errors.As(err, &apiErr) {
		t.Errorf("republishing stream seq %d after its successor = %v, want a refused expectation", m.StreamSeq, err)
	}
}

// While commits keep coming the outbox is read at most once per
// ReadEvery (each read is a transaction and two queries, whatever it
// finds), and nothing is lost or doubled for it.
func TestPublishPacesItsReads(t *testing.T) {
	h := newHall(t, t.TempDir(), 8)
	n := startNATS(t)
	nc := connect(t, n.URL())
	const every = 40 * time.Millisecond
	p, _ := run(t, h, nc, Options{ReadEvery: every})
	drained(t, p) // the records
	p.mu.Lock()
	before := p.reads
	p.mu.Unlock()
	start := time.Now()
	h.play(40) // 320 commits, one after another on each of 8 boards
	s := drained(t, p)
	took := time.Since(start)
	p.mu.Lock()
	reads := p.reads - before
	p.mu.Unlock()
	if most := uint64(took/every) + 2; reads > most {
		t.Errorf("%d outbox reads in %v; paced at one per %v, want at most %d", reads, took.Round(time.Millisecond), every, most)
	}
	msgs := readStream(t, nc, h.id)
	checkExactlyOnce(t, h, msgs)
	if s.Published != msgs[len(msgs)-1].Outbox {
		t.Errorf("published up to %d, the stream's last is %d", s.Published, msgs[len(msgs)-1].Outbox)
	}
}

// The events the hall commits while the publisher keeps up reach the
// stream from memory, as the writer handed them over, not read back from
// the database; the stream is the database's all the same. A publisher
// started on a hall that has events (a restart) reads them from the
// database.
func TestPublishHandsOverInMemory(t *testing.T) {
	dir := t.TempDir()
	h := newHall(t, dir, 8)
	n := startNATS(t)
	nc := connect(t, n.URL())
	p, stop := run(t, h, nc, Options{ReadEvery: time.Millisecond})
	drained(t, p) // the records: from the database
	p.mu.Lock()
	db0, mem0 := p.dbReads, p.fromMemory
	p.mu.Unlock()
	h.play(40)
	drained(t, p)
	p.mu.Lock()
	db, mem := p.dbReads-db0, p.fromMemory-mem0
	p.mu.Unlock()
	if db != 0 || mem != 8*40 {
		t.Errorf("%d events committed: %d from memory, %d reads of the database; want every one from memory, none read back", 8*40, mem, db)
	}
	checkExactlyOnce(t, h, readStream(t, nc, h.id))

	// Stopped, played on, the hall started again: what committed before
	// the new process is in no memory — it comes from the database.
	stop()
	h.play(3)
	h.st.Close()
	st, err := storage.Open(context.Background(), filepath.Join(dir, "hall.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	h.st = st
	p, _ = run(t, h, nc, Options{})
	drained(t, p)
	p.mu.Lock()
	db, mem = p.dbReads, p.fromMemory
	p.mu.Unlock()
	if db == 0 || mem != 0 {
		t.Errorf("after a restart: %d reads of the database, %d events from memory; want the database's", db, mem)
	}
	h.play(2) // and what commits now, from memory again
	drained(t, p)
	p.mu.Lock()
	mem = p.fromMemory
	p.mu.Unlock()
	if mem != 8*2 {
		t.Errorf("after a restart, %d events from memory; want the %d committed since", mem, 8*2)
	}
	checkExactlyOnce(t, h, readStream(t, nc, h.id))
}

// The hall does not wait for NATS: with NATS down, commits go on, the
// backlog and its age show, and everything arrives once NATS is back.
func TestPublishNATSDownAndBack(t *testing.T) {
	h := newHall(t, t.TempDir(), 3)
	n := startNATS(t)
	nc := connect(t, n.URL())
	p, _ := run(t, h, nc, Options{Window: 8, AckTimeout: 500 * time.Millisecond})
	h.play(5)
	drained(t, p)
	n.Shutdown()
	start := time.Now()
	h.play(20) // commits do not wait for NATS
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("60 commits took %v with NATS down", d)
	}
	time.Sleep(300 * time.Millisecond)
	s, err := p.Status(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if s.Backlog < 60 || s.Age(time.Now()) < 200*time.Millisecond {
		t.Errorf("status with NATS down = %+v: want a backlog of at least 60 rows, the oldest waiting", s)
	}
	if err := n.Restart(); err != nil {
		t.Fatal(err)
	}
	drained(t, p)
	checkExactlyOnce(t, h, readStream(t, nc, h.id))
}

// A crash between the stream's PubAck and the published mark: the next
// publisher learns from the stream what it has, and sends nothing twice.
func TestPublishAckLost(t *testing.T) {
	dir := t.TempDir()
	h := newHall(t, dir, 2)
	h.play(10)
	n := startNATS(t)
	nc := connect(t, n.URL())
	p, stop := run(t, h, nc, Options{})
	drained(t, p)
	stop()
	before := len(readStream(t, nc, h.id))
	// As if the marks of the last rows never committed.
	if err := h.st.RewindPublished(context.Background(), 3); err != nil {
		t.Fatal(err)
	}
	h.play(3)
	p2, _ := run(t, h, nc, Options{})
	drained(t, p2)
	msgs := readStream(t, nc, h.id)
	if len(msgs) != before+6 {
		t.Errorf("stream has %d messages, want %d (%d before, 6 new events)", len(msgs), before+6, before)
	}
	checkExactlyOnce(t, h, msgs)
}

// A stream that lost the hall's messages gets them again: from the rows
// kept, or, once pruned, the whole hall from its records.
func TestPublishStreamPurged(t *testing.T) {
	for _, keep := range []time.Duration{time.Hour, -time.Second} {
		t.Run(fmt.Sprint("keep=", keep), func(t *testing.T) {
			h := newHall(t, t.TempDir(), 2)
			h.play(6)
			n := startNATS(t)
			nc := connect(t, n.URL())
			p, stop := run(t, h, nc, Options{Keep: keep})
			drained(t, p)
			stop()
			js, _ := jetstream.New(nc)
			s, err := js.Stream(context.Background(), hallstream.StreamName(h.id))
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Purge(context.Background()); err != nil {
				t.Fatal(err)
			}
			h.play(2)
			p2, _ := run(t, h, nc, Options{Keep: keep})
			drained(t, p2)
			msgs := readStream(t, nc, h.id)
			checkExactlyOnce(t, h, msgs)
			if msgs[0].Kind != hallstream.KindHall {
				t.Errorf("first message after the purge is %s, want the hall's settings", msgs[0].Kind)
			}
		})
	}
}

// An R3 stream on a three-node cluster: a node restarted, then the whole
// cluster stopped and started again while the hall commits.
func TestPublishClusterRestart(t *testing.T) {
	longtest.Skip(t)
	if testing.Short() {
		t.Skip("starts a three-node NATS cluster")
	}
	c, err := natsrun.StartCluster("halls", t.TempDir(), 3)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Shutdown()
	h := newHall(t, t.TempDir(), 3)
	nc := connect(t, c.URLs())
	p, _ := run(t, h, nc, Options{Replicas: 3, AckTimeout: time.Second, MaxBackoff: 500 * time.Millisecond})
	h.play(5)
	drained(t, p)
	c.Nodes[2].Shutdown()
	h.play(5)
	if err := c.Nodes[2].Restart(); err != nil {
		t.Fatal(err)
	}
	drained(t, p)
	c.Shutdown()
	h.play(5)
	for _, n := range c.Nodes {
		if err := n.Restart(); err != nil {
			t.Fatal(err)
		}
	}
	h.play(5)
	drained(t, p)
	checkExactlyOnce(t, h, readStream(t, nc, h.id))
}
