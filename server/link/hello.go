package link

import (
	"context"
	"fmt"
	"time"

	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/server/hallerr"
)

// recvHello waits for a device's first message for at most HelloTimeout
// (real time: it guards the server, not the game) or until shutdown.
func (s *Service) recvHello(stream pb.ClockLink_ConnectServer) (*pb.DeviceMessage, error) {
	type recv struct {
		m   *pb.DeviceMessage
		err error
	}
	got := make(chan recv, 1)
	go func() {
		m, err := stream.Recv()
		got <- recv{m, err}
	}()
	t := time.NewTimer(s.opts.HelloTimeout)
	defer t.Stop()
	select {
	case r := <-got:
		return r.m, r.err
	case <-t.C:
		return nil, fmt.Errorf("%w: no Hello within %s of opening the stream; a device speaks first", hallerr.ErrNoHello, s.opts.HelloTimeout)
	case <-s.ctx.Done():
		return nil, hallerr.ErrShuttingDown
	case <-stream.Context().Done():
		return nil, context.Cause(stream.Context())
	}
}
