package hall

import (
	"context"
	"errors"
	"fmt"

	"github.com/chesshall/hallclock/internal/wire"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
	"github.com/chesshall/hallclock/storage"
)

// assignment builds what a device assigned to this board is told, with
// the board's history read from the store (every committed event up to
// b.seq: the actor runs this after its commits, so the store has them).
func (b *Board) assignment(ctx context.Context) (*pb.Assignment, error) {
	evs, err := b.h.store.Events(ctx, b.rec.ID, 0)
	if err != nil {
		return nil, fmt.Errorf("board %s: reading its history for the device: %w", b.rec.ID, err)
	}
	st := b.state.Project(b.now())
	// The board's identity in full (round and tournament ids, section,
	// table, the players as paired): the clock keeps it, and a hall
	// restored from a backup older than the board rebuilds it from that.
	a := &pb.Assignment{
		BoardId: b.rec.ID, BoardNumber: int32(b.rec.Number),
		White: PlayerWire(b.rec.White), Black: PlayerWire(b.rec.Black),
		Config:  wire.WireConfig(b.config()),
		State:   b.wireState(st, b.seq),
		RoundId: b.rec.RoundID, Section: b.rec.Section, Table: int32(b.rec.Table),
	}
	a.Round, a.Tournament = b.h.RoundInfo(b.rec.RoundID)
	if r, ok := b.h.Round(b.rec.RoundID); ok {
		a.TournamentId = r.TournamentID
	}
	a.History = make([]*pb.ClockAction, 0, len(evs))
	for _, e := range evs {
		if e.BoardSeq > b.seq {
			break
		}
		a.History = append(a.History, wire.Action(e.Event))
	}
	if st.Status == rules.Paused {
		if a.Pause, err = b.pauseNote(ctx, evs[:len(a.History)]); err != nil {
			return nil, err
		}
	}
	return a, nil
}

// pauseNote is why and by whom the paused board was paused: its last
// pause action, as recorded (a command's reason and who issued it; an
// arbiter's own action's actor), nil if a resumption came after it (the
// clock stopped otherwise, e.g. a claim setting flags aside) or there is
// none.
func (b *Board) pauseNote(ctx context.Context, evs []storage.EventRecord) (*pb.PauseNote, error) {
	for i := len(evs) - 1; i >= 0; i-- {
		e := evs[i]
		switch e.Event.Kind {
		case rules.KindResume:
			return nil, nil
		case rules.KindPause:
			n := &pb.PauseNote{Reason: e.Reason, IssuedBy: e.Actor}
			if e.CommandID != "" {
				c, err := b.h.store.Command(ctx, e.CommandID)
				switch {
				case err == nil:
					n.Reason, n.IssuedBy = c.Reason, c.IssuedBy
				case !errors.Is(err, storage.ErrNotFound):
					return nil, fmt.Errorf("board %s: reading the command that paused it: %w", b.rec.ID, err)
				}
			}
			return n, nil
		}
	}
	return nil, nil
}

// SendAssignment tells a connected device which board it keeps (with the
// board's history) and, on connect (withCommands), sends again the board's
// pending commands. A device that keeps no board is told so (an empty
// Assignment). From then on (and not before) the board's commands reach
// the device (toldLink): a command issued while a new session's Welcome
// is out but its board is not stays pending and follows the Assignment.
func (h *Hall) SendAssignment(ctx context.Context, dev string, withCommands bool) {
	l := h.link(dev)
	if l == nil {
		return
	}
	b := h.BoardOfDevice(dev)
	if b == nil {
		l.Send(&pb.ServerMessage{Msg: &pb.ServerMessage_Assignment{Assignment: &pb.Assignment{}}})
		h.assigned(l, dev)
		return
	}
	_ = b.do(ctx, func() {
		if b.rec.DeviceID != dev || b.rec.Source != storage.SourceDevice {
			l.Send(&pb.ServerMessage{Msg: &pb.ServerMessage_Assignment{Assignment: &pb.Assignment{}}})
			h.assigned(l, dev)
			return
		}
		a, err := b.assignment(ctx)
		if err != nil {
			// The device is told nothing it could act on: its stream is
			// cut, and it comes back (with backoff) for the whole story.
			h.log.Error("assignment not sent", "device", dev, "err", err)
			l.Cut(err)
			return
		}
		l.Send(&pb.ServerMessage{Msg: &pb.ServerMessage_Assignment{Assignment: a}})
		h.assigned(l, dev)
		if withCommands {
			for _, c := range b.pending {
				b.sendCommand(c)
			}
		}
	})
}
