package server

import (
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/server/fanout"
)

// hubs are where the hall's board states go (hall.Sink): the live hub at
// once, the public one (broadcast tokens, public rounds) after the
// broadcast delay, if there is one.
type hubs struct {
	live   *fanout.Hub
	public *fanout.DelayLine // nil without a broadcast delay
}

func (h hubs) Place(boardID, section string) {
	h.live.Place(boardID, section)
	if h.public != nil {
		h.public.Hub().Place(boardID, section)
	}
}

func (h hubs) Seed(roundID string, st *pb.BoardState, seq uint64) {
	h.live.Seed(roundID, st, seq)
	if h.public != nil {
		h.public.Seed(roundID, st, seq)
	}
}

func (h hubs) Publish(roundID string, st *pb.BoardState, seq uint64) {
	h.live.Publish(roundID, st, seq)
	if h.public != nil {
		h.public.Publish(roundID, st, seq)
	}
}
