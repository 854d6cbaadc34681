package gateway

import (
	"context"
	"errors"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/chesshall/hallclock/formats/hallstream"
)

// follow reads a hall's stream in order into h until ctx ends. An ordered
// consumer (no state on the server, delivered in stream order) resumes by
// stream sequence by itself after a node or the connection fails; if it
// gives up (the stream missing, NATS gone for long), it is made again
// from the last sequence applied.
func (g *Gateway) follow(ctx context.Context, h *hall) {
	backoff := 100 * time.Millisecond
	for ctx.Err() == nil {
		err := g.consume(ctx, &h)
		if ctx.Err() != nil {
			return
		}
		h.setProblem("reading its stream " + hallstream.StreamName(h.id) + ": " + err.Error())
		g.log.Warn("gateway: following again", "hall", h.id, "after", backoff, "err", err)
		t := time.NewTimer(backoff)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
		backoff = min(2*backoff, 5*time.Second)
	}
}

// consume runs one ordered consumer until it fails or ctx ends. *hp is
// replaced when the hall starts its stream again.
func (g *Gateway) consume(ctx context.Context, hp **hall) error {
	h := *hp
	h.mu.Lock()
	from := h.streamSeq + 1
	h.mu.Unlock()
	cfg := jetstream.OrderedConsumerConfig{FilterSubjects: []string{hallstream.Subjects(h.id)}, DeliverPolicy: jetstream.DeliverAllPolicy}
	if from > 1 {
		cfg.DeliverPolicy, cfg.OptStartSeq = jetstream.DeliverByStartSequencePolicy, from
	}
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	cons, err := g.js.OrderedConsumer(cctx, hallstream.StreamName(h.id), cfg)
	cancel()
	if err != nil {
		return err
	}
	failed := make(chan error, 1)
	cc, err := cons.Consume(func(msg jetstream.Msg) {
		meta, err := msg.Metadata()
		if err != nil {
			return
		}
		h := *hp
		seal, err := h.trust.Check(msg.Subject(), msg.Headers(), msg.Data())
		if err != nil {
			h.refuse(meta.Sequence.Stream, msg.Subject(), err)
			return
		}
		if !h.order.admit(seal.Outbox, seal.Start) {
			h.refuseReplay(meta.Sequence.Stream, msg.Subject(), seal)
			return
		}
		if h.started() && seal.Start {
			h = g.restartHall(h)
			*hp = h
		}
		m, err := hallstream.Decode(msg.Subject(), msg.Data())
		if err != nil {
			h.log.Error("gateway: unreadable message in the hall's stream", "seq", meta.Sequence.Stream, "err", err)
			h.order.record(seal.Outbox, seal.Start, true)
			h.mu.Lock()
			h.streamSeq = meta.Sequence.Stream
			h.mu.Unlock()
			return
		}
		h.order.record(seal.Outbox, seal.Start, h.apply(m, meta.Sequence.Stream, meta.NumPending))
	}, jetstream.ConsumeErrHandler(func(_ jetstream.ConsumeContext, err error) {
		if errors.Is(err, jetstream.ErrOrderedConsumerReset) || errors.Is(err, jetstream.ErrNoHeartbeat) {
			return // the ordered consumer recovers from these by itself
		}
		select {
		case failed <- err:
		default:
		}
	}))
	if err != nil {
		return err
	}
	defer cc.Stop()
	h.setProblem("")
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-cc.Closed():
			return errors.New("consumer closed")
		case err := <-failed:
			if errors.Is(err, jetstream.ErrConsumerDeleted) || errors.Is(err, jetstream.ErrStreamNotFound) {
				return err
			}
			h.log.Debug("gateway: consumer", "err", err) // it goes on
		}
	}
}
