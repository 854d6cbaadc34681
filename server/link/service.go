package link

import (
	"context"

	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/server/auth"
	"github.com/chesshall/hallclock/server/devlink"
)

// Options configure the ClockLink service (devlink.Options: the door it
// shares with every device transport).
type Options = devlink.Options

// Stats are the service's counters (devlink.Stats).
type Stats = devlink.Stats

// DefaultHeartbeatBudget is how many clocks beat every HeartbeatInterval
// before the interval grows (devlink).
const DefaultHeartbeatBudget = devlink.DefaultHeartbeatBudget

// Service implements the ClockLink service: one bidirectional stream per
// connected clock.
type Service struct {
	pb.UnsafeClockLinkServer
	door *devlink.Door
}

// New returns the service; ctx ends every link (shutdown).
func New(ctx context.Context, opts Options) *Service {
	return &Service{door: devlink.New(ctx, opts)}
}

// Connect is one device's bidirectional stream: the gRPC door (the
// interceptors) has put the identity of its token in the context.
func (s *Service) Connect(stream pb.ClockLink_ConnectServer) error {
	return s.door.Serve(stream.Context(), auth.IdentityFrom(stream.Context()),
		devlink.Stream{Recv: stream.Recv, Send: stream.Send})
}

// Stats returns a snapshot of the counters.
func (s *Service) Stats() Stats { return s.door.Stats() }
