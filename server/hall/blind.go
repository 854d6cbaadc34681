package hall

import (
	"context"
	"errors"
	"fmt"

	"github.com/chesshall/hallclock/formats/announce"
	"github.com/chesshall/hallclock/formats/words"
	"github.com/chesshall/hallclock/internal/wire"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
	"github.com/chesshall/hallclock/server/auth"
	"github.com/chesshall/hallclock/server/hallerr"
	"github.com/chesshall/hallclock/storage"
)

// Play with visually disabled players (FIDE 2018 and 2023 Appendix D,
// 2009 Appendix E) on a board: the arbiter sets who plays under it
// (SetBlind), and a player is told the moves and the time used at his
// request (Announce), by his talking clock or by the page that asked.

// SetBlind plays the board under the rules for visually disabled players
// as blind says (the zero value: no longer), on behalf of id. The rules
// judge it (rules.NewState); a refusal is audited and returned. The
// board's clock device is told (its Assignment carries the board's
// configuration: the language its voice speaks to the player). Nothing is
// done or audited when blind is what the board has.
func (b *Board) SetBlind(ctx context.Context, id *auth.Identity, blind rules.BlindPlay, reason string) error {
	var err error
	changed := false
	if derr := b.do(ctx, func() {
		if b.blind == blind {
			return
		}
		what := "blind_play " + blindText(blind)
		cfg := b.config()
		cfg.Blind = blind
		if _, err = rules.NewState(cfg); err != nil {
			m := blindRefused(err)
			werr := b.h.store.Write(ctx, func(tx *storage.Tx) error {
				return tx.AddAudit(&storage.AuditRecord{BoardID: b.rec.ID, Actor: id.Actor(), What: what, Reason: reason,
					Outcome: storage.OutcomeRefused(err.Error()), Kind: m.Kind, Params: m.Params})
			})
			if werr != nil {
				err = werr
			}
			return
		}
		err = b.h.store.Write(ctx, func(tx *storage.Tx) error {
			if err := tx.SetBoardBlind(b.rec.ID, blind); err != nil {
				return err
			}
			return tx.AddAudit(&storage.AuditRecord{BoardID: b.rec.ID, Actor: id.Actor(), What: what, Reason: reason,
				Outcome: storage.OutcomeApplied, Kind: "did.blind_play", Params: map[string]string{"settings": blindText(blind), "text": what}})
		})
		if err != nil {
			return
		}
		b.blind = blind
		b.state.Config.Blind = blind
		changed = true
	}); derr != nil {
		return derr
	}
	if err != nil {
		return err
	}
	if dev := b.rec.DeviceID; changed && dev != "" {
		b.h.SendAssignment(b.h.ctx, dev, false)
	}
	return nil
}

// blindText says a board's play under the appendix for the audit log:
// the short notation (rules.BlindPlay.String), or "none".
// blindRefused is the refusal of blind play settings the rules do not
// take: kind "refused.blind_play", the setting refused ("language" or
// "assistant") and its value (a side, a language tag) its parameters.
func blindRefused(err error) words.Message {
	setting, value := "settings", ""
	var in *rules.InputError
	if errors.As(err, &in) {
		value = in.Value
		switch in.What {
		case "announcement language":
			setting = "language"
		case "assistant":
			setting = "assistant"
		}
	}
	return words.Message{Kind: "refused.blind_play", Params: map[string]string{"event": "blind_play", "setting": setting, "value": value, "text": err.Error()}}
}

func blindText(b rules.BlindPlay) string {
	if s := b.String(); s != "" {
		return s
	}
	return "none"
}

// Announce tells side's player, at his request through id (his assistant,
// or an arbiter), the completed moves and the time used by both players
// as the board stands now (2018 D.2.6.1, D.2.10.4). The rules judge who
// may be told (rules.MayAnnounce): a visually disabled player, and through
// an assistant only his own. The words are built in the player's language
// where the voice that says them speaks it: the board's talking clock
// when one is connected (they are sent to it), else the page that asked,
// whose speech synthesis speaks every language of formats/announce. The
// request and the words are audited, a refusal too. Nothing of the
// board's clock changes.
func (b *Board) Announce(ctx context.Context, id *auth.Identity, side rules.Side, reason string) (*pb.AnnounceResponse, error) {
	if id.Role == auth.RoleAssistant && id.Side != side.String() {
		return nil, fmt.Errorf("%w: %s assists %s and may ask for %s's announcements only", hallerr.ErrPermission, id.Actor(), id.Side, id.Side)
	}
	var resp *pb.AnnounceResponse
	var err error
	if derr := b.do(ctx, func() { resp, err = b.announce(ctx, id, side, reason) }); derr != nil {
		return nil, derr
	}
	return resp, err
}

// announce is Announce on the actor.
func (b *Board) announce(ctx context.Context, id *auth.Identity, side rules.Side, reason string) (*pb.AnnounceResponse, error) {
	audit := func(what, outcome string, m words.Message) error {
		return b.h.store.Write(ctx, func(tx *storage.Tx) error {
			return tx.AddAudit(&storage.AuditRecord{BoardID: b.rec.ID, Actor: id.Actor(), What: what, Reason: reason, Outcome: outcome,
				Kind: m.Kind, Params: m.Params})
		})
	}
	if err := rules.MayAnnounce(b.config(), side, id.Role == auth.RoleAssistant); err != nil {
		if werr := audit("announce to "+side.String(), storage.OutcomeRefused(err.Error()), words.Refused("announcement", err)); werr != nil {
			return nil, werr
		}
		return nil, err
	}
	resp := &pb.AnnounceResponse{}
	var l DeviceLink
	switch dev := b.rec.DeviceID; {
	case b.rec.Source == storage.SourceVirtual:
		resp.Note = "the board keeps a virtual clock, which has no voice"
	case dev == "":
		resp.Note = "the board has no clock device"
	default:
		talking, voices := b.h.Voice(dev)
		switch {
		case b.h.toldLink(dev) == nil:
			resp.Note = "the clock " + dev + " is not connected"
		case !talking:
			resp.Note = "the clock " + dev + " is not a talking clock"
		default:
			l, resp.DeviceId = b.h.toldLink(dev), dev
			resp.Announce = wire.Announce(b.state.Project(b.now()), side, voices)
		}
	}
	if resp.Announce == nil {
		// The page that asked says them: a browser's speech synthesis
		// speaks every language the words are written in.
		resp.Announce = wire.Announce(b.state.Project(b.now()), side, announce.Languages)
	}
	a := resp.Announce
	a.AnnounceId, a.BoardId, a.RequestedBy = b.h.NewID("ann"), b.rec.ID, id.Actor()
	if l != nil {
		if resp.Sent = l.Send(&pb.ServerMessage{Msg: &pb.ServerMessage_Announce{Announce: a}}); !resp.Sent {
			resp.Note, resp.DeviceId = "the clock "+resp.DeviceId+" went away before it could be told", ""
		}
	}
	by := "the words only: " + resp.Note
	if resp.Sent {
		by = "said by the clock " + resp.DeviceId
	}
	what := fmt.Sprintf("announce to %s (%s, %s): %q", side, a.GetLanguage(), by, a.GetText())
	if err := audit(what, storage.OutcomeApplied, words.Message{}); err != nil {
		return nil, err
	}
	return resp, nil
}
