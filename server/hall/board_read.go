package hall

import (
	"context"

	"github.com/chesshall/hallclock/internal/wire"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
	"github.com/chesshall/hallclock/storage"
)

// What others read of a board. The record's identity (id, round, section,
// number, players, configuration, table) never changes once the board is
// made and is read anywhere; what changes (its device, its source, its
// play under the rules for visually disabled players, its state) is read
// on the actor.

// ID is the board's id.
func (b *Board) ID() string { return b.rec.ID }

// RoundID is the id of the board's round.
func (b *Board) RoundID() string { return b.rec.RoundID }

// Section is the board's section ("" none).
func (b *Board) Section() string { return b.rec.Section }

// Number is the board's number in its section.
func (b *Board) Number() int { return b.rec.Number }

// Record returns the board's record as it is now (its device and source
// included).
func (b *Board) Record(ctx context.Context) (storage.BoardRecord, error) {
	var rec storage.BoardRecord
	err := b.do(ctx, func() { rec = b.rec; rec.Config = b.config() })
	return rec, err
}

// Game returns the board's record and its state now (a running clock
// projected to this moment: a flag that has fallen by now is down).
func (b *Board) Game(ctx context.Context) (storage.BoardRecord, rules.State, error) {
	var rec storage.BoardRecord
	var st rules.State
	err := b.do(ctx, func() { rec, st = b.rec, b.state.Project(b.now()); rec.Config = b.config() })
	return rec, st, err
}

// Started reports whether the board's game has begun: an event committed,
// or an arbiter's command on its way.
func (b *Board) Started(ctx context.Context) (bool, error) {
	var started bool
	err := b.do(ctx, func() { started = b.seq > 0 || len(b.pending) > 0 })
	return started, err
}

// Wire returns the board for the contract: its record, its live state
// (projected to now) and its pending commands.
func (b *Board) Wire(ctx context.Context) (*pb.Board, error) {
	var out *pb.Board
	number, tournament := b.h.RoundInfo(b.rec.RoundID)
	err := b.do(ctx, func() {
		out = &pb.Board{
			BoardId: b.rec.ID, RoundId: b.rec.RoundID, Number: int32(b.rec.Number), Section: b.rec.Section,
			White: PlayerWire(b.rec.White), Black: PlayerWire(b.rec.Black), DeviceId: b.rec.DeviceID,
			Config:          wire.WireConfig(b.config()),
			State:           b.wireState(b.state.Project(b.now()), b.seq),
			TimeControlInfo: ConfigInfo(b.rec.Config),
			RoundNumber:     number, TournamentName: tournament, Table: int32(b.rec.Table),
		}
		for _, c := range b.pending {
			out.Pending = append(out.Pending, &pb.PendingCommand{CommandId: c.rec.ID, Action: c.action, Reason: c.rec.Reason,
				IssuedBy: c.rec.IssuedBy, IssuedUnixMs: c.rec.Issued.UnixMilli(), DeviceOnline: b.online})
		}
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// PlayerWire is a stored player for the contract.
func PlayerWire(p storage.PlayerRecord) *pb.Player {
	return &pb.Player{Name: p.Name, FideId: p.FideID, Rating: int32(p.Rating), StartRank: int32(p.StartRank), Title: p.Title, Federation: p.Federation}
}

// PlayerRecord is a player of the contract as stored.
func PlayerRecord(p *pb.Player) storage.PlayerRecord {
	return storage.PlayerRecord{Name: p.GetName(), FideID: p.GetFideId(), Rating: int(p.GetRating()),
		StartRank: int(p.GetStartRank()), Title: p.GetTitle(), Federation: p.GetFederation()}
}
