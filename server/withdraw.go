package server

import (
	"context"

	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// withdraw takes a board out of the hall after its store row was deleted
// (its round imported again before it started): its actor stops and
// watchers are told to drop it. It returns the device the board had, now
// free; the caller tells it where it goes.
func (s *Server) withdraw(ctx context.Context, b *board) string {
	var dev string
	_ = b.do(ctx, func() {
		dev = b.rec.DeviceID
		b.stopTimer()
		b.closeQuit() // nothing of the board's runs after this
	})
	b.closeQuit() // (if do could not run)
	s.mu.Lock()
	delete(s.boards, b.rec.ID)
	if dev != "" && s.byDevice[dev] == b.rec.ID {
		delete(s.byDevice, dev)
	} else {
		dev = ""
	}
	s.mu.Unlock()
	s.publish(b.rec.RoundID, &pb.BoardState{BoardId: b.rec.ID, Withdrawn: true, ServerUnixMs: s.clock.Now().UnixMilli()}, 0)
	return dev
}
