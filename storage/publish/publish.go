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
// its records (storage.Tx.ReseedOutbox).
//
// # Only the hall's
//
// Every message is signed with the hall's key (hallstream format 2,
// sign.go): followers refuse what the hall did not write. A message in
// the stream that the hall did not write (NATS let someone else publish)
// does not stop the publisher: a session walks back over such messages to
// the hall's own last one, logs them, and goes on after them.
//
// # After a restore
//
// A restored database (hallserver restore) marks the stream's messages
// after its last outbox row as not its own (storage.Store.RestartStream):
// the next session purges a stream that holds any and publishes the hall
// whole, its first message telling followers to start the hall again
// (Hall-Start). A stream that went on without this database and was not
// so marked (a database file copied back by hand) is never written to:
// the status says so (Status.Ahead, LastError with the command that
// fixes it, Options.RestartHint) for as long as it lasts, and the
// publisher looks again every Options.DivergedRetry.
package publish

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
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
	// DivergedRetry is how often a stream that went on without this
	// database is looked at again (default 10 s).
	DivergedRetry time.Duration
	// RestartHint is the command that starts the stream again, for the
	// alarm of a stream that went on without this database (default:
	// purge it with the nats tool).
	RestartHint string
	Logger      *slog.Logger
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
	if o.DivergedRetry <= 0 {
		o.DivergedRetry = 10 * time.Second
	}
	if o.RestartHint == "" {
		o.RestartHint = "purge it (nats stream purge " + hallstream.StreamName(o.Hall) + ", with the hall's NATS credentials)"
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

	mu          sync.Mutex
	connected   bool            // the last session reached the stream
	lastErr     string          // the last failure, "" after a success
	lastErrAt   time.Time       // when
	acked       uint64          // messages acknowledged by the stream since start
	sessions    uint64          // sessions started (1 + failures)
	reads       uint64          // outbox reads, from memory or the database (ReadEvery paces them)
	dbReads     uint64          // of them, reads of the database
	fromMemory  uint64          // rows handed over in memory (OutboxRecent)
	ahead       bool            // the stream went on without this database
	foreign     uint64          // messages found in the stream that the hall did not write
	foreignSeen map[uint64]bool // the stream sequences of those counted

	// Rows up to resendUpTo are being sent again to a stream that lost
	// them; their message ids carry resendTag, since a purged stream
	// still refuses the old ids as duplicates for its de-duplication
	// window. Only the session goroutine uses these.
	resendUpTo uint64
	resendTag  string
	// streamTag goes on every other message id once the stream was
	// started again after a restore (storage.StreamMarks.Tag).
	streamTag string

	// The session's signer (read from the store at each sync), whether
	// its next message starts the stream (Hall-Start: the stream holds
	// none of the hall), and the row of the last PubAck that was a
	// duplicate (twice at the same row: the stream is not this
	// database's).
	signer    hallstream.Signer
	startNext bool
	dupRow    uint64
	// rowBuf holds the rows of the last read from memory, reused by the
	// next (only the session goroutine uses it).
	rowBuf []storage.OutboxEntry
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
	return &Publisher{opts: opts, store: opts.Store, js: js, stream: hallstream.StreamName(opts.Hall), log: opts.Logger,
		foreignSeen: map[uint64]bool{}}, nil
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
		wait := backoff
		if errors.Is(err, errDiverged) {
			wait = p.opts.DivergedRetry
		}
		t := time.NewTimer(wait)
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
	again := p.lastErr == err.Error()
	if !again {
		p.lastErrAt = time.Now()
	}
	p.lastErr = err.Error()
	switch {
	case errors.Is(err, errDiverged) && again:
		// One alarm, lasting: the status keeps it.
	case errors.Is(err, errDiverged):
		p.log.Error("publish: stopped", "stream", p.stream, "err", err)
	default:
		p.log.Warn("publish: session ended", "stream", p.stream, "err", err)
	}
}

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
	// The timers are made afresh for each wait and stopped after it,
	// never Reset: a Reset of a timer the runtime may still hold in its
	// heap (one waited on before) makes it look through every timer of
	// the processor when it comes due — some 40,000 in a hall of 10,000
	// clocks, once per PubAck.
	var markTimer, readTimer *time.Timer
	stopTimers := func() {
		if markTimer != nil {
			markTimer.Stop()
		}
		if readTimer != nil {
			readTimer.Stop()
		}
	}
	defer stopTimers()
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
			t := time.NewTimer(wait)
			select {
			case <-ctx.Done():
				t.Stop()
				return ctx.Err()
			case <-t.C:
			}
		}
		if wantRead && !time.Now().Before(nextRead) {
			nextRead = time.Now().Add(p.opts.ReadEvery)
			rows, err := p.rows(ctx, sent, room)
			if err != nil {
				return err
			}
			more = rows.more
			for chunk := rows.rows; len(chunk) > 0; {
				k := min(len(chunk), hallstream.MaxBatch)
				fs, err := p.send(chunk[:k], lastSeq)
				if err != nil {
					return err
				}
				for i, f := range fs {
					window = append(window, inflight{row: chunk[i].ID, f: f})
				}
				sent = chunk[k-1].ID
				lastSeq += uint64(k)
				chunk = chunk[k:]
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
		stopTimers()
		var markC, readC <-chan time.Time // the mark due, a read put off by the pause
		if acked != marked {
			markTimer = time.NewTimer(p.opts.MarkEvery)
			markC = markTimer.C
		}
		if wait := time.Until(nextRead); more && wait > 0 {
			readTimer = time.NewTimer(wait)
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
					// places counted after it are one too far. Twice at
					// the same row, the stream holds another history.
					if p.dupRow == window[0].row {
						return p.diverged(fmt.Sprintf("outbox row %d is already in it at %d, again after starting from its end", window[0].row, ack.Sequence))
					}
					p.dupRow = window[0].row
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
		case <-markC:
		}
		if err := mark(false); err != nil {
			return err
		}
	}
}

// batch is what one read of the outbox gave: its rows, and whether more
// may follow them already.
type batch struct {
	rows []storage.OutboxEntry
	more bool
}

// rows reads up to limit outbox rows after after: the events just
// committed from memory, as the writer handed them over
// (storage.Store.OutboxRecent), else from the database — after a
// restart, when the publisher is behind by more than memory holds, and
// for rows other than events.
func (p *Publisher) rows(ctx context.Context, after uint64, limit int) (batch, error) {
	p.mu.Lock()
	p.reads++
	p.mu.Unlock()
	rows, complete := p.store.OutboxRecent(p.rowBuf, after, limit)
	if len(rows) > 0 || complete {
		p.rowBuf = rows // sent before the next read: used again
		p.mu.Lock()
		p.fromMemory += uint64(len(rows))
		p.mu.Unlock()
		return batch{rows: rows, more: !complete}, nil
	}
	rows, err := p.store.OutboxAfter(ctx, after, limit)
	if err != nil {
		return batch{}, err
	}
	p.mu.Lock()
	p.dbReads++
	p.mu.Unlock()
	return batch{rows: rows, more: len(rows) == limit}, nil
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

// send publishes outbox rows (at most hallstream.MaxBatch), signed
// together, the first expecting the stream's last sequence to be
// lastSeq.
func (p *Publisher) send(rows []storage.OutboxEntry, lastSeq uint64) ([]jetstream.PubAckFuture, error) {
	msgs := make([]*nats.Msg, len(rows))
	ids := make([]string, len(rows))
	seals := make([]hallstream.Sealing, len(rows))
	for i, r := range rows {
		m, err := message(p.opts.Hall, r)
		if err != nil {
			return nil, err
		}
		id := hallstream.MsgID(m, r.ID)
		switch {
		case r.ID <= p.resendUpTo:
			id += "." + p.resendTag
		case p.streamTag != "":
			id += "." + p.streamTag
		}
		var (
			subj string
			body []byte
		)
		if r.EventJSON != nil {
			// Handed over in memory: the event as the database holds it,
			// not decoded and encoded again.
			subj, body, err = hallstream.EncodeEvent(m, r.EventJSON)
		} else {
			subj, body, err = hallstream.Encode(m)
		}
		if err != nil {
			return nil, err
		}
		msg := nats.NewMsg(subj)
		msg.Data = body
		msgs[i], ids[i] = msg, id
		seals[i] = hallstream.Sealing{Header: msg.Header, Subject: subj, Outbox: r.ID, Start: p.startNext && i == 0, Body: body}
	}
	// One signature for the batch (hallstream format 3): each message
	// still verifies alone, so a session that ends halfway leaves
	// nothing a follower cannot check, and the next one seals afresh.
	p.signer.SealBatch(seals)
	p.startNext = false
	fs := make([]jetstream.PubAckFuture, len(msgs))
	for i, msg := range msgs {
		f, err := p.js.PublishMsgAsync(msg, jetstream.WithMsgID(ids[i]), jetstream.WithExpectLastSequence(lastSeq+uint64(i)))
		if err != nil {
			return nil, fmt.Errorf("publishing outbox row %d: %w", rows[i].ID, err)
		}
		fs[i] = f
	}
	return fs, nil
}
