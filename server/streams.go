package server

import (
	"context"
	"fmt"
	"sync"
	"time"

	"google.golang.org/grpc"

	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/server/hallerr"
)

// Streams cost the server memory and a goroutine or two for as long as
// they are open, so a token may hold only so many at once (a clock needs
// one, briefly two while it reconnects; a dashboard a few), and a device
// stream that never says Hello is cut after HelloTimeout.

// streamSlots counts the open streams of each token.
type streamSlots struct {
	mu    sync.Mutex
	open  map[string]int // token id → open streams
	total int            // all tokens' open streams
}

// openStreams is how many counted streams are open now.
func (sl *streamSlots) openStreams() uint64 {
	sl.mu.Lock()
	defer sl.mu.Unlock()
	return uint64(sl.total)
}

// acquire takes a slot for a stream of id, or fails with hallerr.ErrTooManyStreams.
func (s *Server) acquireStream(id *Identity) (release func(), err error) {
	limit := s.opts.MaxStreamsPerToken
	if id.Role == RoleDevice {
		limit = s.opts.MaxDeviceStreams
	}
	sl := &s.slots
	sl.mu.Lock()
	defer sl.mu.Unlock()
	if sl.open == nil {
		sl.open = map[string]int{}
	}
	if n := sl.open[id.TokenID]; n >= limit {
		return nil, fmt.Errorf("%w: token %s (%s) has %d streams open, at most %d are allowed; close one first",
			hallerr.ErrTooManyStreams, id.TokenID, id.Role, n, limit)
	}
	sl.open[id.TokenID]++
	sl.total++
	var once sync.Once
	return func() {
		once.Do(func() {
			sl.mu.Lock()
			sl.total--
			if sl.open[id.TokenID]--; sl.open[id.TokenID] <= 0 {
				delete(sl.open, id.TokenID)
			}
			sl.mu.Unlock()
		})
	}, nil
}

// limitStreams is the door's stream limit, after auth (health and
// reflection streams carry no identity and are not counted).
func (s *Server) limitStreams(srv any, ss grpc.ServerStream, _ *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
	id := IdentityFrom(ss.Context())
	if id == nil {
		return handler(srv, ss)
	}
	release, err := s.acquireStream(id)
	if err != nil {
		return err
	}
	defer release()
	return handler(srv, ss)
}

// recvHello waits for a device's first message for at most HelloTimeout
// (real time: it guards the server, not the game) or until shutdown.
func (s *Server) recvHello(stream pb.ClockLink_ConnectServer) (*pb.DeviceMessage, error) {
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
