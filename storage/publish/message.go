package publish

import (
	"fmt"

	"github.com/chesshall/hallclock/formats/hallstream"
	"github.com/chesshall/hallclock/rules"
	"github.com/chesshall/hallclock/storage"
)

// message is the stream's message for an outbox row.
func message(hall string, e storage.OutboxEntry) (hallstream.Message, error) {
	m := hallstream.Message{Hall: hall, Kind: e.Kind, ID: e.Ref}
	switch e.Kind {
	case storage.OutboxHall:
		m.Settings = &hallstream.Hall{}
		if e.Hall != nil {
			m.Settings = &hallstream.Hall{DelayMs: e.Hall.DelayMs, AllPublic: e.Hall.AllPublic}
		}
	case storage.OutboxTournament:
		m.Tournament = &hallstream.Tournament{ID: e.Ref}
		if t := e.Tournament; t != nil {
			m.Tournament = &hallstream.Tournament{ID: t.ID, Name: t.Name, TimeControl: t.TimeControl, Venue: t.Venue, CreatedUnixMs: t.Created.UnixMilli()}
		}
	case storage.OutboxRound:
		m.Round = &hallstream.Round{ID: e.Ref}
		if r := e.Round; r != nil {
			m.Round = &hallstream.Round{ID: r.ID, TournamentID: r.TournamentID, Number: r.Number, Venue: r.Venue, Public: e.RoundPublic, CreatedUnixMs: r.Created.UnixMilli()}
		}
	case storage.OutboxBoard:
		m.Board = &hallstream.Board{ID: e.Ref, Withdrawn: true}
		if b := e.Board; b != nil {
			// Who plays under the rules for visually disabled players is
			// the arbiters' to know, not the audience's: it changes how
			// no event is applied, so followers fold the log without it.
			cfg := b.Config
			cfg.Blind = rules.BlindPlay{}
			m.Board = &hallstream.Board{ID: b.ID, RoundID: b.RoundID, Number: b.Number, Section: b.Section,
				White: player(b.White), Black: player(b.Black), Config: cfg, TimeControl: b.TimeControl,
				Virtual: b.Source == storage.SourceVirtual, Table: b.Table, CreatedUnixMs: b.Created.UnixMilli()}
		}
	case storage.OutboxToken:
		m.Token = &hallstream.Token{ID: e.Ref, Revoked: true}
		if t := e.Token; t != nil {
			m.Token = &hallstream.Token{ID: t.ID, Hash: t.Hash, Revoked: !t.Active()}
		}
	case storage.OutboxEvent:
		ev := e.Event
		m.Kind = hallstream.KindEvent
		m.Event = &hallstream.Event{Seq: ev.Seq, BoardID: ev.BoardID, BoardSeq: ev.BoardSeq, Event: ev.Event,
			Actor: ev.Actor, CommandID: ev.CommandID, WallUnixMs: ev.Wall.UnixMilli()}
	default:
		return m, fmt.Errorf("publish: outbox row %d: unknown kind %q", e.ID, e.Kind)
	}
	return m, nil
}

func player(p storage.PlayerRecord) hallstream.Player {
	return hallstream.Player{Name: p.Name, FideID: p.FideID, Rating: p.Rating, Title: p.Title, Federation: p.Federation}
}
