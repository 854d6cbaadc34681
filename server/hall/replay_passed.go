package hall

import (
	"context"
	"fmt"
	"strconv"

	"github.com/chesshall/hallclock/rules"
	"github.com/chesshall/hallclock/storage"
)

// notePassed tells the arbiters, in the board's audit log, of events its
// log holds that this version's rules refuse: acknowledged under an
// earlier version whose rules took them (a rule corrected since — a
// clock's result before the start, say). The hall starts all the same,
// its state as the rules read the rest of the log; the arbiter decides
// what the game's record should be. A snapshot after the log's end is
// written with the entries, so that the next start replays from it and
// says this once.
func (h *Hall) notePassed(ctx context.Context, boardID string, st rules.State, seq uint64, passed []storage.Passed) error {
	for _, p := range passed {
		h.log.Warn("an event of the board's log is refused by this version's rules; passed over", "board", boardID,
			"event", p.BoardSeq, "refusal", p.Refusal)
	}
	return h.store.Write(ctx, func(tx *storage.Tx) error {
		for _, p := range passed {
			alert := fmt.Sprintf("event %d, recorded under an earlier version, is refused by this version's rules (%v): passed over; the arbiter decides the game's record",
				p.BoardSeq, p.Refusal)
			if err := tx.AddAudit(&storage.AuditRecord{BoardID: boardID, Actor: "server", What: "replay " + p.Event.Kind.String(),
				BoardSeq: p.BoardSeq, Outcome: storage.OutcomeAlert(alert), Kind: "alert.replay_passed",
				Params: map[string]string{"seq": strconv.FormatUint(p.BoardSeq, 10), "event": p.Event.Kind.String(), "text": alert}}); err != nil {
				return err
			}
		}
		return tx.PutSnapshot(boardID, seq, st)
	})
}
