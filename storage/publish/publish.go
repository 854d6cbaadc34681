// Package publish drains a hall's outbox (package storage) into NATS
// JetStream, so that other machines — broadcast gateways, a federation's
// view — follow the hall without ever slowing it: the hall commits to its
// own SQLite file and acknowledges presses as before, whether NATS is up
// or not; the publisher catches up when it can.
//
// # Usage
//
//	nc, _ := nats.Connect(url, nats.MaxReconnects(-1))
//	p, err := publish.New(publish.Options{Store: st, Conn: nc, Hall: hallID})
//	go p.Run(ctx) // until ctx is cancelled
//	st := p.Status() // backlog, age of the oldest row not published, last error
//
// # Exactly once, in order
//
// The stream HALL_<hall> (created if missing, with Options.Replicas)
// holds the hall's messages in outbox order (commit order) — each board's
// events in board order — each exactly once, whatever crashes, by three
// rules:
//
//  1. Every committed change has its outbox row from the same SQLite
//     transaction (storage.Tx), so nothing committed goes unpublished and
//     nothing rolled back is published.
//  2. Each message names its place: Nats-Expected-Last-Sequence is the
//     stream sequence its predecessor got (a session reads the stream's
//     last sequence once, and the hall is the only writer of its
//     subjects, so the k-th message of a session expects last + k - 1).
//     JetStream's stream leader stores a message only if the stream ends
//     there (it checks before proposing, in-flight proposals counted), so
//     the stream is always a prefix of the outbox: no gap, no
//     reordering, and no second copy of a message (its place is taken),
//     even long after JetStream's de-duplication window (Nats-Msg-Id, on
//     which a resend within the window is answered as a duplicate without
//     being stored) has passed. (Nats-Expected-Last-Msg-Id would say the
//     same, but a clustered stream checks it only when applying, and a
//     mismatch there stops the stream.)
//  3. The stream, not the hall's mark, says how far it is: each session
//     (at start, and after any error) reads the stream's last message and
//     its Hall-Outbox-Id header, records it as published (a PubAck lost
//     in a crash) or goes back to it (a stream that lost its newest
//     messages), and publishes from the next row. What is sent again to
//     a stream that lost it carries a tagged message id (H.b.B.N.r<tag>):
//     a purged stream keeps refusing the old ids for its de-duplication
//     window.
//
// Messages go out in windows of Options.Window without waiting for each
// PubAck; the acknowledgements are taken in order, and the published mark
// is written (storage.MarkPublished, one small write through the hall's
// group commit) at most every Options.MarkEvery. Any failure — a timeout,
// a refused expectation, NATS gone — ends the session; the next one, after
// a backoff (Options.MinBackoff doubling to MaxBackoff), starts from what
// the stream says.
//
// A stream that has none of what the hall had published and whose rows
// are pruned (deleted, or its data lost) gets the whole hall again from
// its records (storage.Tx.ReseedOutbox). A stream ahead of the hall's
// outbox (the hall restored from an older backup) is not written to: the
// status says so, until the stream is purged (the hall then publishes
// itself whole) or the hall given a new id.
package publish

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/chesshall/hallclock/formats/hallstream"
	"github.com/chesshall/hallclock/internal/ident"
	"github.com/chesshall/hallclock/storage"
)

// Options configure a Publisher. Store, Conn and Hall are required.
type Options struct {
	Store *storage.Store
	Conn  *nats.Conn
	Hall  string // the hall's id (storage.Store.HallID)
	// Replicas of the hall's stream when the publisher creates it (1 on a
	// single server; 3 on a three-node cluster). An existing stream keeps
	// its own.
	Replicas int
	// Window is the most messages in flight without their PubAck
	// (default 256).
	Window int
	// AckTimeout is how long a PubAck may take before the session starts
	// again (default 5 s).
	AckTimeout time.Duration
	// MarkEvery is the least time between two writes of the published
	// mark (default 200 ms).
	MarkEvery time.Duration
	// ReadEvery is the least time between two reads of the outbox while
	// commits keep coming (default 20 ms; negative: no pause). Each read
	// is a read transaction and two queries, whether it finds one row or
	// a hundred: read at every commit (the writer commits up to every
	// 4 ms), it cost the hall 7% of its CPU at 1,000 presses a second.
	// The first read after a quiet spell is not delayed.
	ReadEvery time.Duration
	// Keep is how long rows stay in the outbox once published (default
	// 24 h), so that a stream that lost its newest messages gets them
	// again.
	Keep time.Duration
	// MinBackoff and MaxBackoff bound the wait before a new session after
	// a failure (defaults 100 ms and 5 s).
	MinBackoff, MaxBackoff time.Duration
	Logger                 *slog.Logger
}

func (o *Options) defaults() {
	if o.Replicas <= 0 {
		o.Replicas = 1
	}
	if o.Window <= 0 {
		o.Window = 256
	}
	if o.AckTimeout <= 0 {
		o.AckTimeout = 5 * time.Second
	}
	if o.MarkEvery <= 0 {
		o.MarkEvery = 200 * time.Millisecond
	}
	switch {
	case o.ReadEvery == 0:
		o.ReadEvery = 20 * time.Millisecond
	case o.ReadEvery < 0:
		o.ReadEvery = 0
	}
	if o.Keep == 0 {
		o.Keep = 24 * time.Hour
	}
	if o.MinBackoff <= 0 {
		o.MinBackoff = 100 * time.Millisecond
	}
	if o.MaxBackoff <= 0 {
		o.MaxBackoff = 5 * time.Second
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
}

// Publisher drains a hall's outbox into its JetStream stream.
type Publisher struct {
	opts   Options
	store  *storage.Store
	js     jetstream.JetStream
	stream string
	log    *slog.Logger

	mu        sync.Mutex
	connected bool      // the last session reached the stream
	lastErr   string    // the last failure, "" after a success
	lastErrAt time.Time // when
	acked     uint64    // messages acknowledged by the stream since start
	sessions  uint64    // sessions started (1 + failures)
	reads     uint64    // outbox reads (ReadEvery paces them)
	ahead     bool      // the stream is ahead of the hall's outbox

	// Rows up to resendUpTo are being sent again to a stream that lost
	// them; their message ids carry resendTag, since a purged stream
	// still refuses the old ids as duplicates for its de-duplication
	// window. Only the session goroutine uses these.
	resendUpTo uint64
	resendTag  string
}

// New returns a publisher; Run drives it.
func New(opts Options) (*Publisher, error) {
	opts.defaults()
	if opts.Store == nil || opts.Conn == nil {
		return nil, errors.New("publish: Store and Conn are required")
	}
	if err := ident.CheckHallID(opts.Hall); err != nil {
		return nil, err
	}
	js, err := jetstream.New(opts.Conn,
		jetstream.WithPublishAsyncMaxPending(opts.Window),
		jetstream.WithPublishAsyncTimeout(opts.AckTimeout))
	if err != nil {
		return nil, fmt.Errorf("publish: %w", err)
	}
	return &Publisher{opts: opts, store: opts.Store, js: js, stream: hallstream.StreamName(opts.Hall), log: opts.Logger}, nil
}

// Stream is the name of the hall's stream.
func (p *Publisher) Stream() string { return p.stream }

// Run publishes until ctx is cancelled; it returns nil then.
func (p *Publisher) Run(ctx context.Context) error {
	backoff := p.opts.MinBackoff
	for {
		p.mu.Lock()
		p.sessions++
		p.mu.Unlock()
		ackedBefore := p.status().acked
		err := p.session(ctx)
		if ctx.Err() != nil {
			return nil
		}
		p.fail(err)
		if p.status().acked > ackedBefore {
			backoff = p.opts.MinBackoff // it went well for a while: try again soon
		}
		t := time.NewTimer(backoff)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil
		case <-t.C:
		}
		backoff = min(2*backoff, p.opts.MaxBackoff)
	}
}

// counts is what status reads under the lock.
type counts struct{ acked uint64 }

func (p *Publisher) status() counts {
	p.mu.Lock()
	defer p.mu.Unlock()
	return counts{acked: p.acked}
}

func (p *Publisher) fail(err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.connected = false
	p.lastErr, p.lastErrAt = err.Error(), time.Now()
	p.log.Warn("publish: session ended", "stream", p.stream, "err", err)
}

// errAhead: the stream holds outbox rows this hall never wrote.
var errAhead = errors.New("the stream is ahead of this hall's outbox")

// session syncs with the stream and publishes until something fails.
func (p *Publisher) session(ctx context.Context) error {
	s, err := p.ensureStream(ctx)
	if err != nil {
		return err
	}
	pos, lastSeq, err := p.sync(ctx, s)
	if err != nil {
		return err
	}
	p.mu.Lock()
	p.connected, p.lastErr, p.ahead = true, "", false
	p.mu.Unlock()
	return p.publish(ctx, pos, lastSeq)
}

// apiTimeout bounds a JetStream API request: one lost while a cluster
// elects a leader is asked again soon.
const apiTimeout = 3 * time.Second

func (p *Publisher) ensureStream(ctx context.Context) (jetstream.Stream, error) {
	cctx, cancel := context.WithTimeout(ctx, apiTimeout)
	defer cancel()
	s, err := p.js.Stream(cctx, p.stream)
	if err == nil {
		return s, nil
	}
	if !errors.Is(err, jetstream.ErrStreamNotFound) {
		return nil, fmt.Errorf("stream %s: %w", p.stream, err)
	}
	s, err = p.js.CreateStream(cctx, jetstream.StreamConfig{
		Name:        p.stream,
		Description: "hall " + p.opts.Hall + ": every committed board event and the records followers need (package hallstream)",
		Subjects:    []string{hallstream.Subjects(p.opts.Hall)},
		Storage:     jetstream.FileStorage,
		Replicas:    p.opts.Replicas,
		Retention:   jetstream.LimitsPolicy,
		Discard:     jetstream.DiscardOld,
		Duplicates:  2 * time.Minute,
	})
	if err != nil && !errors.Is(err, jetstream.ErrStreamNameAlreadyInUse) {
		return nil, fmt.Errorf("creating stream %s: %w", p.stream, err)
	}
	if err != nil {
		return p.js.Stream(cctx, p.stream)
	}
	p.log.Info("publish: stream created", "stream", p.stream, "replicas", p.opts.Replicas)
	return s, nil
}

// sync learns from the stream how far it has the hall, brings the
// outbox's published mark to it, and returns the row to publish after
// and the stream's last sequence.
func (p *Publisher) sync(ctx context.Context, s jetstream.Stream) (pos uint64, lastSeq uint64, err error) {
	cctx, cancel := context.WithTimeout(ctx, apiTimeout)
	defer cancel()
	info, err := s.Info(cctx)
	if err != nil {
		return 0, 0, fmt.Errorf("stream %s: %w", p.stream, err)
	}
	lastSeq = info.State.LastSeq
	var last uint64 // the outbox row of the stream's last message
	if info.State.Msgs > 0 {
		m, err := s.GetMsg(cctx, lastSeq)
		if err != nil {
			return 0, 0, fmt.Errorf("stream %s: last message %d: %w", p.stream, lastSeq, err)
		}
		if last, err = strconv.ParseUint(m.Header.Get(hallstream.HeaderOutbox), 10, 64); err != nil {
			return 0, 0, fmt.Errorf("stream %s: last message %d has no %s header: not written by a hall's publisher", p.stream, lastSeq, hallstream.HeaderOutbox)
		}
	}
	st, err := p.store.OutboxState(ctx)
	if err != nil {
		return 0, 0, err
	}
	switch {
	case last > st.Last:
		p.mu.Lock()
		p.ahead = true
		p.mu.Unlock()
		return 0, 0, fmt.Errorf("%w: the stream's last message is outbox row %d, this hall wrote up to %d (restored from an older backup?): purge stream %s and the hall publishes itself again, or give the hall a new id",
			errAhead, last, st.Last, p.stream)
	case last > st.Published:
		// Published, but the PubAck was lost (a crash, a cut).
		if err := p.store.MarkPublished(ctx, last, p.opts.Keep); err != nil {
			return 0, 0, err
		}
	case last < st.Published:
		// The stream lost what it had acknowledged (deleted, purged, its
		// data gone): send it again from the outbox, or the whole hall.
		err := p.store.RewindPublished(ctx, last)
		if errors.Is(err, storage.ErrConflict) && info.State.Msgs == 0 {
			p.log.Warn("publish: the stream has none of the hall: publishing the whole hall again", "stream", p.stream, "published", st.Published)
			if err := p.store.Write(ctx, func(tx *storage.Tx) error { return tx.ReseedOutbox() }); err != nil {
				return 0, 0, err
			}
			st, err := p.store.OutboxState(ctx)
			if err != nil {
				return 0, 0, err
			}
			p.resendUpTo, p.resendTag = st.Last, "r"+strconv.FormatInt(time.Now().UnixMilli(), 36)
			return st.Published, lastSeq, nil
		}
		if err != nil {
			return 0, 0, fmt.Errorf("stream %s ends at outbox row %d, before the hall's published mark %d: %w", p.stream, last, st.Published, err)
		}
		p.log.Warn("publish: the stream lost messages; sending them again", "stream", p.stream, "from", last+1, "published", st.Published)
		p.resendUpTo, p.resendTag = st.Published, "r"+strconv.FormatInt(time.Now().UnixMilli(), 36)
	}
	return last, lastSeq, nil
}

// inflight is a message sent and not yet acknowledged.
type inflight struct {
	row uint64
	f   jetstream.PubAckFuture
}

// publish sends the outbox after pos in windows, each message expecting
// the stream to end where its predecessor went (lastSeq, lastSeq+1...),
// takes the PubAcks in order and marks them published.
func (p *Publisher) publish(ctx context.Context, pos uint64, lastSeq uint64) error {
	var (
		window   []inflight
		sent     = pos // the last row sent
		acked    = pos // the last row acknowledged
		marked   = pos // the last row marked published
		lastMark time.Time
	)
	mark := func(force bool) error {
		if acked == marked || (!force && time.Since(lastMark) < p.opts.MarkEvery) {
			return nil
		}
		if err := p.store.MarkPublished(ctx, acked, p.opts.Keep); err != nil {
			return err
		}
		marked, lastMark = acked, time.Now()
		return nil
	}
	markTimer := time.NewTimer(time.Hour)
	defer markTimer.Stop()
	readTimer := time.NewTimer(time.Hour)
	defer readTimer.Stop()
	// more: the outbox may hold rows after sent. It is read again only
	// then — after a commit woke us, or a read that filled the room — and
	// at most every ReadEvery (nextRead), so the outbox is read about once
	// per ReadEvery under load, not once per commit or per PubAck.
	more := true
	var nextRead time.Time
	for {
		// Fill the window once half of it is free (or it is empty).
		room := p.opts.Window - len(window)
		wantRead := more && room > 0 && (len(window) == 0 || room >= (p.opts.Window+1)/2)
		if wait := time.Until(nextRead); wantRead && len(window) == 0 && wait > 0 {
			// Nothing in flight: wait out the pause; what commits
			// meanwhile comes in the same read.
			readTimer.Reset(wait)
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-readTimer.C:
			}
		}
		if wantRead && !time.Now().Before(nextRead) {
			nextRead = time.Now().Add(p.opts.ReadEvery)
			p.mu.Lock()
			p.reads++
			p.mu.Unlock()
			rows, err := p.store.OutboxAfter(ctx, sent, room)
			if err != nil {
				return err
			}
			more = len(rows) == room
			for _, r := range rows {
				f, err := p.send(r, lastSeq)
				if err != nil {
					return err
				}
				window = append(window, inflight{row: r.ID, f: f})
				sent = r.ID
				lastSeq++
			}
		}
		if len(window) == 0 {
			if err := mark(true); err != nil {
				return err
			}
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-p.store.OutboxWake():
			case <-time.After(time.Second): // a wake missed while reading: look again
			}
			more = true
			continue
		}
		// The oldest in flight decides: its PubAck, or the session ends.
		if acked != marked {
			markTimer.Reset(p.opts.MarkEvery)
		}
		var readC <-chan time.Time // a read put off by the pause
		if wait := time.Until(nextRead); more && wait > 0 {
			readTimer.Reset(wait)
			readC = readTimer.C
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-p.store.OutboxWake():
			more = true
			continue
		case <-readC:
			continue
		case err := <-window[0].f.Err():
			return fmt.Errorf("outbox row %d: %w", window[0].row, err)
		case ack := <-window[0].f.Ok():
			n := uint64(0)
			// This PubAck, then every one already in, in order.
			for {
				if ack.Duplicate {
					// Stored before (a resend that landed meanwhile): the
					// places counted after it are one too far.
					return fmt.Errorf("outbox row %d: already in the stream at %d; starting again from the stream's end", window[0].row, ack.Sequence)
				}
				acked = window[0].row
				window = window[1:]
				n++
				if len(window) == 0 {
					break
				}
				var err error
				if ack, err = ready(window[0].f); err != nil {
					return fmt.Errorf("outbox row %d: %w", window[0].row, err)
				}
				if ack == nil {
					break
				}
			}
			p.mu.Lock()
			p.acked += n
			p.mu.Unlock()
		case <-markTimer.C:
		}
		if err := mark(false); err != nil {
			return err
		}
	}
}

// ready returns f's PubAck if it is in, nil if not yet.
func ready(f jetstream.PubAckFuture) (*jetstream.PubAck, error) {
	select {
	case err := <-f.Err():
		return nil, err
	case ack := <-f.Ok():
		return ack, nil
	default:
		return nil, nil
	}
}

// send publishes one outbox row, expecting the stream's last sequence to
// be lastSeq.
func (p *Publisher) send(r storage.OutboxEntry, lastSeq uint64) (jetstream.PubAckFuture, error) {
	m, err := message(p.opts.Hall, r)
	if err != nil {
		return nil, err
	}
	id := hallstream.MsgID(m, r.ID)
	if r.ID <= p.resendUpTo {
		id += "." + p.resendTag
	}
	subj, body, err := hallstream.Encode(m)
	if err != nil {
		return nil, err
	}
	msg := nats.NewMsg(subj)
	msg.Data = body
	msg.Header.Set(hallstream.HeaderOutbox, strconv.FormatUint(r.ID, 10))
	f, err := p.js.PublishMsgAsync(msg, jetstream.WithMsgID(id), jetstream.WithExpectLastSequence(lastSeq))
	if err != nil {
		return nil, fmt.Errorf("publishing outbox row %d: %w", r.ID, err)
	}
	return f, nil
}

// message is the stream's message for an outbox row.
func message(hall string, e storage.OutboxEntry) (hallstream.Message, error) {
	m := hallstream.Message{Hall: hall, Kind: e.Kind, ID: e.Ref}
	switch e.Kind {
	case storage.OutboxHall:
		m.Settings = &hallstream.Hall{}
		if e.Hall != nil {
			m.Settings = &hallstream.Hall{DelayMs: e.Hall.DelayMs, AllPublic: e.Hall.AllPublic}
		}
	case storage.OutboxTournament:
		m.Tournament = &hallstream.Tournament{ID: e.Ref}
		if t := e.Tournament; t != nil {
			m.Tournament = &hallstream.Tournament{ID: t.ID, Name: t.Name, TimeControl: t.TimeControl, Venue: t.Venue, CreatedUnixMs: t.Created.UnixMilli()}
		}
	case storage.OutboxRound:
		m.Round = &hallstream.Round{ID: e.Ref}
		if r := e.Round; r != nil {
			m.Round = &hallstream.Round{ID: r.ID, TournamentID: r.TournamentID, Number: r.Number, Venue: r.Venue, Public: e.RoundPublic, CreatedUnixMs: r.Created.UnixMilli()}
		}
	case storage.OutboxBoard:
		m.Board = &hallstream.Board{ID: e.Ref, Withdrawn: true}
		if b := e.Board; b != nil {
			m.Board = &hallstream.Board{ID: b.ID, RoundID: b.RoundID, Number: b.Number, Section: b.Section,
				White: player(b.White), Black: player(b.Black), Config: b.Config, TimeControl: b.TimeControl,
				Virtual: b.Source == storage.SourceVirtual, Table: b.Table, CreatedUnixMs: b.Created.UnixMilli()}
		}
	case storage.OutboxToken:
		m.Token = &hallstream.Token{ID: e.Ref, Revoked: true}
		if t := e.Token; t != nil {
			m.Token = &hallstream.Token{ID: t.ID, Hash: t.Hash, Revoked: !t.Active()}
		}
	case storage.OutboxEvent:
		ev := e.Event
		m.Kind = hallstream.KindEvent
		m.Event = &hallstream.Event{Seq: ev.Seq, BoardID: ev.BoardID, BoardSeq: ev.BoardSeq, Event: ev.Event,
			Actor: ev.Actor, Reason: ev.Reason, CommandID: ev.CommandID, WallUnixMs: ev.Wall.UnixMilli()}
	default:
		return m, fmt.Errorf("publish: outbox row %d: unknown kind %q", e.ID, e.Kind)
	}
	return m, nil
}

func player(p storage.PlayerRecord) hallstream.Player {
	return hallstream.Player{Name: p.Name, FideID: p.FideID, Rating: p.Rating, Title: p.Title, Federation: p.Federation}
}
