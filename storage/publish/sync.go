package publish

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/chesshall/hallclock/formats/hallstream"
	"github.com/chesshall/hallclock/storage"
)

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

// maxForeign is how many messages the hall did not write a session walks
// back over to find its own last one.
const maxForeign = 1000

// streamEnd is how the stream ends: its last sequence, and the hall's own
// last message in it.
type streamEnd struct {
	lastSeq uint64 // the stream's last sequence, whoever wrote it
	msgs    uint64 // messages in the stream
	own     uint64 // the outbox row of the hall's last message in it; 0: none
	ownMsg  *jetstream.RawStreamMsg
	foreign int // messages after it the hall did not write
}

// readEnd reads the end of the stream, walking back over messages the
// hall did not write: a message NATS let someone else write (followers
// refuse it) must not stop the hall's publishing.
func (p *Publisher) readEnd(ctx context.Context, s jetstream.Stream, keys []storage.StreamKey, marks storage.StreamMarks) (streamEnd, error) {
	cctx, cancel := context.WithTimeout(ctx, apiTimeout)
	defer cancel()
	info, err := s.Info(cctx)
	if err != nil {
		return streamEnd{}, fmt.Errorf("stream %s: %w", p.stream, err)
	}
	e := streamEnd{lastSeq: info.State.LastSeq, msgs: info.State.Msgs}
	if e.msgs == 0 {
		return e, nil
	}
	for seq := e.lastSeq; seq >= max(info.State.FirstSeq, 1); seq-- {
		if e.foreign >= maxForeign {
			return e, fmt.Errorf("stream %s: its last %d messages are not the hall's: someone else writes it (secure NATS: docs/nats-security.md)", p.stream, e.foreign)
		}
		m, err := s.GetMsg(cctx, seq)
		if errors.Is(err, jetstream.ErrMsgNotFound) {
			continue // deleted
		}
		if err != nil {
			return e, fmt.Errorf("stream %s: message %d: %w", p.stream, seq, err)
		}
		if row, ok := ownMessage(m, keys, marks); ok {
			e.own, e.ownMsg = row, m
			break
		}
		e.foreign++
		p.noteForeign(m)
	}
	return e, nil
}

// ownMessage reports whether the hall wrote m, and its outbox row: signed
// by one of the hall's keys, or unsigned from before the hall signed.
func ownMessage(m *jetstream.RawStreamMsg, keys []storage.StreamKey, marks storage.StreamMarks) (uint64, bool) {
	seal, err := hallstream.ReadSeal(m.Header)
	switch {
	case err != nil:
		return 0, false
	case seal.Format == 1:
		return seal.Outbox, seal.Outbox <= marks.UnsignedUpTo
	}
	return seal.Outbox, seal.Verify(m.Subject, m.Data) && ownKey(keys, seal.Key)
}

// noteForeign counts and logs a message in the hall's stream that the
// hall did not write, once: sessions walk back over the same ones.
func (p *Publisher) noteForeign(m *jetstream.RawStreamMsg) {
	p.mu.Lock()
	fresh := !p.foreignSeen[m.Sequence]
	if fresh {
		if len(p.foreignSeen) >= 4*maxForeign {
			clear(p.foreignSeen)
		}
		p.foreignSeen[m.Sequence] = true
		p.foreign++
	}
	p.mu.Unlock()
	if fresh {
		p.log.Warn("publish: a message in the hall's stream that the hall did not write: followers refuse it; NATS lets someone else write the stream",
			"stream", p.stream, "seq", m.Sequence, "subject", m.Subject)
	}
}

// sync learns from the stream how far it has the hall, brings the
// outbox's published mark to it, and returns the row to publish after
// and the stream's last sequence.
func (p *Publisher) sync(ctx context.Context, s jetstream.Stream) (pos uint64, lastSeq uint64, err error) {
	// The hall's first key is made here if it has none yet (a hall
	// upgraded to signing; the command makes it before, to print it).
	if p.signer, err = Signer(ctx, p.store); err != nil {
		return 0, 0, err
	}
	keys, err := p.store.StreamKeys(ctx)
	if err != nil {
		return 0, 0, err
	}
	marks, err := p.store.StreamMarks(ctx)
	if err != nil {
		return 0, 0, err
	}
	p.streamTag = marks.Tag
	end, err := p.readEnd(ctx, s, keys, marks)
	if err != nil {
		return 0, 0, err
	}
	if marks.Restart {
		if end.own > marks.RestartAfter {
			return p.restart(ctx, s, end, marks)
		}
		if err := p.store.StreamRestarted(ctx, false, 0); err != nil {
			return 0, 0, err
		}
	}
	// The hall starts the stream: its followers drop what they had.
	p.startNext = end.own == 0
	last := end.own
	st, err := p.store.OutboxState(ctx)
	if err != nil {
		return 0, 0, err
	}
	switch {
	case last > st.Last:
		return 0, 0, p.diverged(fmt.Sprintf("its last message of the hall's is outbox row %d, this database wrote up to %d", last, st.Last))
	case last > st.Published:
		// Published, but the PubAck was lost (a crash, a cut) — unless
		// this database's rows are not the stream's (restored from a
		// backup, its rows went on differently), or a message someone
		// else wrote came between the hall's and left a hole.
		hole, differs, err := p.checkTail(ctx, s, end, st.Published, keys, marks)
		if err != nil {
			return 0, 0, err
		}
		if differs != "" {
			return 0, 0, p.diverged(differs)
		}
		if hole > 0 {
			p.log.Warn("publish: a message the hall did not write came between the hall's: the stream lacks outbox row "+strconv.FormatUint(hole, 10)+"; sending it and what follows again",
				"stream", p.stream, "stream_row", last)
			p.resendUpTo, p.resendTag = last, resendTag()
			last = hole - 1
		}
		if err := p.store.MarkPublished(ctx, last, p.opts.Keep); err != nil {
			return 0, 0, err
		}
	case last < st.Published:
		// The stream lost what it had acknowledged (deleted, purged, its
		// data gone): send it again from the outbox, or the whole hall.
		err := p.store.RewindPublished(ctx, last)
		if errors.Is(err, storage.ErrConflict) && end.own == 0 {
			p.log.Warn("publish: the stream has none of the hall: publishing the whole hall again", "stream", p.stream, "published", st.Published)
			if err := p.store.Write(ctx, func(tx *storage.Tx) error { return tx.ReseedOutbox() }); err != nil {
				return 0, 0, err
			}
			st, err := p.store.OutboxState(ctx)
			if err != nil {
				return 0, 0, err
			}
			p.resendUpTo, p.resendTag = st.Last, resendTag()
			return st.Published, end.lastSeq, nil
		}
		if err != nil {
			return 0, 0, fmt.Errorf("stream %s ends at outbox row %d, before the hall's published mark %d: %w", p.stream, last, st.Published, err)
		}
		p.log.Warn("publish: the stream lost messages; sending them again", "stream", p.stream, "from", last+1, "published", st.Published)
		p.resendUpTo, p.resendTag = st.Published, resendTag()
	}
	return last, end.lastSeq, nil
}

// resendTag marks the message ids of what is sent again: a purged stream
// keeps refusing the old ids for its de-duplication window.
func resendTag() string { return "r" + strconv.FormatInt(time.Now().UnixMilli(), 36) }

// errDiverged: the stream holds the hall's messages that this database
// did not write.
var errDiverged = errors.New("the stream holds messages of the hall that this database never wrote")

// diverged is the lasting alarm of a stream that went on without this
// database (the hall restored from an older backup, or its file copied
// back): nothing is published into it, since its followers would get two
// histories, until it is started again.
func (p *Publisher) diverged(what string) error {
	p.mu.Lock()
	p.ahead = true
	p.mu.Unlock()
	return fmt.Errorf("%w: stream %s: %s (was the hall restored from an older backup?); nothing is published until the stream is started again: %s, or give the hall a new id (-hall-id)",
		errDiverged, p.stream, what, p.opts.RestartHint)
}

// restart purges a stream that holds messages after the restart mark (a
// restore's: what the hall wrote after the backup, which this database
// never did) and has the outbox publish the hall whole, its first message
// telling followers to start the hall again.
func (p *Publisher) restart(ctx context.Context, s jetstream.Stream, end streamEnd, marks storage.StreamMarks) (uint64, uint64, error) {
	p.log.Warn("publish: the stream holds the hall's messages from before its restore: purging it and publishing the hall whole; followers start the hall again",
		"stream", p.stream, "stream_row", end.own, "restored_row", marks.RestartAfter, "messages", end.msgs)
	cctx, cancel := context.WithTimeout(ctx, apiTimeout)
	defer cancel()
	if err := s.Purge(cctx); err != nil {
		return 0, 0, fmt.Errorf("stream %s: purging the messages from before the restore: %w", p.stream, err)
	}
	info, err := s.Info(cctx)
	if err != nil {
		return 0, 0, fmt.Errorf("stream %s: %w", p.stream, err)
	}
	if err := p.store.StreamRestarted(ctx, true, end.own); err != nil {
		return 0, 0, err
	}
	st, err := p.store.OutboxState(ctx)
	if err != nil {
		return 0, 0, err
	}
	marks, err = p.store.StreamMarks(ctx)
	if err != nil {
		return 0, 0, err
	}
	p.streamTag, p.startNext = marks.Tag, true
	return st.Published, info.State.LastSeq, nil
}

// checkTail compares the stream's messages of the hall after the published
// mark with this database's outbox rows. It returns the first row the
// stream lacks though it has later ones (a message someone else wrote
// came between a session's window: the first of it was refused and the
// ones behind it stored one place late), or what differs: a row that is
// not the stream's message — another record or event, another id, or
// for an event another body (events never change) — means the stream
// went on without this database.
func (p *Publisher) checkTail(ctx context.Context, s jetstream.Stream, end streamEnd, published uint64, keys []storage.StreamKey, marks storage.StreamMarks) (hole uint64, differs string, err error) {
	cctx, cancel := context.WithTimeout(ctx, apiTimeout)
	defer cancel()
	tail := map[uint64]*jetstream.RawStreamMsg{}
	for seq := end.lastSeq; seq >= 1; seq-- {
		m, err := s.GetMsg(cctx, seq)
		if errors.Is(err, jetstream.ErrMsgNotFound) {
			continue
		}
		if err != nil {
			return 0, "", fmt.Errorf("stream %s: message %d: %w", p.stream, seq, err)
		}
		row, ok := ownMessage(m, keys, marks)
		if !ok {
			p.noteForeign(m)
			continue
		}
		if row <= published {
			break
		}
		tail[row] = m
	}
	for after := published; after < end.own; {
		rows, err := p.store.OutboxAfter(ctx, after, min(int(end.own-after), p.opts.Window))
		if err != nil {
			return 0, "", err
		}
		if len(rows) == 0 {
			return 0, fmt.Sprintf("its outbox row %d is past this database's rows", end.own), nil
		}
		for _, r := range rows {
			if r.ID > end.own {
				return hole, "", nil
			}
			after = r.ID
			m, ok := tail[r.ID]
			if !ok {
				if hole == 0 {
					hole = r.ID
				}
				continue
			}
			same, err := p.sameRow(m, r)
			if err != nil {
				return 0, "", err
			}
			if !same {
				return 0, fmt.Sprintf("its outbox row %d (%s, stream sequence %d) is not this database's", r.ID, m.Subject, m.Sequence), nil
			}
		}
	}
	return hole, "", nil
}

// sameRow reports whether the stream's message m is this database's
// outbox row r: the same record or event under the same message id, and
// for an event the same body.
func (p *Publisher) sameRow(m *jetstream.RawStreamMsg, r storage.OutboxEntry) (bool, error) {
	mine, err := message(p.opts.Hall, r)
	if err != nil {
		return false, err
	}
	subject, body, err := hallstream.Encode(mine)
	if err != nil {
		return false, err
	}
	id, theirs := hallstream.MsgID(mine, r.ID), m.Header.Get(jetstream.MsgIDHeader)
	if subject != m.Subject || (theirs != id && !strings.HasPrefix(theirs, id+".r")) {
		return false, nil
	}
	return mine.Kind != hallstream.KindEvent || bytes.Equal(body, m.Data), nil
}
