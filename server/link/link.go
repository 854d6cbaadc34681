package link

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"google.golang.org/grpc/status"

	"github.com/chesshall/hallclock/internal/mono"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/server/auth"
	"github.com/chesshall/hallclock/server/hall"
	"github.com/chesshall/hallclock/server/hallerr"
	"github.com/chesshall/hallclock/storage"
)

// link is one connected device's stream. The receive loop (Connect) handles
// the device's messages in order, one at a time; messages to the device go
// through its linkSender (send, from any goroutine).
type link struct {
	dev  string
	info *hall.Device // what the hall last heard from the device
	linkSender
	// owned by the receive loop
	acked  uint64 // highest seq committed (refused or applied)
	expect uint64 // next seq the device may send
	// claimed is the highest seq the device says the hall acknowledged
	// (Hello): above acked, the hall lost events (a restore from an older
	// backup), and numbers up to it the device no longer holds are skipped.
	claimed uint64
	// restored says, when the hall lost events of the device, where its
	// resent events (seq up to claimed) go: the boards they were recorded
	// on (hall.Restore). nil otherwise.
	restored *hall.Restored
}

// Connect is one device's bidirectional stream.
func (s *Service) Connect(stream pb.ClockLink_ConnectServer) error {
	id := auth.IdentityFrom(stream.Context())
	if id == nil || id.Role != auth.RoleDevice {
		return fmt.Errorf("%w: only device tokens may connect a clock", hallerr.ErrPermission)
	}
	first, err := s.recvHello(stream)
	if errors.Is(err, io.EOF) {
		return nil // gone before saying anything
	}
	if err != nil {
		return err
	}
	hello := first.GetHello()
	if hello == nil {
		return hallerr.BadRequest("the first message must be Hello")
	}
	if hello.GetDeviceId() != id.DeviceID {
		return fmt.Errorf("%w: token is bound to device %q, hello says %q", hallerr.ErrPermission, id.DeviceID, hello.GetDeviceId())
	}
	dev := id.DeviceID
	if err := s.opts.Ready(); err != nil && !errors.Is(err, hallerr.ErrShuttingDown) {
		// Nothing it sends could be stored: the device keeps its events
		// and comes back after the retry delay.
		return fmt.Errorf("%w (%v): keep the events and retry later", hallerr.ErrNotReady, err)
	}
	ctx, cancel := context.WithCancelCause(stream.Context())
	defer cancel(nil)
	stop := context.AfterFunc(s.ctx, func() { cancel(hallerr.ErrShuttingDown) })
	defer stop()

	acked, err := s.store.DeviceAcked(ctx, dev)
	if err != nil {
		return err
	}
	l := &link{dev: dev, acked: acked, expect: acked + 1, claimed: hello.GetLastAckedSeq(),
		linkSender: linkSender{dev: dev, ctx: ctx, cancel: cancel, stream: stream.Send}}
	if l.claimed > acked {
		s.log.Warn("a device holds acknowledgements the hall lost (restored from an older backup?): asking it to resend",
			"device", dev, "hall_acked", acked, "device_acked", l.claimed)
		// Before the device is told its board: the hall follows the clock
		// (the board it keeps now, rebuilt if the backup is older than it),
		// not the backup, and learns where its resent events go.
		if l.restored, err = s.hall.Restore(ctx, dev, hello, acked); err != nil {
			return err
		}
	}
	refused, err := s.refusedSince(ctx, dev, hello.GetLastAckedSeq(), min(acked, hello.GetNextSeq()-1))
	if err != nil {
		return err
	}
	// The Welcome is queued before the link is registered, so nothing
	// (an assignment, a command) can reach the device before it.
	beatEvery := heartbeatEvery(s.hall.Fleet(), s.opts.HeartbeatBudget, s.opts.HeartbeatInterval)
	l.send(&pb.ServerMessage{Msg: &pb.ServerMessage_Welcome{Welcome: &pb.Welcome{
		AckedSeq: acked, HeartbeatIntervalMs: beatEvery.Milliseconds(), Rejected: refused}}})
	l.info = s.hall.Attach(l, dev, hello, acked)
	defer s.hall.Detach(l, dev)
	// Revoking the device's token cuts the link.
	defer s.streams.Track(id.TokenID, func() {
		l.cancel(fmt.Errorf("%w: the device's token was revoked", hallerr.ErrUnauthenticated))
	})()
	s.counters.connects.Add(1)

	// Nothing may call Send once Connect returns: the link is cut (a
	// stream ending by the device's EOF or a protocol error has not
	// cancelled ctx yet) and what is sending is waited for.
	defer func() { cancel(nil); _ = l.close() }()

	if l.restored == nil {
		s.refuseHelloClaim(ctx, dev, hello)
	}
	if l.restored == nil || l.restored.Unknown == "" {
		s.hall.SendAssignment(ctx, dev, true)
	}

	// Receive loop, with a watchdog: silence for silenceAfter its
	// heartbeat interval means the device is gone (keepalive catches dead
	// connections too).
	// The device is heard when a message arrives, not when it is handled:
	// a press waiting for its commit must not make its heartbeats late.
	// Heartbeats are handled here, on the receive goroutine (they wait for
	// nothing); events go to the loop below, one at a time. While an event
	// waits for the loop, the device counts as heard: it is the hall that
	// is busy.
	type arrival struct {
		m  *pb.DeviceMessage
		at time.Time // when it arrived (real time), for the ingest monitor (fanout.Ingest)
	}
	msgs := make(chan arrival)
	recvErr := make(chan error, 1)
	var heard atomic.Int64 // server clock, Unix ns; 0 while an event waits for the loop
	heard.Store(s.clock.Now().UnixNano())
	go func() {
		for {
			m, err := stream.Recv()
			if err != nil {
				recvErr <- err
				return
			}
			heard.Store(s.clock.Now().UnixNano())
			s.counters.received.Add(1)
			if hb := m.GetHeartbeat(); hb != nil {
				s.hall.Heartbeat(l.info, hb)
				continue
			}
			heard.Store(0)
			select {
			case msgs <- arrival{m, time.Now()}:
				heard.Store(s.clock.Now().UnixNano())
			case <-ctx.Done():
				return
			}
		}
	}()
	defer s.watchSilence(dev, beatEvery, &heard, cancel)()
	for {
		select {
		case <-ctx.Done():
			return causeStatus(ctx, l.close())
		case err := <-recvErr:
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		case a := <-msgs:
			if err := s.handle(ctx, l, a.m); err != nil {
				return err
			}
			s.ingest.ObserveAck(time.Since(a.at))
		}
	}
}

// watchSilence cuts a device's link (DEADLINE_EXCEEDED) once nothing was
// heard from it for silenceAfter its heartbeat interval (every). It looks
// when the silence would be complete, not at every message. If it looks
// late by more than a heartbeat interval, or the hall is behind its work
// (Lag), it is the hall that is slow, not necessarily the device: the
// device gets the whole silence again rather than being cut for the
// hall's delay (a dead connection is still found by keepalive). It
// returns the function that stops it.
func (s *Service) watchSilence(dev string, every time.Duration, heard *atomic.Int64, cancel context.CancelCauseFunc) (stop func()) {
	silence := silenceAfter(every, s.opts.HeartbeatInterval)
	var (
		mu      sync.Mutex
		t       mono.Timer
		stopped bool
		due     = s.clock.Now().Add(silence)
	)
	mu.Lock()
	defer mu.Unlock()
	t = s.clock.AfterFunc(silence, func() {
		mu.Lock()
		defer mu.Unlock()
		if stopped {
			return
		}
		now := s.clock.Now()
		var quiet time.Duration // 0 while a message waits to be handled
		if at := heard.Load(); at != 0 {
			quiet = now.Sub(time.Unix(0, at))
		}
		switch late := now.Sub(due); {
		case quiet < silence:
			due = now.Add(silence - quiet)
		case late > every || s.opts.Overloaded():
			s.counters.lateWatchdogs.Add(1)
			s.log.Warn("the hall is behind (overloaded): a clock that seems silent gets more time", "device", dev, "late", late, "quiet", quiet,
				"sched_p99", time.Duration(s.opts.SchedLatency()))
			due = now.Add(silence)
		default:
			s.counters.silenceCuts.Add(1)
			cancel(fmt.Errorf("%w: device %s sent nothing for %s: taken offline", hallerr.ErrDeviceSilent, dev, silence))
			return
		}
		t.Reset(due.Sub(now))
	})
	return func() {
		mu.Lock()
		defer mu.Unlock()
		stopped = true
		t.Stop()
	}
}

// refuseHelloClaim refuses the board a Hello names if the device does not
// keep it (reassigned while it was away, or claiming another's board): the
// claim changes nothing, is logged and audited on the named board, and the
// Assignment that follows tells the device what it keeps. The stream goes
// on, so a device that missed a reassignment is never locked out.
func (s *Service) refuseHelloClaim(ctx context.Context, dev string, hello *pb.Hello) {
	named := hello.GetClock().GetBoardId()
	if named == "" {
		return
	}
	_, keeps := s.hall.DeviceState(dev)
	_, err := s.hall.Board(named)
	exists := err == nil
	if named == keeps {
		return
	}
	msg := fmt.Sprintf("device %s's Hello names board %s, which it does not keep (it keeps %q): claim refused, the device is sent its assignment", dev, named, keeps)
	s.log.Warn("hello names a board the device does not keep", "device", dev, "named", named, "keeps", keeps)
	if !exists {
		return
	}
	_ = s.store.Write(ctx, func(tx *storage.Tx) error {
		return tx.AddAudit(&storage.AuditRecord{BoardID: named, Actor: "device:" + dev, What: "hello names this board",
			Outcome: storage.OutcomeRefused(msg)})
	})
}

// causeStatus is why a link ended: the cause it was cut with (a newer
// connection, silence, shutdown), else its Send's failure, else its
// context's end.
func causeStatus(ctx context.Context, sendErr error) error {
	if c := context.Cause(ctx); c != nil && !errors.Is(c, context.Canceled) && !errors.Is(c, context.DeadlineExceeded) {
		return c
	}
	if sendErr != nil {
		return sendErr
	}
	return status.FromContextError(ctx.Err()).Err()
}

func (s *Service) handle(ctx context.Context, l *link, m *pb.DeviceMessage) error {
	switch msg := m.GetMsg().(type) {
	case *pb.DeviceMessage_Heartbeat:
		s.hall.Heartbeat(l.info, msg.Heartbeat) // (Connect handles them as they arrive)
		return nil
	case *pb.DeviceMessage_Hello:
		return hallerr.BadRequest("Hello may only be the first message of a stream")
	case *pb.DeviceMessage_Event:
		return s.event(ctx, l, msg.Event)
	}
	return hallerr.BadRequest("empty device message")
}

// event handles one device event: duplicates are acknowledged again, a gap
// ends the stream naming the sequence number to resend from, and the next
// expected event goes to its board's actor and is acknowledged once committed.
func (s *Service) event(ctx context.Context, l *link, ev *pb.DeviceEvent) error {
	seq := ev.GetSeq()
	switch {
	case seq == 0:
		return hallerr.BadRequest("device event without a sequence number (they start at 1)")
	case seq < l.expect:
		s.counters.duplicates.Add(1)
		l.sendHere(ack(l.acked, nil))
		return nil
	case seq > l.expect && seq <= l.claimed+1:
		// The hall acknowledged these once and lost them (a restore); the
		// device resends what it holds and no longer has the rest.
		if err := s.skipLost(ctx, l, seq-1); err != nil {
			return err
		}
	case seq > l.expect:
		s.counters.gaps.Add(1)
		return fmt.Errorf("%w from device %s: got %d, expected %d; resend from %d", hallerr.ErrSequenceGap, l.dev, seq, l.expect, l.expect)
	}
	if err := ev.ValidateContent(); err != nil {
		return s.refuseOffBoard(ctx, l, ev, "invalid", err.Error())
	}
	b, boardErr := s.hall.Board(ev.GetBoardId())
	if boardErr != nil {
		return s.refuseOffBoard(ctx, l, ev, "unknown_board", boardErr.Error())
	}
	apply := b.ApplyDevice
	if seq <= l.claimed && l.restored.Takes(ev.GetBoardId()) {
		// Acknowledged before the restore, on the board it names: taken
		// there, whether or not the device keeps that board now.
		apply = b.ApplyResent
	}
	rejected, aerr := apply(ctx, l.dev, ev)
	if aerr != nil {
		if errors.Is(aerr, storage.ErrDuplicate) {
			// Committed before (e.g. by a stream that just died): acknowledge.
			s.counters.duplicates.Add(1)
			l.expect, l.acked = seq+1, seq
			l.setAcked(seq)
			return s.ackAgain(ctx, l, seq)
		}
		return aerr
	}
	l.expect, l.acked = seq+1, seq
	l.setAcked(seq)
	if rejected != nil {
		s.counters.rejected.Add(1)
	} else {
		s.counters.applied.Add(1)
	}
	l.sendHere(ack(seq, rejected))
	if rejected != nil {
		// The device's own rules accepted what ours refused: resend the
		// board so it can resynchronise.
		s.hall.SendAssignment(ctx, l.dev, false)
	}
	return nil
}

// skipLost records that the device's events l.expect..upTo, which the
// hall acknowledged before a restore from an older backup, are lost: the
// device no longer holds them. It is audited (on the device's board) and
// the device's numbering goes on after them.
func (s *Service) skipLost(ctx context.Context, l *link, upTo uint64) error {
	from := l.expect
	// The events lost are the oldest the device recorded after the
	// backup: most likely of the board the backup gave it.
	board := ""
	if l.restored != nil {
		board = l.restored.KeptAtBackup
	} else if b := s.hall.BoardOfDevice(l.dev); b != nil {
		board = b.ID()
	}
	msg := fmt.Sprintf("device %s's events %d to %d were acknowledged before the hall was restored from an older backup, and the device no longer holds them: lost", l.dev, from, upTo)
	err := s.store.Write(ctx, func(tx *storage.Tx) error {
		if err := tx.SkipDeviceSeqs(l.dev, upTo); err != nil {
			return err
		}
		return tx.AddAudit(&storage.AuditRecord{BoardID: board, Actor: "server", What: "events lost in a restore",
			Outcome: storage.OutcomeAlert(msg)})
	})
	if err != nil {
		return err
	}
	s.log.Warn("events lost in a restore", "device", l.dev, "from", from, "to", upTo)
	l.expect, l.acked = upTo+1, upTo
	l.setAcked(upTo)
	return nil
}

// refuseOffBoard refuses an event that reaches no board (malformed, or for
// a board that does not exist): committed to the audit log of the board a
// person would look at (offBoardAudit) and acknowledged, so the device
// moves on.
func (s *Service) refuseOffBoard(ctx context.Context, l *link, ev *pb.DeviceEvent, code, msg string) error {
	seq := ev.GetSeq()
	board := s.offBoardAudit(l.dev, ev.GetBoardId())
	err := s.store.Write(ctx, func(tx *storage.Tx) error {
		if err := tx.AckDevice(l.dev, seq); err != nil {
			return err
		}
		return tx.AddAudit(&storage.AuditRecord{BoardID: board, Actor: "device:" + l.dev, What: hall.ActionText(ev.GetAction()),
			Outcome: storage.OutcomeRefused(msg), Action: hall.ActionJSON(ev.GetAction())})
	})
	if err != nil && !errors.Is(err, storage.ErrDuplicate) {
		return err
	}
	l.expect, l.acked = seq+1, seq
	l.setAcked(seq)
	if err != nil {
		// Refused before, by a stream that just died: acknowledge again.
		s.counters.duplicates.Add(1)
		return s.ackAgain(ctx, l, seq)
	}
	s.counters.rejected.Add(1)
	l.sendHere(ack(seq, &pb.Rejection{Seq: seq, Code: code, Message: msg}))
	return nil
}

// offBoardAudit is the board whose audit log tells why a device's event
// that reached no board was refused (the Welcome of a device that missed
// the Ack sends it there): the board whose clock the device keeps, else
// the board the event names if there is one, else none (the hall's log).
func (s *Service) offBoardAudit(dev, named string) string {
	if b := s.hall.BoardOfDevice(dev); b != nil {
		return b.ID()
	}
	if b, err := s.hall.Board(named); err == nil {
		return b.ID()
	}
	return ""
}

// refusedRejection stands for a refusal committed earlier, whose words
// are in the audit log.
func refusedRejection(seq uint64) *pb.Rejection {
	return &pb.Rejection{Seq: seq, Code: "refused", Message: "refused by the rules when it was committed; the board's audit log says why"}
}

// refusedSince returns the rejections of the device's events after last
// up to upTo that were committed refused: a device that lost the stream
// before their Ack learns they were not applied. If the store cannot say,
// it is an error (the stream ends and the device asks again), never a
// Welcome without the rejections, which would pass refused events off as
// applied.
func (s *Service) refusedSince(ctx context.Context, dev string, last, upTo uint64) ([]*pb.Rejection, error) {
	if upTo <= last || upTo == 0 {
		return nil, nil
	}
	stored, err := s.store.DeviceSeqsStored(ctx, dev, last+1, upTo)
	if err != nil {
		return nil, fmt.Errorf("device %s: which of its events %d to %d were refused: %w", dev, last+1, upTo, err)
	}
	var out []*pb.Rejection
	for seq := max(last+1, upTo-min(upTo, 9_999)); seq <= upTo && seq > 0; seq++ {
		if !stored[seq] {
			out = append(out, refusedRejection(seq))
		}
	}
	return out, nil
}

// ackAgain acknowledges an event committed before (by a stream that just
// died), with its rejection if it was refused. If the store cannot say
// which, the stream ends (the device resends and asks again): an Ack
// without the rejection would pass a refused event off as applied.
func (s *Service) ackAgain(ctx context.Context, l *link, seq uint64) error {
	stored, err := s.store.DeviceSeqsStored(ctx, l.dev, seq, seq)
	if err != nil {
		return fmt.Errorf("device %s: was its event %d applied or refused: %w", l.dev, seq, err)
	}
	var rej *pb.Rejection
	if !stored[seq] {
		rej = refusedRejection(seq)
	}
	l.sendHere(ack(seq, rej))
	return nil
}

func ack(upTo uint64, rej *pb.Rejection) *pb.ServerMessage {
	a := &pb.Ack{UpToSeq: upTo}
	if rej != nil {
		a.Rejected = []*pb.Rejection{rej}
	}
	return &pb.ServerMessage{Msg: &pb.ServerMessage_Ack{Ack: a}}
}

func (l *link) setAcked(seq uint64) { l.info.SetAcked(seq) }

// Send queues a message for the device (hall.DeviceLink).
func (l *link) Send(m *pb.ServerMessage) bool { return l.send(m) }

// Cut ends the link with cause (hall.DeviceLink).
func (l *link) Cut(cause error) { l.cancel(cause) }
