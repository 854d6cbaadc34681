package sim

import (
	"context"
	"strings"
	"time"

	hallv1 "github.com/chesshall/hallclock/proto/hall/v1"
)

// A clock found stopped. The fleet's players stop a clock only to claim
// (the arbiter decides and restarts it at once); a claim cut short — by a
// restart of the fleet, or a restart the hall refused — leaves it stopped,
// and the fleet's arbiter restarts it after pausedFor. Every other pause
// is a person's (an arbiter at the dashboard or hallctl): the fleet's
// arbiter never overrides it; the clock stays stopped until someone
// restarts it.

// playersOnVirtual is the reason the fleet gives the hall for its players'
// own actions on a virtual clock (a claim's pause, a result), made through
// the arbiter's console: it tells them from an arbiter's.
const playersOnVirtual = "the players, on the virtual clock"

// pausedFor is how long (game time) a clock the fleet's own players
// stopped stays stopped before the fleet's arbiter restarts it.
const pausedFor = time.Minute

// stopped handles a board found paused: it learns once who stopped it
// and restarts it after pausedFor only if the fleet's players did.
func (t *table) stopped(ctx context.Context, face clockFace) {
	if t.pausedSince.IsZero() {
		ours, err := t.ownPause(ctx)
		if err != nil {
			t.f.log.Debug("cannot tell who stopped the clock; asking again", "board", t.board, "err", err)
			t.wait(ctx, t.idle())
			return
		}
		t.pausedSince, t.pauseOurs = t.f.clock.Now(), ours
		if !ours {
			t.f.log.Info("a person stopped the clock; the fleet leaves it stopped until someone restarts it", "board", t.board)
		}
	}
	if !t.pauseOurs || t.f.clock.Since(t.pausedSince) < pausedFor {
		t.wait(ctx, t.idle())
		return
	}
	t.pausedSince = time.Time{}
	t.g.resume(ctx, face)
}

// ownPause reports whether the event that stopped the board's clock was
// its players' own pause (a claim), as the hall's record of the board
// says.
func (t *table) ownPause(ctx context.Context) (bool, error) {
	resp, err := call(ctx, t.f, func(ctx context.Context) (*hallv1.AuditLogResponse, error) {
		return t.f.arb.AuditLog(ctx, &hallv1.AuditLogRequest{BoardId: t.board, Limit: 1})
	})
	if err != nil {
		return false, err
	}
	return playersPaused(resp.GetEntries()), nil
}

// playersPaused reports whether, in a board's audit entries (time order),
// the last event that stopped its clock was the players' own pause: on
// the clock device (no arbiter's command), or on a virtual clock through
// the fleet's console. An arbiter's pause, an illegal move found later, or
// anything the record does not show to be the players' is not.
func playersPaused(es []*hallv1.AuditEntry) bool {
	var stopper *hallv1.AuditEntry
	wasPaused := false
	for _, e := range es {
		if e.GetBoardSeq() == 0 || e.GetAfter() == nil {
			continue // not an event of the board
		}
		paused := e.GetAfter().GetStatus() == hallv1.BoardStatus_BOARD_STATUS_PAUSED
		if paused && !wasPaused {
			stopper = e
		}
		wasPaused = paused
	}
	if stopper == nil || stopper.GetAction().GetKind() != hallv1.ActionKind_ACTION_KIND_PAUSE || stopper.GetCommandId() != "" {
		return false
	}
	return strings.HasPrefix(stopper.GetActor(), "device:") || stopper.GetReason() == playersOnVirtual
}
