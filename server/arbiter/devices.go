package arbiter

import (
	"context"

	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/server/auth"
	"github.com/chesshall/hallclock/server/hallerr"
)

// Who keeps a board's clock (package hall decides: the busy-device rule,
// the hall plan, the devices told): a device assigned or swapped, or the
// server (a virtual clock).

func (a *Service) AssignDevice(ctx context.Context, req *pb.AssignDeviceRequest) (*pb.Board, error) {
	b, err := a.boardFor(ctx, req.GetBoardId())
	if err != nil {
		return nil, err
	}
	dev := req.GetDeviceId()
	if dev == "" {
		return nil, hallerr.BadRequest("no device id: give the device that will keep board %s's clock", b.ID())
	}
	if err := a.hall.AssignDevice(ctx, auth.IdentityFrom(ctx), b, dev, req.GetReason(), req.GetReplace()); err != nil {
		return nil, err
	}
	return a.boardWire(ctx, b)
}

func (a *Service) SwapDevices(ctx context.Context, req *pb.SwapDevicesRequest) (*pb.SwapDevicesResponse, error) {
	ba, err := a.boardFor(ctx, req.GetBoardA())
	if err != nil {
		return nil, err
	}
	bb, err := a.boardFor(ctx, req.GetBoardB())
	if err != nil {
		return nil, err
	}
	// Each device is taken from a board the caller may act on (both were
	// checked above).
	if err := a.hall.SwapDevices(ctx, auth.IdentityFrom(ctx), ba, bb, req.GetReason()); err != nil {
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

func (a *Service) UseVirtualClock(ctx context.Context, req *pb.UseVirtualClockRequest) (*pb.Board, error) {
	b, err := a.boardFor(ctx, req.GetBoardId())
	if err != nil {
		return nil, err
	}
	if err := a.hall.UseVirtualClock(ctx, auth.IdentityFrom(ctx), b, req.GetReason()); err != nil {
		return nil, err
	}
	return a.boardWire(ctx, b)
}
