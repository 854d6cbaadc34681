package hall

import (
	"context"
	"fmt"

	"google.golang.org/protobuf/encoding/protojson"

	"github.com/chesshall/hallclock/formats/words"
	"github.com/chesshall/hallclock/internal/wire"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
	"github.com/chesshall/hallclock/server/auth"
	"github.com/chesshall/hallclock/server/hallerr"
	"github.com/chesshall/hallclock/storage"
)

// command is an arbiter command on its way through the board's clock.
type command struct {
	rec     storage.CommandRecord
	action  *pb.ClockAction
	event   rules.Event // as validated, with ByArbiter
	waiters []chan commandResult
	// restored: the hall lost the command with a restore from an older
	// backup, and has it back from the clock's record (restoredCommand):
	// it is stored with the event that carried it out.
	restored bool
}

type commandResult struct {
	status  pb.CommandStatus
	message string
	words   words.Message // why it was refused, for people
	sent    bool          // pending: the device is online and has it
}

func (b *Board) findCommand(id string) *command {
	if id == "" {
		return nil
	}
	for _, c := range b.pending {
		if c.rec.ID == id {
			return c
		}
	}
	return nil
}

func (b *Board) resolve(c *command, r commandResult) {
	b.pending = without(b.pending, c)
	for _, w := range c.waiters {
		w <- r
	}
	c.waiters = nil
}

func without(cs []*command, c *command) []*command {
	out := make([]*command, 0, len(cs))
	for _, x := range cs {
		if x != c {
			out = append(out, x)
		}
	}
	return out
}

// submit handles an arbiter's action: checked against the rules at once,
// then applied directly (virtual clock) or sent to the device as a command.
// It runs on the actor and returns the command, which the caller may wait on.
func (b *Board) submit(ctx context.Context, id *auth.Identity, a *pb.ClockAction, reason string) (*command, commandResult, error) {
	e, err := wire.Event(a, true)
	if err != nil {
		return nil, commandResult{}, err
	}
	what := ActionText(a)
	probe := e
	probe.T = b.now()
	perr := b.assistantMay(id, probe)
	var next rules.State
	if perr == nil {
		next, perr = rules.Apply(b.state, probe)
	}
	if perr != nil {
		msg := perr.Error()
		m := words.Refused(probe.Kind.String(), perr)
		werr := b.h.store.Write(ctx, func(tx *storage.Tx) error {
			return tx.AddAudit(&storage.AuditRecord{BoardID: b.rec.ID, Actor: id.Actor(), What: what, Reason: reason,
				Outcome: storage.OutcomeRefused(msg), Action: ActionJSON(a), Kind: m.Kind, Params: m.Params})
		})
		if werr != nil {
			return nil, commandResult{}, werr
		}
		return nil, commandResult{status: pb.CommandStatus_COMMAND_STATUS_REFUSED, message: msg, words: m}, perr
	}
	if b.rec.Source == storage.SourceVirtual {
		if err := b.commit(ctx, change{next: next, event: probe, actor: id.Actor(), reason: reason}); err != nil {
			return nil, commandResult{}, err
		}
		b.setRef(probe.T)
		return nil, commandResult{status: pb.CommandStatus_COMMAND_STATUS_APPLIED}, nil
	}
	if b.rec.DeviceID == "" {
		if e.Kind == rules.KindResult {
			return b.scoresheetResult(ctx, id, a, probe, next, reason)
		}
		return nil, commandResult{}, fmt.Errorf("%w: board %s has no clock device; assign one or use a virtual clock (a result from the scoresheet needs neither)", hallerr.ErrNoDevice, b.rec.ID)
	}
	c := &command{action: wire.Action(e), event: e}
	c.action.TMs = 0
	c.rec = storage.CommandRecord{ID: b.h.NewID("cmd"), BoardID: b.rec.ID, Action: ActionJSON(c.action),
		Reason: reason, IssuedBy: id.Actor(), Issued: b.h.clock.Now(), Status: storage.CommandPending}
	err = b.h.store.Write(ctx, func(tx *storage.Tx) error {
		if err := tx.PutCommand(&c.rec); err != nil {
			return err
		}
		return tx.AddAudit(&storage.AuditRecord{BoardID: b.rec.ID, Actor: id.Actor(), What: what, Reason: reason,
			Outcome: storage.OutcomePending, Action: c.rec.Action, CommandID: c.rec.ID})
	})
	if err != nil {
		return nil, commandResult{}, err
	}
	b.pending = append(b.pending, c)
	b.h.commands.Add(1)
	res := commandResult{status: pb.CommandStatus_COMMAND_STATUS_PENDING, message: "sent to device " + b.rec.DeviceID, sent: true}
	if !b.sendCommand(c) {
		res.message, res.sent = "waiting for device "+b.rec.DeviceID+" to come back online", false
	}
	b.publishLive()
	return c, res, nil
}

// scoresheetNote is how the audit log names a result an arbiter entered
// on a board that has no clock.
const scoresheetNote = "result from the scoresheet, no clock"

// scoresheetResult records the result of a board that has no clock (none
// was assigned, or its clock left it): nothing can carry it out, so it is
// applied at once, as on a virtual clock, and audited as the scoresheet's.
func (b *Board) scoresheetResult(ctx context.Context, id *auth.Identity, a *pb.ClockAction, e rules.Event, next rules.State, reason string) (*command, commandResult, error) {
	if err := b.commit(ctx, change{next: next, event: e, actor: id.Actor(), reason: reason, note: ActionText(a) + ": " + scoresheetNote}); err != nil {
		return nil, commandResult{}, err
	}
	return nil, commandResult{status: pb.CommandStatus_COMMAND_STATUS_APPLIED, message: scoresheetNote}, nil
}

// assistantMay checks, for an assistant's action, that the Laws let the
// assistant of his player do it now (rules.AssistantMay: FIDE 2018
// D.2.10, 2009 E2.9); the rules then judge it as the player's own. It is
// nil for everyone else, whose role the door checked.
func (b *Board) assistantMay(id *auth.Identity, e rules.Event) error {
	if id.Role != auth.RoleAssistant {
		return nil
	}
	side, err := rules.ParseSide(id.Side)
	if err != nil {
		return fmt.Errorf("%w: the assistant's token names no player (%q)", hallerr.ErrPermission, id.Side)
	}
	return rules.AssistantMay(b.state, side, e)
}

// sendCommand sends a command to the board's device if it is connected
// and was sent its board: a command never reaches a clock ahead of its
// Assignment (it would refuse it for want of a board, and not take it
// again when it comes with the Assignment).
func (b *Board) sendCommand(c *command) bool {
	l := b.h.toldLink(b.rec.DeviceID)
	if l == nil {
		return false
	}
	return l.Send(&pb.ServerMessage{Msg: &pb.ServerMessage_Command{Command: &pb.Command{
		CommandId: c.rec.ID, Action: c.action, Reason: c.rec.Reason, IssuedBy: c.rec.IssuedBy}}})
}

// commandFromRecord rebuilds a pending command after a restart.
func commandFromRecord(r storage.CommandRecord) (*command, error) {
	var act pb.ClockAction
	if err := protojson.Unmarshal(r.Action, &act); err != nil {
		return nil, err
	}
	e, err := wire.Event(&act, true)
	if err != nil {
		return nil, err
	}
	return &command{rec: r, action: &act, event: e}, nil
}
