// Package streamtest reads a hall's JetStream stream whole and checks it
// against the hall's store, for tests: every committed event exactly
// once, each board's in board order, outbox rows never repeated.
package streamtest

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/chesshall/hallclock/formats/hallstream"
	"github.com/chesshall/hallclock/internal/natsrun"
	"github.com/chesshall/hallclock/storage"
)

// Message is one message of the stream.
type Message struct {
	StreamSeq uint64
	Outbox    uint64 // its Hall-Outbox-Id
	Header    nats.Header
	Data      []byte // the body as stored
	hallstream.Message
}

// ReadAll reads every message of the hall's stream in order, with an
// ordered consumer. A cluster whose nodes were just restarted may have no
// JetStream leader for a while ("no responders", timeouts): it tries
// again, from the start, for up to 30 seconds before giving up.
func ReadAll(ctx context.Context, nc *nats.Conn, hall string) ([]Message, error) {
	give := time.Now().Add(30 * time.Second)
	for {
		out, err := readAll(ctx, nc, hall)
		if err == nil || ctx.Err() != nil || time.Now().After(give) {
			return out, err
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(500 * time.Millisecond):
		}
	}
}

func readAll(ctx context.Context, nc *nats.Conn, hall string) ([]Message, error) {
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, err
	}
	s, err := js.Stream(ctx, hallstream.StreamName(hall))
	if err != nil {
		return nil, err
	}
	info, err := s.Info(ctx)
	if err != nil {
		return nil, err
	}
	if info.State.Msgs == 0 {
		return nil, nil
	}
	cons, err := s.OrderedConsumer(ctx, jetstream.OrderedConsumerConfig{})
	if err != nil {
		return nil, err
	}
	var out []Message
	for {
		batch, err := cons.Fetch(500, jetstream.FetchMaxWait(2*time.Second))
		if err != nil {
			return nil, err
		}
		n := 0
		for m := range batch.Messages() {
			n++
			meta, err := m.Metadata()
			if err != nil {
				return nil, err
			}
			dm, err := hallstream.Decode(m.Subject(), m.Data())
			if err != nil {
				return nil, err
			}
			o, err := strconv.ParseUint(m.Headers().Get(hallstream.HeaderOutbox), 10, 64)
			if err != nil {
				return nil, fmt.Errorf("stream seq %d: no %s header", meta.Sequence.Stream, hallstream.HeaderOutbox)
			}
			out = append(out, Message{StreamSeq: meta.Sequence.Stream, Outbox: o, Header: m.Headers(), Data: m.Data(), Message: dm})
			if meta.Sequence.Stream >= info.State.LastSeq {
				return out, nil
			}
		}
		if err := batch.Error(); err != nil && !errors.Is(err, nats.ErrTimeout) {
			return nil, err
		}
		if n == 0 {
			return nil, fmt.Errorf("stream %s: nothing after seq %d of %d", hallstream.StreamName(hall), lastSeq(out), info.State.LastSeq)
		}
	}
}

// ReadEach reads every message of the hall's stream in order, one request
// per message (STREAM.MSG.GET): what a user may do who may create no
// consumer but the gateways' (ephemeral, push). For small streams.
func ReadEach(ctx context.Context, nc *nats.Conn, hall string) ([]Message, error) {
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, err
	}
	s, err := js.Stream(ctx, hallstream.StreamName(hall))
	if err != nil {
		return nil, err
	}
	info, err := s.Info(ctx)
	if err != nil {
		return nil, err
	}
	var out []Message
	for seq := info.State.FirstSeq; info.State.Msgs > 0 && seq <= info.State.LastSeq; seq++ {
		m, err := s.GetMsg(ctx, seq)
		if errors.Is(err, jetstream.ErrMsgNotFound) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("stream seq %d: %w", seq, err)
		}
		dm, err := hallstream.Decode(m.Subject, m.Data)
		if err != nil {
			return nil, err
		}
		o, err := strconv.ParseUint(m.Header.Get(hallstream.HeaderOutbox), 10, 64)
		if err != nil {
			return nil, fmt.Errorf("stream seq %d: no %s header", seq, hallstream.HeaderOutbox)
		}
		out = append(out, Message{StreamSeq: seq, Outbox: o, Header: m.Header, Data: m.Data, Message: dm})
	}
	return out, nil
}

func lastSeq(ms []Message) uint64 {
	if len(ms) == 0 {
		return 0
	}
	return ms[len(ms)-1].StreamSeq
}

// Figures say what a stream held.
type Figures struct {
	Messages, Events, Boards int
}

func (f Figures) String() string {
	return fmt.Sprintf("%d messages, %d events of %d boards", f.Messages, f.Events, f.Boards)
}

// Check checks the stream against the events the hall committed (every
// board's log, from its store): each committed event is in the stream
// exactly once, with the same content, each board's in board order, and
// outbox rows only increase (none published twice).
func Check(msgs []Message, committed map[string][]storage.EventRecord) (Figures, error) {
	f := Figures{Messages: len(msgs)}
	seen := map[string]int{} // board → events seen
	var lastOutbox uint64
	for _, m := range msgs {
		if m.Outbox <= lastOutbox {
			return f, fmt.Errorf("stream seq %d: outbox row %d after %d: published twice or out of order", m.StreamSeq, m.Outbox, lastOutbox)
		}
		lastOutbox = m.Outbox
		if m.Kind != hallstream.KindEvent {
			continue
		}
		e := m.Event
		n := seen[e.BoardID]
		if e.BoardSeq != uint64(n)+1 {
			return f, fmt.Errorf("stream seq %d: board %s event %d where %d was due", m.StreamSeq, e.BoardID, e.BoardSeq, n+1)
		}
		log := committed[e.BoardID]
		if n >= len(log) {
			return f, fmt.Errorf("stream seq %d: board %s event %d was never committed (the log has %d)", m.StreamSeq, e.BoardID, e.BoardSeq, len(log))
		}
		c := log[n]
		if c.Seq != e.Seq || c.Event.Kind != e.Event.Kind || c.Event.T != e.Event.T || c.Event.Side != e.Event.Side || c.Actor != e.Actor {
			return f, fmt.Errorf("stream seq %d: board %s event %d is %+v, the hall committed %+v", m.StreamSeq, e.BoardID, e.BoardSeq, *e, c)
		}
		seen[e.BoardID] = n + 1
		f.Events++
	}
	for b, log := range committed {
		if seen[b] != len(log) {
			return f, fmt.Errorf("board %s: %d of its %d committed events are in the stream", b, seen[b], len(log))
		}
		if len(log) > 0 {
			f.Boards++
		}
	}
	return f, nil
}

// Committed reads every board's log from a store.
func Committed(ctx context.Context, st *storage.Store) (map[string][]storage.EventRecord, error) {
	bs, err := st.Boards(ctx, "")
	if err != nil {
		return nil, err
	}
	out := map[string][]storage.EventRecord{}
	for _, b := range bs {
		evs, err := st.Events(ctx, b.ID, 0)
		if err != nil {
			return nil, err
		}
		out[b.ID] = evs
	}
	return out, nil
}

// StartNATS starts a NATS server with JetStream in a temporary directory,
// stopped when the test ends.
func StartNATS(tb testing.TB) *natsrun.Node {
	tb.Helper()
	n, err := natsrun.Start(natsrun.Options{Dir: tb.TempDir()})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(n.Shutdown)
	return n
}

// Connect connects to url(s), reconnecting for ever (quickly), closed
// when the test ends.
func Connect(tb testing.TB, url string) *nats.Conn {
	tb.Helper()
	nc, err := nats.Connect(url, nats.MaxReconnects(-1), nats.ReconnectWait(50*time.Millisecond), nats.RetryOnFailedConnect(true))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(nc.Close)
	return nc
}
