package hall

import (
	"context"
	"slices"

	"github.com/chesshall/hallclock/internal/wire"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
	"github.com/chesshall/hallclock/storage"
)

// A board's last ruling that changed a clock's time (BoardState.last_ruling),
// so that a display says which ruling made a +2:00 jump: a penalty for an
// illegal move or an incorrect claim, the two minutes of a quickplay claim,
// time given, taken or set by the arbiter.

// isRuling reports whether events of kind k are rulings on time
// (storage.RulingKinds, the list the start-up index covers).
func isRuling(k rules.Kind) bool { return slices.Contains(storage.RulingKinds, k) }

// timeRuling says how event e, taking the board from prev to next, changed
// each clock's time, if it is a ruling that did; nil otherwise. The caller
// fills in the board event, the time and who ruled.
func timeRuling(prev, next rules.State, e rules.Event) *pb.TimeRuling {
	if !isRuling(e.Kind) {
		return nil
	}
	before := prev.Project(max(e.T, prev.At))
	r := &pb.TimeRuling{
		Kind:          wire.Action(e).GetKind(),
		WhiteChangeMs: next.P[rules.White].MainMs - before.P[rules.White].MainMs,
		BlackChangeMs: next.P[rules.Black].MainMs - before.P[rules.Black].MainMs,
	}
	if r.WhiteChangeMs == 0 && r.BlackChangeMs == 0 {
		return nil
	}
	if wire.NeedsSide(e.Kind) || e.Kind == rules.KindAddTime || e.Kind == rules.KindQuickplayClaim || e.Kind == rules.KindIllegalMoveFound {
		r.Side = wire.Side(e.Side)
	}
	return r
}

// lastRuling finds a loaded board's last ruling on time in its log: it
// folds the events up to it (only boards with such a ruling, few, pay).
func (h *Hall) lastRuling(ctx context.Context, cfg rules.Config, evs []storage.EventRecord) *pb.TimeRuling {
	for i := len(evs) - 1; i >= 0; i-- {
		if !isRuling(evs[i].Event.Kind) {
			continue
		}
		events := make([]rules.Event, i)
		for j := range i {
			events[j] = evs[j].Event
		}
		prev, err := rules.Fold(cfg, events)
		if err != nil {
			return nil
		}
		next, err := rules.Apply(prev, evs[i].Event)
		if err != nil {
			return nil
		}
		r := timeRuling(prev, next, evs[i].Event)
		if r == nil {
			continue
		}
		r.BoardSeq, r.UnixMs, r.By = evs[i].BoardSeq, evs[i].Wall.UnixMilli(), evs[i].Actor
		if id := evs[i].CommandID; id != "" {
			if c, err := h.store.Command(ctx, id); err == nil && c.IssuedBy != "" {
				r.By = c.IssuedBy
			}
		}
		return r
	}
	return nil
}
