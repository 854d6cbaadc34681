package hall

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/chesshall/hallclock/formats/words"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/server/hallerr"
	"github.com/chesshall/hallclock/storage"
)

// A device's session: the one door of every clock, whatever carries its
// messages (the gRPC stream of server/link; a WebSocket). Open reads what
// the hall acknowledged of the device, follows a clock that knows more
// than a restored hall (Restore), welcomes it with the refusals it may
// have missed, registers it and sends it its board. Each event then goes
// through Event: a duplicate is acknowledged again, a gap is an error
// that ends the stream naming the number to resend from, numbers lost in
// a restore are skipped and audited, and the next event goes to its
// board's actor (or is refused off any board) and is acknowledged once
// committed. The transport keeps only the stream: a receive loop, a send
// loop, heartbeats and silence.

// DeviceLink is a connected clock's transport as the hall reaches it.
type DeviceLink interface {
	// Send queues a message for the device, from any goroutine; false if
	// it is gone (or could not take it: then the link is cut).
	Send(m *pb.ServerMessage) bool
	// Reply queues the answer (an Ack) to the message being handled, on
	// the goroutine that handles it (the one calling Session.Event or
	// Session.Handle), so that an acknowledgement is not handed to
	// another goroutine to be sent. It keeps the order of Send.
	Reply(m *pb.ServerMessage) bool
	// Cut ends the link, with why.
	Cut(cause error)
}

// Session is one connected device's session. Its Event and Handle run on
// one goroutine at a time (the transport's loop that applies events in
// order); Heartbeat may run on another (it touches only the device's
// record).
type Session struct {
	h    *Hall
	dev  string
	out  DeviceLink
	info *Device // what the hall last heard from the device
	// acked is the highest seq committed (refused or applied); expect
	// the next seq the device may send.
	acked, expect uint64
	// claimed is the highest seq the device says the hall acknowledged
	// (Hello): above acked, the hall lost events (a restore from an older
	// backup), and numbers up to it the device no longer holds are skipped.
	claimed uint64
	// restored says, when the hall lost events of the device, where its
	// resent events (seq up to claimed) go: the boards they were recorded
	// on (Restore). nil otherwise.
	restored *Restored
}

// SessionStats count what became of the devices' events since the hall
// started.
type SessionStats struct {
	Applied    uint64 // device events applied and committed
	Rejected   uint64 // device events refused (committed to the audit log)
	Duplicates uint64 // device events dropped as already received, acknowledged again
	Gaps       uint64 // streams ended because a sequence number was skipped
}

type sessionCounters struct {
	applied, rejected, duplicates, gaps atomic.Uint64
}

// SessionStats returns a snapshot of the sessions' counters.
func (h *Hall) SessionStats() SessionStats {
	c := &h.sessions
	return SessionStats{Applied: c.applied.Load(), Rejected: c.rejected.Load(), Duplicates: c.duplicates.Load(), Gaps: c.gaps.Load()}
}

// Open begins device dev's session after its Hello (the transport has
// checked that the device's token speaks for dev): out is the transport,
// beatEvery the heartbeat interval to name. The Welcome (returned for the
// transport's log; it is already queued on out) is the first message out
// carries: the session is registered after it, so nothing (an assignment,
// a command) reaches the device before it. Then a board the Hello names
// that the device does not keep is refused, and the device is sent its
// assignment, then its board's pending commands: a command issued before
// the assignment is out waits for it (toldLink). An error (the store failed) means the device comes back;
// nothing was registered.
func (h *Hall) Open(ctx context.Context, dev string, hello *pb.Hello, out DeviceLink, beatEvery time.Duration) (*Session, *pb.Welcome, error) {
	acked, err := h.store.DeviceAcked(ctx, dev)
	if err != nil {
		return nil, nil, err
	}
	s := &Session{h: h, dev: dev, out: out, acked: acked, expect: acked + 1, claimed: hello.GetLastAckedSeq()}
	if s.claimed > acked {
		h.log.Warn("a device holds acknowledgements the hall lost (restored from an older backup?): asking it to resend",
			"device", dev, "hall_acked", acked, "device_acked", s.claimed)
		// Before the device is told its board: the hall follows the clock
		// (the board it keeps now, rebuilt if the backup is older than it),
		// not the backup, and learns where its resent events go.
		if s.restored, err = h.Restore(ctx, dev, hello, acked); err != nil {
			return nil, nil, err
		}
	}
	refused, err := h.refusedSince(ctx, dev, hello.GetLastAckedSeq(), min(acked, hello.GetNextSeq()-1))
	if err != nil {
		return nil, nil, err
	}
	w := &pb.Welcome{AckedSeq: acked, HeartbeatIntervalMs: beatEvery.Milliseconds(), Rejected: refused}
	out.Send(&pb.ServerMessage{Msg: &pb.ServerMessage_Welcome{Welcome: w}})
	s.info = h.attach(out, dev, hello, acked)
	if s.restored == nil {
		h.refuseHelloClaim(ctx, dev, hello)
	}
	if s.restored == nil || s.restored.Unknown == "" {
		h.SendAssignment(ctx, dev, true)
	}
	return s, w, nil
}

// Close ends the session: the device is offline unless a newer session of
// it replaced this one.
func (s *Session) Close() { s.h.detach(s.out, s.dev) }

// Device is the device's id.
func (s *Session) Device() string { return s.dev }

// Heartbeat records the device's telemetry and board time. It allocates
// nothing and waits for nothing: a transport calls it as the heartbeat
// arrives, even while an event of the device waits for its commit.
func (s *Session) Heartbeat(hb *pb.Heartbeat) { s.h.heartbeat(s.info, hb) }

// Handle handles one message of the device after its Hello: a heartbeat,
// or an event (Event). An error ends the stream, with the status to
// give.
func (s *Session) Handle(ctx context.Context, m *pb.DeviceMessage) error {
	switch msg := m.GetMsg().(type) {
	case *pb.DeviceMessage_Heartbeat:
		s.Heartbeat(msg.Heartbeat)
		return nil
	case *pb.DeviceMessage_Hello:
		return hallerr.BadRequest("Hello may only be the first message of a stream")
	case *pb.DeviceMessage_Event:
		return s.Event(ctx, msg.Event)
	}
	return hallerr.BadRequest("empty device message")
}

// Event handles one device event: a duplicate is acknowledged again, a
// gap is an error (the stream ends naming the sequence number to resend
// from), and the next expected event is checked once, goes to its board's
// actor — or, reaching no board, is refused — and is acknowledged (Reply)
// once committed.
func (s *Session) Event(ctx context.Context, ev *pb.DeviceEvent) error {
	seq := ev.GetSeq()
	switch {
	case seq == 0:
		return hallerr.BadRequest("device event without a sequence number (they start at 1)")
	case seq < s.expect:
		s.h.sessions.duplicates.Add(1)
		s.out.Reply(ack(s.acked, nil))
		return nil
	case seq > s.expect && seq <= s.claimed+1:
		// The hall acknowledged these once and lost them (a restore); the
		// device resends what it holds and no longer has the rest.
		if err := s.skipLost(ctx, seq-1); err != nil {
			return err
		}
	case seq > s.expect:
		s.h.sessions.gaps.Add(1)
		return fmt.Errorf("%w from device %s: got %d, expected %d; resend from %d", hallerr.ErrSequenceGap, s.dev, seq, s.expect, s.expect)
	}
	var (
		rejected *pb.Rejection
		err      error
		onBoard  bool
	)
	if verr := ev.ValidateContent(); verr != nil {
		rejected, err = s.refuseOffBoard(ctx, ev, "invalid", verr.Error())
	} else if b, berr := s.h.Board(ev.GetBoardId()); berr != nil {
		rejected, err = s.refuseOffBoard(ctx, ev, "unknown_board", berr.Error())
	} else {
		// Acknowledged before a restore, on the board it names: taken
		// there, whether or not the device keeps that board now.
		resent := seq <= s.claimed && s.restored.Takes(ev.GetBoardId())
		rejected, err = b.apply(ctx, s.dev, ev, resent)
		onBoard = true
	}
	if errors.Is(err, storage.ErrDuplicate) {
		// Committed before (e.g. by a stream that just died): acknowledge.
		s.h.sessions.duplicates.Add(1)
		s.committed(seq)
		return s.ackAgain(ctx, seq)
	}
	if err != nil {
		return err
	}
	s.committed(seq)
	if rejected != nil {
		s.h.sessions.rejected.Add(1)
	} else {
		s.h.sessions.applied.Add(1)
	}
	s.out.Reply(ack(seq, rejected))
	if rejected != nil && onBoard {
		// The device's own rules accepted what ours refused: resend the
		// board so it can resynchronise.
		s.h.SendAssignment(ctx, s.dev, false)
	}
	return nil
}

// committed records that the device's events up to seq are committed.
func (s *Session) committed(seq uint64) {
	s.expect, s.acked = seq+1, seq
	s.info.setAcked(seq)
}

// skipLost records that the device's events s.expect..upTo, which the
// hall acknowledged before a restore from an older backup, are lost: the
// device no longer holds them. It is audited (on the device's board) and
// the device's numbering goes on after them.
func (s *Session) skipLost(ctx context.Context, upTo uint64) error {
	from := s.expect
	// The events lost are the oldest the device recorded after the
	// backup: most likely of the board the backup gave it.
	board := ""
	if s.restored != nil {
		board = s.restored.KeptAtBackup
	} else if b := s.h.BoardOfDevice(s.dev); b != nil {
		board = b.ID()
	}
	msg := fmt.Sprintf("device %s's events %d to %d were acknowledged before the hall was restored from an older backup, and the device no longer holds them: lost", s.dev, from, upTo)
	err := s.h.store.Write(ctx, func(tx *storage.Tx) error {
		if err := tx.SkipDeviceSeqs(s.dev, upTo); err != nil {
			return err
		}
		return tx.AddAudit(&storage.AuditRecord{BoardID: board, Actor: "server", What: "events lost in a restore",
			Outcome: storage.OutcomeAlert(msg), Kind: "alert.restore_lost",
			Params: map[string]string{"device": s.dev, "from": strconv.FormatUint(from, 10), "to": strconv.FormatUint(upTo, 10), "text": msg}})
	})
	if err != nil {
		return err
	}
	s.h.log.Warn("events lost in a restore", "device", s.dev, "from", from, "to", upTo)
	s.committed(upTo)
	return nil
}

// refuseOffBoard refuses an event that reaches no board (malformed, or for
// a board that does not exist): committed (writeRefusal) to the audit log
// of the board a person would look at (offBoardAudit), so the device
// moves on.
func (s *Session) refuseOffBoard(ctx context.Context, ev *pb.DeviceEvent, code, msg string) (*pb.Rejection, error) {
	m := words.RefusedCode(code, "", msg, "device", s.dev, "board", ev.GetBoardId())
	if err := s.h.writeRefusal(ctx, s.offBoardAudit(ev.GetBoardId()), s.dev, ev, msg, m, nil, ""); err != nil {
		return nil, err
	}
	return &pb.Rejection{Seq: ev.GetSeq(), Code: code, Message: msg}, nil
}

// offBoardAudit is the board whose audit log tells why a device's event
// that reached no board was refused (the Welcome of a device that missed
// the Ack sends it there): the board whose clock the device keeps, else
// the board the event names if there is one, else none (the hall's log).
func (s *Session) offBoardAudit(named string) string {
	if b := s.h.BoardOfDevice(s.dev); b != nil {
		return b.ID()
	}
	if b, err := s.h.Board(named); err == nil {
		return b.ID()
	}
	return ""
}

// writeRefusal is the one writer of a device event's refusal: the
// device's sequence number acknowledged, the command it carried out
// resolved refused (cmd, if the hall knows it), and the refusal in the
// audit log of board ("" the hall's), in one transaction. It fails with
// storage.ErrDuplicate if the event was committed before.
func (h *Hall) writeRefusal(ctx context.Context, board, dev string, ev *pb.DeviceEvent, msg string, m words.Message, cmd *command, cmdID string) error {
	return h.store.Write(ctx, func(tx *storage.Tx) error {
		if err := tx.AckDevice(dev, ev.GetSeq()); err != nil {
			return err
		}
		if cmd != nil {
			if err := tx.ResolveCommand(cmd.rec.ID, storage.CommandRefused, msg); err != nil {
				return err
			}
		}
		return tx.AddAudit(&storage.AuditRecord{BoardID: board, Actor: "device:" + dev, What: ActionText(ev.GetAction()),
			Outcome: storage.OutcomeRefused(msg), Action: ActionJSON(ev.GetAction()), CommandID: cmdID, Kind: m.Kind, Params: m.Params})
	})
}

// refuseHelloClaim refuses the board a Hello names if the device does not
// keep it (reassigned while it was away, or claiming another's board): the
// claim changes nothing, is logged and audited on the named board, and the
// Assignment that follows tells the device what it keeps. The session goes
// on, so a device that missed a reassignment is never locked out.
func (h *Hall) refuseHelloClaim(ctx context.Context, dev string, hello *pb.Hello) {
	named := hello.GetClock().GetBoardId()
	if named == "" {
		return
	}
	_, keeps := h.DeviceState(dev)
	if named == keeps {
		return
	}
	_, err := h.Board(named)
	msg := fmt.Sprintf("device %s's Hello names board %s, which it does not keep (it keeps %q): refused, the device is sent its assignment", dev, named, keeps)
	h.log.Warn("hello names a board the device does not keep", "device", dev, "named", named, "keeps", keeps)
	if err != nil {
		return
	}
	_ = h.store.Write(ctx, func(tx *storage.Tx) error {
		return tx.AddAudit(&storage.AuditRecord{BoardID: named, Actor: "device:" + dev, What: "hello names this board",
			Outcome: storage.OutcomeRefused(msg), Kind: "refused.hello_board", Params: map[string]string{"device": dev, "board": named, "keeps": keeps, "text": msg}})
	})
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
func (h *Hall) refusedSince(ctx context.Context, dev string, last, upTo uint64) ([]*pb.Rejection, error) {
	if upTo <= last || upTo == 0 {
		return nil, nil
	}
	stored, err := h.store.DeviceSeqsStored(ctx, dev, last+1, upTo)
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
// which, it is an error (the stream ends, the device resends and asks
// again): an Ack without the rejection would pass a refused event off as
// applied.
func (s *Session) ackAgain(ctx context.Context, seq uint64) error {
	stored, err := s.h.store.DeviceSeqsStored(ctx, s.dev, seq, seq)
	if err != nil {
		return fmt.Errorf("device %s: was its event %d applied or refused: %w", s.dev, seq, err)
	}
	var rej *pb.Rejection
	if !stored[seq] {
		rej = refusedRejection(seq)
	}
	s.out.Reply(ack(seq, rej))
	return nil
}

func ack(upTo uint64, rej *pb.Rejection) *pb.ServerMessage {
	a := &pb.Ack{UpToSeq: upTo}
	if rej != nil {
		a.Rejected = []*pb.Rejection{rej}
	}
	return &pb.ServerMessage{Msg: &pb.ServerMessage_Ack{Ack: a}}
}
