package gateway

import (
	"context"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/chesshall/hallclock/formats/hallstream"
)

// follow reads a hall's stream in order into h until ctx ends. An ordered
// consumer (no state on the server, delivered in stream order) is made
// again from the stream sequence after the last delivered when it misses
// one or falls silent (a node or the connection failed); if none can be
// made (the stream missing, NATS away), again after a backoff.
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

// consume reads the hall's stream through ordered consumers (ordered.go)
// until one cannot be made or ctx ends. *hp is replaced when the hall
// starts its stream again.
func (g *Gateway) consume(ctx context.Context, hp **hall) error {
	h := *hp
	h.mu.Lock()
	from := h.streamSeq + 1
	h.mu.Unlock()
	r := &orderedReader{nc: g.opts.Conn, stream: hallstream.StreamName(h.id), filter: hallstream.Subjects(h.id), clock: g.clock.Now, log: h.log,
		deliver: func(msg *nats.Msg, meta *nats.MsgMetadata) {
			h := *hp
			seal, err := h.trust.Check(msg.Subject, msg.Header, msg.Data)
			if err != nil {
				h.refuse(meta.Sequence.Stream, msg.Subject, err)
				return
			}
			if !h.order.admit(seal.Outbox, seal.Start) {
				h.refuseReplay(meta.Sequence.Stream, msg.Subject, seal)
				return
			}
			if h.started() && seal.Start {
				h = g.restartHall(h)
				*hp = h
			}
			m, err := hallstream.Decode(msg.Subject, msg.Data)
			if err != nil {
				h.log.Error("gateway: unreadable message in the hall's stream", "seq", meta.Sequence.Stream, "err", err)
				h.order.record(seal.Outbox, seal.Start, true)
				h.mu.Lock()
				h.streamSeq = meta.Sequence.Stream
				h.mu.Unlock()
				return
			}
			h.order.record(seal.Outbox, seal.Start, h.apply(m, meta.Sequence.Stream, meta.NumPending))
		}}
	return r.run(ctx, from, func() { (*hp).setProblem("") })
}
