package hall

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/chesshall/hallclock/formats/words"
	"github.com/chesshall/hallclock/internal/wire"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
	"github.com/chesshall/hallclock/storage"
)

// After a restore from an older backup.
//
// A restored hall knows the hall as the backup held it; its clocks know
// what happened since. A clock that holds acknowledged events the hall
// lacks says so in its Hello (last_acked_seq above what the hall has of
// it), with the records of the boards whose events it holds (Hello.boards:
// each as the hall assigned it) and the board it keeps now (Hello.clock).
// The hall then follows the clock, not the backup (Restore):
//
//   - a board it does not know (paired after the backup) is rebuilt from
//     the clock's record, in its round — rebuilt too, and marked so
//     (RoundRecord.Rebuilt) — and its tournament if that is unknown too;
//   - the clock keeps the board it says it keeps; the board the backup
//     gave it, which it has left, is not handed back to it (a game that
//     ended after the backup is not run on to a flag fall);
//   - its resent events go to the boards they were recorded on
//     (Restored.Takes, Session.Event), an arbiter's ruling the hall
//     lost with its command taken from the clock's record of it.
//
// What cannot be rebuilt is said in the audit log, with why.

// Restored is what a hall restored from an older backup learned from a
// clock's Hello: where the clock's resent events may go.
type Restored struct {
	boards map[string]bool
	// KeptAtBackup is the board the backup gave the clock ("" none).
	KeptAtBackup string
	// Unknown is the board the clock keeps, which the hall neither knows
	// nor could rebuild ("" if none): the clock is left to keep it (it is
	// sent no assignment) and its events there are refused, audited.
	Unknown string
}

// Takes reports whether the clock's resent events may go to board: a
// board it holds events of, known to the hall or rebuilt.
func (r *Restored) Takes(board string) bool { return r != nil && r.boards[board] }

// Restore follows a clock that holds events the hall acknowledged before
// it was restored from an older backup (see above), before the clock is
// told its board and resends them; acked is what the hall has of it. It
// returns an error only if the store failed: the clock's link ends and
// the clock comes back.
func (h *Hall) Restore(ctx context.Context, dev string, hello *pb.Hello, acked uint64) (*Restored, error) {
	h.restoreMu.Lock()
	defer h.restoreMu.Unlock()
	res := &Restored{boards: map[string]bool{}}
	_, res.KeptAtBackup = h.DeviceState(dev)
	// Every gap is on record from the start: what the clock resends is
	// stored on its boards, what it no longer holds is audited as lost
	// when its numbering passes it.
	err := h.store.Write(ctx, func(tx *storage.Tx) error {
		alert := fmt.Sprintf("the hall was restored from a backup older than device %s's events %d to %d, which it had acknowledged: the clock resends those it holds, each to the board it recorded it on",
			dev, acked+1, hello.GetLastAckedSeq())
		return tx.AddAudit(&storage.AuditRecord{BoardID: res.KeptAtBackup, Actor: "server", What: "events asked of a clock after a restore",
			Outcome: storage.OutcomeAlert(alert), Kind: "alert.restore_asked",
			Params: map[string]string{"device": dev, "from": strconv.FormatUint(acked+1, 10), "to": strconv.FormatUint(hello.GetLastAckedSeq(), 10), "text": alert}})
	})
	if err != nil {
		return nil, err
	}
	recs := hello.GetBoards()
	// Oldest first: rounds are rebuilt in the order they were played.
	for i := len(recs) - 1; i >= 0; i-- {
		a := recs[i]
		if err := a.ValidateHeld(); err != nil {
			why := fmt.Sprintf("device %s's record of board %q cannot be used (%v): the board is not rebuilt from it", dev, a.GetBoardId(), err)
			if err := h.auditHall(ctx, "device:"+dev, "a clock's record of a board after a restore", storage.OutcomeRefused(why),
				words.Message{Kind: "refused.restore_record", Params: map[string]string{"device": dev, "board": a.GetBoardId(), "text": why}}); err != nil {
				return nil, err
			}
			continue
		}
		if _, err := h.Board(a.GetBoardId()); err == nil {
			res.boards[a.GetBoardId()] = true
			continue
		}
		err := h.rebuildBoard(ctx, dev, a)
		var refused rebuildRefused
		if errors.As(err, &refused) {
			if err := h.auditHall(ctx, "server", fmt.Sprintf("rebuild board %s after a restore", a.GetBoardId()), storage.OutcomeRefused(refused.Error()),
				words.Message{Kind: "refused.restore_rebuild", Params: map[string]string{"device": dev, "board": a.GetBoardId(), "text": refused.Error()}}); err != nil {
				return nil, err
			}
			continue
		}
		if err != nil {
			return nil, err
		}
		res.boards[a.GetBoardId()] = true
	}
	keeps := hello.GetClock().GetBoardId()
	switch {
	case keeps == res.KeptAtBackup:
	case keeps == "":
		return res, h.releaseAfterRestore(ctx, dev, res.KeptAtBackup, "it keeps no board now")
	default:
		if _, err := h.Board(keeps); err != nil {
			res.Unknown = keeps
			alert := fmt.Sprintf("device %s keeps board %s, which the restored hall does not know and could not rebuild (the clock holds no usable record of it): the clock keeps its board, its events there are refused; pair the board again and assign the device", dev, keeps)
			if err := h.auditHall(ctx, "device:"+dev, "a clock's board after a restore", storage.OutcomeAlert(alert),
				words.Message{Kind: "alert.restore_unknown_board", Params: map[string]string{"device": dev, "board": keeps, "text": alert}}); err != nil {
				return nil, err
			}
			return res, h.releaseAfterRestore(ctx, dev, res.KeptAtBackup, fmt.Sprintf("it keeps board %s now, unknown to the restored hall", keeps))
		}
		if err := h.followClock(ctx, dev, keeps, res.KeptAtBackup); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// rebuildRefused is a board a clock's record cannot rebuild: said in the
// audit log, the clock is not refused for it.
type rebuildRefused struct{ msg string }

func (r rebuildRefused) Error() string { return r.msg }

// rebuildBoard makes a board the restored hall does not know from a
// clock's record of it: its tournament and round as well, if they are
// unknown too. The round is marked rebuilt; every step is audited.
func (h *Hall) rebuildBoard(ctx context.Context, dev string, a *pb.Assignment) error {
	cfg, err := wire.Config(a.GetConfig())
	if err == nil {
		_, err = rules.NewState(cfg)
	}
	if err != nil {
		return rebuildRefused{fmt.Sprintf("device %s's record of board %s has a configuration the rules refuse (%v): the board is not rebuilt", dev, a.GetBoardId(), err)}
	}
	t, newT := h.rebuildTournament(a, cfg)
	r, newR := storage.RoundRecord{}, false
	if a.GetRoundId() != "" {
		if known, ok := h.Round(a.GetRoundId()); ok {
			r = known
		}
	}
	if r.ID == "" {
		if known, ok := h.RoundByNumber(t.ID, int(a.GetRound())); ok {
			r = known
		}
	}
	if r.ID == "" {
		newR = true
		rc := cfg
		rc.Blind = rules.BlindPlay{} // a board's own
		r = storage.RoundRecord{ID: a.GetRoundId(), TournamentID: t.ID, Number: int(a.GetRound()), Config: &rc,
			TimeControl: a.GetConfig().GetTimeControl(), Venue: t.Venue, Rebuilt: h.clock.Now()}
		if r.ID == "" {
			r.ID = h.NewID("r")
		}
	}
	rec := storage.BoardRecord{ID: a.GetBoardId(), RoundID: r.ID, Number: int(a.GetBoardNumber()), Section: a.GetSection(),
		White: PlayerRecord(a.GetWhite()), Black: PlayerRecord(a.GetBlack()), Config: cfg,
		TimeControl: a.GetConfig().GetTimeControl(), Table: int(a.GetTable())}
	st, _ := rules.NewState(cfg)
	b := newBoard(h, rec, st, 0)
	h.sink.Place(rec.ID, rec.Section) // before its first state
	err = h.store.Write(ctx, func(tx *storage.Tx) error {
		if newT {
			if err := tx.CreateTournament(&t); err != nil {
				return err
			}
			alert := fmt.Sprintf("the backup is older than tournament %q: it is rebuilt from device %s's record of board %s; check its settings", t.Name, dev, rec.ID)
			if err := tx.AddAudit(&storage.AuditRecord{Actor: "server", What: "create_tournament " + t.Name + " (rebuilt after a restore)",
				Outcome: storage.OutcomeAlert(alert), Kind: "alert.restore_tournament",
				Params: map[string]string{"tournament": t.Name, "device": dev, "board": rec.ID, "text": alert}}); err != nil {
				return err
			}
		}
		if newR {
			if err := tx.CreateRound(&r); err != nil {
				return err
			}
			alert := fmt.Sprintf("the backup is older than round %d of %s: its boards are rebuilt from the records their clocks kept; its byes, and boards whose clock keeps no record of them, are not known: check the round against the pairing program's file", r.Number, t.Name)
			if err := tx.AddAudit(&storage.AuditRecord{Actor: "server", What: fmt.Sprintf("round %d of %s rebuilt after a restore", r.Number, t.Name),
				Outcome: storage.OutcomeAlert(alert), Kind: "alert.restore_round",
				Params: map[string]string{"number": strconv.Itoa(r.Number), "tournament": t.Name, "text": alert}}); err != nil {
				return err
			}
		}
		if err := tx.CreateBoard(&rec); err != nil {
			return err
		}
		tx.AfterCommit(func() { h.publish(rec.RoundID, b.wireState(st, 0), 0) })
		alert := fmt.Sprintf("the backup is older than this board: it is rebuilt from device %s's record of it, and its events are the clocks'; of its round, the byes and the boards whose clocks keep no record are not known", dev)
		return tx.AddAudit(&storage.AuditRecord{BoardID: rec.ID, Actor: "server",
			What:    fmt.Sprintf("board rebuilt after a restore: round %d of %s, board %d, %s - %s", r.Number, t.Name, rec.Number, rec.White.Name, rec.Black.Name),
			Outcome: storage.OutcomeAlert(alert), Kind: "alert.restore_board", Params: map[string]string{"device": dev, "text": alert}})
	})
	if errors.Is(err, storage.ErrDuplicate) || errors.Is(err, storage.ErrNotFound) {
		return rebuildRefused{fmt.Sprintf("board %s (board %d of section %q of round %d of %s) cannot be rebuilt from device %s's record: %v", rec.ID, rec.Number, rec.Section, r.Number, t.Name, dev, err)}
	}
	if err != nil {
		return err
	}
	if newT {
		h.AddTournament(t)
	}
	if newR {
		h.AddRound(r)
	}
	h.addBoard(b)
	h.log.Warn("board rebuilt from a clock's record after a restore", "board", rec.ID, "round", r.Number, "tournament", t.Name, "device", dev)
	return nil
}

// rebuildTournament finds the tournament of a clock's record of a board,
// by id or by name, or makes it (new says it must be stored).
func (h *Hall) rebuildTournament(a *pb.Assignment, cfg rules.Config) (t storage.TournamentRecord, new bool) {
	if id := a.GetTournamentId(); id != "" {
		if t, ok := h.TournamentByID(id); ok {
			return t, false
		}
	} else if t, err := h.Tournament(a.GetTournament()); err == nil {
		return t, false
	}
	tc := cfg
	tc.Blind = rules.BlindPlay{}
	t = storage.TournamentRecord{ID: a.GetTournamentId(), Name: a.GetTournament(), Config: tc, TimeControl: a.GetConfig().GetTimeControl()}
	if t.ID == "" {
		t.ID = h.NewID("t")
	}
	if t.Name == "" {
		t.Name = "tournament " + t.ID
	}
	return t, true
}

// followClock makes dev keep board to, as the clock said after the
// restore, instead of from, the board the backup gave it and which it
// left since: from is not handed back to the clock. Both are audited.
func (h *Hall) followClock(ctx context.Context, dev, to, from string) error {
	b, err := h.Board(to)
	if err != nil {
		return err
	}
	var werr error
	err = b.do(ctx, func() {
		werr = h.store.Write(ctx, func(tx *storage.Tx) error {
			if err := tx.SetBoardDevice(to, dev); err != nil {
				return err
			}
			if err := tx.SetBoardSource(to, storage.SourceDevice); err != nil {
				return err
			}
			was, kind := "no board", "did.restore_kept_new"
			if from != "" {
				kind = "did.restore_kept"
				was = "board " + from
				const alert = "after the restore the board is not handed back to the clock: the events it recorded here and still holds come back as it recorded them; if the game's end is not among them, enter the result"
				if err := tx.AddAudit(&storage.AuditRecord{BoardID: from, Actor: "server",
					What:    fmt.Sprintf("device %s left this board after the backup (it keeps board %s now)", dev, to),
					Outcome: storage.OutcomeAlert(alert), Kind: "alert.restore_left", Params: map[string]string{"device": dev, "board": to, "text": alert}}); err != nil {
					return err
				}
			}
			return tx.AddAudit(&storage.AuditRecord{BoardID: to, Actor: "server",
				What:    fmt.Sprintf("device %s keeps this board, as it said after the restore (the backup gave it %s)", dev, was),
				Outcome: storage.OutcomeApplied, Kind: kind, Params: map[string]string{"device": dev, "board": from,
					"text": fmt.Sprintf("device %s keeps this board, as it said after the restore (the backup gave it %s)", dev, was)}})
		})
		if werr == nil {
			b.keptBy(dev)
		}
	})
	if err != nil {
		return err
	}
	if werr != nil {
		return werr
	}
	h.moveDevice(dev, to)
	return nil
}

// releaseAfterRestore takes dev off board from, which the backup gave it
// and which it has left since (why), without handing it anything.
func (h *Hall) releaseAfterRestore(ctx context.Context, dev, from, why string) error {
	if from == "" {
		return nil
	}
	b, err := h.Board(from)
	if err != nil {
		return nil
	}
	var werr error
	err = b.do(ctx, func() {
		if b.rec.DeviceID != dev {
			return
		}
		werr = h.store.Write(ctx, func(tx *storage.Tx) error {
			if err := tx.SetBoardDevice(from, ""); err != nil {
				return err
			}
			const alert = "after the restore the board is not handed back to the clock, and has none: the events the clock recorded here and still holds come back as it recorded them; if the game's end is not among them, enter the result, or assign a clock"
			return tx.AddAudit(&storage.AuditRecord{BoardID: from, Actor: "server",
				What:    fmt.Sprintf("device %s left this board after the backup (%s)", dev, why),
				Outcome: storage.OutcomeAlert(alert), Kind: "alert.restore_released", Params: map[string]string{"device": dev, "text": alert}})
		})
		if werr != nil {
			return
		}
		b.rec.DeviceID = ""
		b.online = false
		b.publishLive()
	})
	if err != nil {
		return err
	}
	if werr != nil {
		return werr
	}
	h.releaseDevice(dev, from)
	return nil
}

// auditHall writes a hall-wide audit entry, m its outcome's words.
func (h *Hall) auditHall(ctx context.Context, actor, what, outcome string, m words.Message) error {
	return h.store.Write(ctx, func(tx *storage.Tx) error {
		return tx.AddAudit(&storage.AuditRecord{Actor: actor, What: what, Outcome: outcome, Kind: m.Kind, Params: m.Params})
	})
}
