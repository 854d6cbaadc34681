package clockdev

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"time"

	"github.com/chesshall/hallclock/internal/mono"
	hallv1 "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
	"google.golang.org/protobuf/proto"
)

// session is the state of one ClockLink stream.
type session struct {
	welcomed bool
	sentUpTo uint64        // highest seq sent on this stream
	hbEvery  time.Duration // heartbeat interval from Welcome
	hbReset  bool          // the send loop must (re)start its heartbeat timer
}

// Run keeps the link to the hall server up until ctx is done, then returns
// ctx.Err(). Each stream opens with Hello; after the server's Welcome the
// device resends every unacknowledged event in order, then sends new events
// as they are recorded and a heartbeat every heartbeat interval. When a
// stream ends (network, server restart, a protocol error such as
// OUT_OF_RANGE for a sequence gap) Run reconnects after an exponential
// backoff with jitter. The clock keeps running and recording events while
// the link is down. Only one Run may be active at a time (ErrRunning).
//
// A stream the hall ended because another connection of this device took
// over (ABORTED: a second browser or clock with the same token) is not
// reconnected: Run sends NoticeTakenOver and returns ErrTakenOver (wrapping
// the hall's words), so that two connections of one device never take the
// clock back from each other in turn. Calling Run again takes it back.
func (d *Device) Run(ctx context.Context) error {
	d.mu.Lock()
	switch {
	case d.closed:
		d.mu.Unlock()
		return ErrClosed
	case d.running:
		d.mu.Unlock()
		return ErrRunning
	}
	d.running = true
	d.mu.Unlock()
	defer func() {
		d.mu.Lock()
		d.running = false
		d.mu.Unlock()
	}()

	backoff := d.minBackoff
	var logged linkLog
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		began := d.clock.Now()
		welcomed, err := d.session(ctx)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if errors.Is(err, ErrClosed) {
			return err
		}
		if takenOver(err) {
			d.log.Warn("link ended: another connection of this device took over; not reconnecting", "err", err)
			d.mu.Lock()
			d.lastErr = err
			d.notifyLocked(Notice{Kind: NoticeTakenOver, Err: err})
			d.mu.Unlock()
			return fmt.Errorf("%w: %w", ErrTakenOver, err)
		}
		hint, fault := serverFault(err)
		if welcomed && !fault && d.clock.Since(began) >= d.maxBackoff {
			backoff = d.minBackoff // a stream that lasted: start over
		}
		wait := backoff/2 + time.Duration(d.rng.Int64N(int64(backoff/2)+1))
		backoff = min(2*backoff, d.maxBackoff)
		if hint > 0 {
			// The hall says when to come back (it cannot store events):
			// then, spread over half as much again so a hall's clocks do
			// not all return at once.
			wait = max(wait, min(hint, maxRetryHint)+time.Duration(d.rng.Int64N(int64(min(hint, maxRetryHint)/2)+1)))
		}
		logged.down(d.log, err, wait, d.clock.Now())
		d.mu.Lock()
		d.lastErr = err
		d.notifyLocked(Notice{Kind: NoticeDisconnected, Err: err, RetryIn: wait})
		d.mu.Unlock()
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-d.clock.After(wait):
		}
	}
}

// session runs one stream until it ends; it reports whether the server
// welcomed the device on it.
func (d *Device) session(ctx context.Context) (bool, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stream, err := d.transport.Open(ctx, d.token)
	if err != nil {
		return false, err
	}
	s := &session{}
	d.mu.Lock()
	d.sess = s
	hello := d.helloLocked()
	d.mu.Unlock()
	defer func() {
		d.mu.Lock()
		d.sess = nil
		d.connected = false
		d.mu.Unlock()
	}()

	sendErr := make(chan error, 1)
	go func() {
		err := d.sendLoop(ctx, stream, s, hello)
		cancel() // a broken send ends the stream for Recv too
		sendErr <- err
	}()
	rerr := d.recvLoop(stream, s)
	cancel()
	serr := <-sendErr

	d.mu.Lock()
	welcomed := s.welcomed
	d.mu.Unlock()
	if errors.Is(rerr, io.EOF) {
		rerr = errors.New("the server closed the stream")
	}
	if rerr == nil {
		rerr = serr
	}
	return welcomed, rerr
}

func (d *Device) helloLocked() *hallv1.DeviceMessage {
	h := &hallv1.Hello{
		DeviceId:     d.id,
		Firmware:     d.firmware,
		LastAckedSeq: d.outbox.AckedSeq(),
		NextSeq:      d.outbox.NextSeq(),
		Capabilities: d.capabilitiesLocked(),
		Boards:       d.outbox.Held(),
	}
	if d.asg != nil {
		now := d.boardNowLocked()
		p := d.st.Project(now)
		h.Clock = &hallv1.DeviceClock{
			BoardId:  d.asg.GetBoardId(),
			TMs:      now,
			WhiteMs:  p.P[rules.White].MainMs,
			BlackMs:  p.P[rules.Black].MainMs,
			BoardSeq: uint64(len(d.hist)),
		}
	}
	return &hallv1.DeviceMessage{Msg: &hallv1.DeviceMessage_Hello{Hello: h}}
}

func (d *Device) heartbeatLocked() *hallv1.DeviceMessage {
	hb := &hallv1.Heartbeat{
		DeviceMs:   d.clock.Since(d.started).Milliseconds(),
		BatteryPct: int32(min(max(d.battery(), 0), 100)),
		DriftPpm:   d.driftPPM,
	}
	if d.asg != nil {
		now := d.boardNowLocked()
		p := d.st.Project(now)
		hb.BoardTMs = now
		hb.WhiteMs, hb.BlackMs = p.P[rules.White].MainMs, p.P[rules.Black].MainMs
	}
	return &hallv1.DeviceMessage{Msg: &hallv1.DeviceMessage_Heartbeat{Heartbeat: hb}}
}

// sendLoop is the only caller of stream.Send: Hello first, then, once the
// server welcomed the device, the outbox's events not yet sent on this
// stream, in order, and heartbeats.
func (d *Device) sendLoop(ctx context.Context, stream Stream, s *session, hello *hallv1.DeviceMessage) error {
	if err := stream.Send(hello); err != nil {
		return err
	}
	hbDue := make(chan struct{}, 1)
	var hb mono.Timer
	defer func() {
		if hb != nil {
			hb.Stop()
		}
	}()
	for {
		beat := false
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-d.wake:
		case <-hbDue:
			beat = true
		}
		d.mu.Lock()
		if !s.welcomed {
			d.mu.Unlock()
			continue
		}
		if s.hbReset {
			s.hbReset = false
			if hb != nil {
				hb.Stop()
			}
			hb = d.clock.AfterFunc(s.hbEvery, func() {
				select {
				case hbDue <- struct{}{}:
				default:
				}
			})
		}
		var out []*hallv1.DeviceMessage
		for _, ev := range pendingRange(d.outbox, s.sentUpTo, math.MaxUint64) {
			out = append(out, &hallv1.DeviceMessage{Msg: &hallv1.DeviceMessage_Event{Event: ev}})
		}
		if beat {
			out = append(out, d.heartbeatLocked())
			hb.Reset(s.hbEvery)
		}
		d.mu.Unlock()
		for _, m := range out {
			if err := stream.Send(m); err != nil {
				return err
			}
			if ev := m.GetEvent(); ev != nil {
				d.mu.Lock()
				s.sentUpTo = max(s.sentUpTo, ev.GetSeq())
				d.mu.Unlock()
			}
		}
	}
}

// recvLoop handles the server's messages until the stream ends.
func (d *Device) recvLoop(stream Stream, s *session) error {
	for {
		m, err := stream.Recv()
		if err != nil {
			return err
		}
		d.mu.Lock()
		if d.closed {
			d.mu.Unlock()
			return ErrClosed
		}
		d.handleLocked(s, m)
		d.mu.Unlock()
		d.wakeSender()
	}
}

// handleLocked handles one server message.
func (d *Device) handleLocked(s *session, m *hallv1.ServerMessage) {
	switch x := m.GetMsg().(type) {
	case *hallv1.ServerMessage_Welcome:
		d.welcomeLocked(s, x.Welcome)
	case *hallv1.ServerMessage_Assignment:
		d.assignLocked(x.Assignment, false)
	case *hallv1.ServerMessage_Ack:
		d.ackLocked(x.Ack)
	case *hallv1.ServerMessage_Command:
		d.commandLocked(x.Command)
	case *hallv1.ServerMessage_Announce:
		d.announceLocked(x.Announce)
	default:
		d.log.Warn("unknown server message", "msg", fmt.Sprintf("%T", m.GetMsg()))
	}
}

// welcomeLocked handles Welcome. The first on a stream makes the send loop
// (re)send every pending event after acked_seq. A hall that acknowledges
// less than it did before lost events (a restore from an older backup):
// the acknowledged events of the board the clock still holds (Outbox
// Resend) become pending again and are resent from acked_seq+1. A later one on the same
// stream only acknowledges (never lowering what was acknowledged) and may
// change the heartbeat interval: it does not resend what this stream
// carried already.
//
// If the server acknowledged a seq the device has not reached (next_seq ≤
// acked_seq: the device lost its storage), the device's pending events —
// recorded after the loss, so not the ones the server has — are renumbered
// from acked_seq+1 before the acknowledgement, and numbering continues
// after them.
func (d *Device) welcomeLocked(s *session, w *hallv1.Welcome) {
	acked := w.GetAckedSeq()
	if had := d.outbox.AckedSeq(); acked < had {
		// The hall lost events it had acknowledged (restored from an older
		// backup): resend those this clock still holds.
		n, err := d.outbox.Resend(acked + 1)
		if err != nil {
			d.log.Error("outbox: resend failed", "err", err)
		}
		d.log.Warn("the hall lost events it had acknowledged (restored from a backup?): resending those this clock holds",
			"hall_acked", acked, "clock_acked", had, "resent", n)
	}
	renumbered := false
	if next := d.outbox.NextSeq(); next <= acked {
		old := d.outbox.Pending()
		if err := d.outbox.Renumber(acked + 1); err != nil {
			d.log.Error("outbox: renumber failed", "err", err)
		} else {
			renumbered = true
			d.log.Warn("the server knows more events than this device: numbering continues after them",
				"device_next", next, "server_acked", acked, "renumbered", len(old))
			refused := map[uint64]bool{}
			for i, ev := range old {
				if d.refused[ev.GetSeq()] {
					refused[acked+1+uint64(i)] = true
				}
			}
			d.refused = refused
			if d.recordedAt != nil {
				at := map[uint64]time.Time{}
				for i, ev := range old {
					if t, ok := d.recordedAt[ev.GetSeq()]; ok {
						at[acked+1+uint64(i)] = t
					}
				}
				d.recordedAt = at
			}
		}
	}
	d.noteRejectionsLocked(w.GetRejected())
	d.reportAckedLocked(acked, w.GetRejected())
	if err := d.outbox.Ack(acked); err != nil {
		d.log.Error("outbox: ack failed", "err", err)
	}
	d.forgetRefusedLocked()
	if !s.welcomed || renumbered {
		s.sentUpTo = acked
	}
	s.welcomed = true
	s.hbEvery = time.Duration(w.GetHeartbeatIntervalMs()) * time.Millisecond
	if s.hbEvery <= 0 {
		s.hbEvery = DefaultHeartbeat
	}
	s.hbReset = true
	if !d.connected {
		d.connected = true
		d.log.Info("link up", "acked_seq", acked, "pending", pendingCount(d.outbox))
		d.notifyLocked(Notice{Kind: NoticeConnected, UpTo: acked})
	}
}

// ackLocked handles Ack: rejected events are acknowledged like the others
// (dropped from the outbox) and reported. If the server refused an event
// the local rules had accepted, the device's board has diverged from the
// record: the next Assignment of the board is adopted whatever its length.
func (d *Device) ackLocked(a *hallv1.Ack) {
	d.noteRejectionsLocked(a.GetRejected())
	d.reportAckedLocked(a.GetUpToSeq(), a.GetRejected())
	if err := d.outbox.Ack(a.GetUpToSeq()); err != nil {
		d.log.Error("outbox: ack failed", "err", err)
		return
	}
	d.forgetRefusedLocked()
	d.notifyLocked(Notice{Kind: NoticeAck, UpTo: a.GetUpToSeq()})
}

// noteRejectionsLocked records the hall's rejections of pending events
// (of an Ack, or of a Welcome for events acknowledged while the link was
// down).
func (d *Device) noteRejectionsLocked(rs []*hallv1.Rejection) {
	if len(rs) == 0 {
		return
	}
	pending := d.outbox.Pending()
	for _, r := range rs {
		d.rejected++
		d.rejections = append(d.rejections, proto.Clone(r).(*hallv1.Rejection))
		if len(d.rejections) > recentRejections {
			d.rejections = d.rejections[len(d.rejections)-recentRejections:]
		}
		if !d.refused[r.GetSeq()] {
			var ev *hallv1.DeviceEvent
			for _, p := range pending {
				if p.GetSeq() == r.GetSeq() {
					ev = p
				}
			}
			if ev == nil || (d.asg != nil && ev.GetBoardId() == d.asg.GetBoardId()) {
				d.diverged = true
			}
		}
		d.log.Warn("event rejected by the server", "seq", r.GetSeq(), "code", r.GetCode(), "message", r.GetMessage())
		d.notifyLocked(Notice{Kind: NoticeRejection, Rejection: proto.Clone(r).(*hallv1.Rejection)})
	}
}

// forgetRefusedLocked drops the marks of acknowledged events.
func (d *Device) forgetRefusedLocked() {
	acked := d.outbox.AckedSeq()
	for seq := range d.refused {
		if seq <= acked {
			delete(d.refused, seq)
		}
	}
}

// reportAckedLocked calls Config.OnAck for each pending event with seq <=
// upTo, before the outbox drops them; rejected are the Ack's rejections.
func (d *Device) reportAckedLocked(upTo uint64, rejected []*hallv1.Rejection) {
	if d.onAck == nil {
		return
	}
	now := d.clock.Now()
	for _, ev := range pendingRange(d.outbox, 0, upTo) {
		seq := ev.GetSeq()
		a := Acked{Event: ev, Latency: -1}
		for _, r := range rejected {
			if r.GetSeq() == seq {
				a.Rejection = proto.Clone(r).(*hallv1.Rejection)
			}
		}
		if t, ok := d.recordedAt[seq]; ok {
			a.Latency = now.Sub(t)
			delete(d.recordedAt, seq)
		}
		d.onAck(a)
	}
}
