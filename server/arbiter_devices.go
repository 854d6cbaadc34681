package server

import (
	"context"
	"fmt"

	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
	"github.com/chesshall/hallclock/server/auth"
	"github.com/chesshall/hallclock/server/hallerr"
	"github.com/chesshall/hallclock/storage"
)

// moveDevice records in memory that dev now keeps board's clock, taking it
// off any other board.
func (s *Server) moveDevice(dev, boardID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if old, ok := s.byDevice[dev]; ok && old != boardID {
		if ob := s.boards[old]; ob != nil {
			ob.post(func() {
				if ob.rec.DeviceID == dev {
					ob.rec.DeviceID = ""
					ob.online = false // the device left with its link
					ob.publishLive()
				}
			})
		}
	}
	s.byDevice[dev] = boardID
}

func (a *arbiterService) AssignDevice(ctx context.Context, req *pb.AssignDeviceRequest) (*pb.Board, error) {
	b, err := a.boardFor(ctx, req.GetBoardId())
	if err != nil {
		return nil, err
	}
	dev := req.GetDeviceId()
	if dev == "" {
		return nil, hallerr.BadRequest("no device id: give the device that will keep board %s's clock", b.rec.ID)
	}
	if err := a.assign(ctx, b, dev, req.GetReason(), req.GetReplace()); err != nil {
		return nil, err
	}
	return a.boardWire(ctx, b)
}

// assign makes dev keep b's clock (a new or replacement device, 6.10.1):
// the previous device is told it has no board, the new one gets the board
// with its history and continues its time line. A device busy on another
// board is taken only with replace (claimDevice). A board at a table puts
// the device there in its venue's hall plan.
func (a *arbiterService) assign(ctx context.Context, b *board, dev, reason string, replace bool) error {
	s := a.s
	id := auth.IdentityFrom(ctx)
	move, err := s.claimDevice(ctx, id, dev, b.rec.ID, replace)
	if err != nil {
		return err
	}
	var prev string
	var werr error
	venue := s.roundVenue(b.rec.RoundID)
	err = b.do(ctx, func() {
		prev = b.rec.DeviceID
		werr = s.store.Write(ctx, func(tx *storage.Tx) error {
			if err := tx.SetBoardDevice(b.rec.ID, dev); err != nil {
				return err
			}
			if err := tx.SetBoardSource(b.rec.ID, storage.SourceDevice); err != nil {
				return err
			}
			if b.rec.Table > 0 {
				// The replacement stays at the table: the hall plan follows.
				if err := tx.SetPlanTable(venue, b.rec.Table, dev); err != nil {
					return err
				}
			}
			if err := move.audit(tx, id.Actor(), b.rec.ID, reason); err != nil {
				return err
			}
			return tx.AddAudit(&storage.AuditRecord{BoardID: b.rec.ID, Actor: id.Actor(),
				What: fmt.Sprintf("assign device %s (was %q)%s", dev, prev, move.note()), Reason: reason, Outcome: storage.OutcomeApplied})
		})
		if werr != nil {
			return
		}
		b.rec.DeviceID = dev
		b.rec.Source = storage.SourceDevice
		if b.timer != nil {
			b.timer.Stop()
			b.timer = nil
		}
		b.online = b.deviceConnected()
		b.publishLive()
	})
	if err != nil {
		return err
	}
	if werr != nil {
		return werr
	}
	s.moveDevice(dev, b.rec.ID)
	if prev != "" && prev != dev {
		s.mu.Lock()
		if s.byDevice[prev] == b.rec.ID {
			delete(s.byDevice, prev)
		}
		s.mu.Unlock()
		s.sendAssignment(s.ctx, prev, false)
	}
	s.sendAssignment(s.ctx, dev, true)
	return nil
}

func (a *arbiterService) SwapDevices(ctx context.Context, req *pb.SwapDevicesRequest) (*pb.SwapDevicesResponse, error) {
	ba, err := a.boardFor(ctx, req.GetBoardA())
	if err != nil {
		return nil, err
	}
	bb, err := a.boardFor(ctx, req.GetBoardB())
	if err != nil {
		return nil, err
	}
	if ba == bb {
		return nil, hallerr.BadRequest("cannot swap board %s with itself", ba.rec.ID)
	}
	var da, db string
	_ = ba.do(ctx, func() { da = ba.rec.DeviceID })
	_ = bb.do(ctx, func() { db = bb.rec.DeviceID })
	if da == "" || db == "" {
		return nil, fmt.Errorf("%w: both boards need a device to swap (%s has %q, %s has %q)", hallerr.ErrNoDevice, ba.rec.ID, da, bb.rec.ID, db)
	}
	// A swap takes each device from a board the caller may act on (both
	// were checked above): the busy-device rule's replace, said by the call.
	if err := a.assign(ctx, ba, db, req.GetReason(), true); err != nil {
		return nil, err
	}
	if err := a.assign(ctx, bb, da, req.GetReason(), true); err != nil {
		return nil, err
	}
	wa, err := a.boardWire(ctx, ba)
	if err != nil {
		return nil, err
	}
	wb, err := a.boardWire(ctx, bb)
	if err != nil {
		return nil, err
	}
	return &pb.SwapDevicesResponse{A: wa, B: wb}, nil
}

func (a *arbiterService) UseVirtualClock(ctx context.Context, req *pb.UseVirtualClockRequest) (*pb.Board, error) {
	s := a.s
	b, err := a.boardFor(ctx, req.GetBoardId())
	if err != nil {
		return nil, err
	}
	var prev string
	var werr error
	err = b.do(ctx, func() {
		prev = b.rec.DeviceID
		werr = s.store.Write(ctx, func(tx *storage.Tx) error {
			if err := tx.SetBoardSource(b.rec.ID, storage.SourceVirtual); err != nil {
				return err
			}
			if err := tx.SetBoardDevice(b.rec.ID, ""); err != nil {
				return err
			}
			return tx.AddAudit(&storage.AuditRecord{BoardID: b.rec.ID, Actor: auth.IdentityFrom(ctx).Actor(),
				What: fmt.Sprintf("use virtual clock (device %q retired)", prev), Reason: req.GetReason(), Outcome: storage.OutcomeApplied})
		})
		if werr != nil {
			return
		}
		// The board's time line continues on the server's clock from the
		// estimate of board time now.
		b.setRef(b.now())
		b.rec.Source = storage.SourceVirtual
		b.rec.DeviceID = ""
		// Commands that waited for the dead device are applied now.
		for _, c := range append([]*command(nil), b.pending...) {
			e := c.event
			e.T = b.now()
			next, err := rules.Apply(b.state, e)
			if err != nil {
				if werr = s.store.Write(ctx, func(tx *storage.Tx) error {
					if err := tx.ResolveCommand(c.rec.ID, storage.CommandRefused, err.Error()); err != nil {
						return err
					}
					return tx.AddAudit(&storage.AuditRecord{BoardID: b.rec.ID, Actor: "server", What: describe(c.action),
						Reason: c.rec.Reason, Outcome: storage.OutcomeRefused(err.Error()), Action: c.rec.Action, CommandID: c.rec.ID})
				}); werr != nil {
					return
				}
				b.resolve(c, commandResult{status: pb.CommandStatus_COMMAND_STATUS_REFUSED, message: err.Error()})
				continue
			}
			if werr = b.commit(ctx, next, e, "", 0, c, "server", c.rec.Reason, ""); werr != nil {
				return
			}
		}
		b.armTimer()
		b.publishLive()
	})
	if err != nil {
		return nil, err
	}
	if werr != nil {
		return nil, werr
	}
	if prev != "" {
		s.mu.Lock()
		if s.byDevice[prev] == b.rec.ID {
			delete(s.byDevice, prev)
		}
		s.mu.Unlock()
		s.sendAssignment(s.ctx, prev, false)
	}
	return a.boardWire(ctx, b)
}
