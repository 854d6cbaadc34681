package devlink

import (
	"context"
	"fmt"
	"time"

	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/server/hallerr"
)

// recvHello waits for a device's first message for at most HelloTimeout
// (real time: it guards the server, not the game) or until shutdown.
func (d *Door) recvHello(ctx context.Context, recv func() (*pb.DeviceMessage, error)) (*pb.DeviceMessage, error) {
	type result struct {
		m   *pb.DeviceMessage
		err error
	}
	got := make(chan result, 1)
	go func() {
		m, err := recv()
		got <- result{m, err}
	}()
	t := time.NewTimer(d.opts.HelloTimeout)
	defer t.Stop()
	select {
	case r := <-got:
		return r.m, r.err
	case <-t.C:
		return nil, fmt.Errorf("%w: no Hello within %s of opening the stream; a device speaks first", hallerr.ErrNoHello, d.opts.HelloTimeout)
	case <-d.ctx.Done():
		return nil, hallerr.ErrShuttingDown
	case <-ctx.Done():
		return nil, context.Cause(ctx)
	}
}
