package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
)

// A gateway reads a hall's stream through an ordered push consumer of its
// own making: ephemeral, in memory, one replica, no acknowledgements,
// created on JetStream's legacy ephemeral subject
// ($JS.API.CONSUMER.CREATE.<stream>), where the server refuses a durable
// one. So the gateways' NATS user needs no other consumer right: it
// creates nothing durable, deletes nothing, pulls from no one's consumer
// (docs/nats-security.md). The consumer delivers to an inbox with flow
// control and idle heartbeats; a gap in its delivery sequence, a
// heartbeat that says another, or silence for three heartbeats makes a
// new one from the stream sequence after the last delivered (the old one
// goes away by itself once nobody listens to its inbox).

// heartbeat is how often an idle consumer says it is there.
const heartbeat = 2 * time.Second

// orderedReader reads one stream in order.
type orderedReader struct {
	nc      *nats.Conn
	stream  string
	filter  string
	deliver func(m *nats.Msg, meta *nats.MsgMetadata) // in stream order, one at a time
	clock   func() time.Time
	log     *slog.Logger

	// mu is held while a message is taken: an old consumer's last
	// message is applied before its successor's first.
	mu sync.Mutex
}

// delivery is one consumer's inbox: what it delivered, and whether it is
// to be replaced. Under the reader's mu.
type delivery struct {
	dseq      uint64    // the consumer's last delivery applied
	sseq      uint64    // its stream sequence
	heard     time.Time // the last message or heartbeat
	gone      bool      // replaced: deliver nothing more
	why       string    // why it is replaced
	replaceMe chan struct{}
}

// run reads from stream sequence from (1: the start) until ctx ends or a
// consumer cannot be made; it returns why.
func (r *orderedReader) run(ctx context.Context, from uint64, started func()) error {
	for ctx.Err() == nil {
		d := &delivery{heard: r.clock(), replaceMe: make(chan struct{}, 1), sseq: from - 1}
		inbox := r.nc.NewInbox()
		sub, err := r.nc.Subscribe(inbox, func(m *nats.Msg) { r.receive(d, m) })
		if err != nil {
			return err
		}
		if err := r.create(ctx, inbox, from); err != nil {
			_ = sub.Unsubscribe()
			return err
		}
		started()
		err = r.wait(ctx, d)
		r.mu.Lock()
		d.gone = true
		from = d.sseq + 1
		why := d.why
		r.mu.Unlock()
		_ = sub.Unsubscribe()
		if err != nil {
			return err
		}
		r.log.Debug("gateway: a new consumer", "stream", r.stream, "from", from, "why", why)
	}
	return ctx.Err()
}

// wait returns nil when the consumer is to be replaced, or ctx's error.
func (r *orderedReader) wait(ctx context.Context, d *delivery) error {
	t := time.NewTicker(heartbeat)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-d.replaceMe:
			return nil
		case <-t.C:
			r.mu.Lock()
			silent := r.clock().Sub(d.heard) > 3*heartbeat
			if silent {
				d.why = "silent for three heartbeats"
			}
			r.mu.Unlock()
			if silent {
				return nil
			}
		}
	}
}

// receive takes one message of the consumer's inbox (the client's
// goroutine for the subscription: one at a time, in order).
func (r *orderedReader) receive(d *delivery, m *nats.Msg) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if d.gone {
		return
	}
	d.heard = r.clock()
	if len(m.Data) == 0 && m.Header.Get("Status") == "100" {
		switch {
		case m.Reply != "": // flow control: say we keep up
			_ = m.Respond(nil)
		case m.Header.Get("Nats-Consumer-Stalled") != "":
			_ = r.nc.Publish(m.Header.Get("Nats-Consumer-Stalled"), nil)
		}
		if last := m.Header.Get("Nats-Last-Consumer"); last != "" && last != strconv.FormatUint(d.dseq, 10) {
			d.replace("it delivered " + last + ", we got " + strconv.FormatUint(d.dseq, 10)) // what we did not get
		}
		return
	}
	meta, err := m.Metadata()
	if err != nil {
		return
	}
	if meta.Sequence.Consumer != d.dseq+1 {
		d.replace("delivery " + strconv.FormatUint(meta.Sequence.Consumer, 10) + " after " + strconv.FormatUint(d.dseq, 10))
		return
	}
	d.dseq, d.sseq = meta.Sequence.Consumer, meta.Sequence.Stream
	r.deliver(m, meta)
}

// replace marks the consumer for replacement. The reader's mu is held.
func (d *delivery) replace(why string) {
	d.gone, d.why = true, why
	select {
	case d.replaceMe <- struct{}{}:
	default:
	}
}

// consumerConfig is the part of JetStream's consumer configuration the
// reader sets.
type consumerConfig struct {
	DeliverSubject    string        `json:"deliver_subject"`
	DeliverPolicy     string        `json:"deliver_policy"`
	OptStartSeq       uint64        `json:"opt_start_seq,omitempty"`
	AckPolicy         string        `json:"ack_policy"`
	FilterSubject     string        `json:"filter_subject,omitempty"`
	FlowControl       bool          `json:"flow_control"`
	Heartbeat         time.Duration `json:"idle_heartbeat"`
	MemoryStorage     bool          `json:"mem_storage"`
	Replicas          int           `json:"num_replicas"`
	InactiveThreshold time.Duration `json:"inactive_threshold"`
}

// create makes the consumer delivering to inbox from stream sequence from.
func (r *orderedReader) create(ctx context.Context, inbox string, from uint64) error {
	cfg := consumerConfig{DeliverSubject: inbox, DeliverPolicy: "all", AckPolicy: "none", FilterSubject: r.filter,
		FlowControl: true, Heartbeat: heartbeat, MemoryStorage: true, Replicas: 1, InactiveThreshold: 5 * heartbeat}
	if from > 1 {
		cfg.DeliverPolicy, cfg.OptStartSeq = "by_start_sequence", from
	}
	body, err := json.Marshal(struct {
		Stream string         `json:"stream_name"`
		Config consumerConfig `json:"config"`
	}{r.stream, cfg})
	if err != nil {
		return err
	}
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	resp, err := r.nc.RequestWithContext(cctx, "$JS.API.CONSUMER.CREATE."+r.stream, body)
	if err != nil {
		if errors.Is(err, nats.ErrNoResponders) {
			return fmt.Errorf("creating a consumer of %s: JetStream does not answer: %w", r.stream, err)
		}
		return fmt.Errorf("creating a consumer of %s: %w", r.stream, err)
	}
	var out struct {
		Error *nats.APIError `json:"error"`
	}
	if err := json.Unmarshal(resp.Data, &out); err != nil {
		return fmt.Errorf("creating a consumer of %s: %w", r.stream, err)
	}
	if out.Error != nil {
		return fmt.Errorf("creating a consumer of %s: %w", r.stream, out.Error)
	}
	return nil
}
