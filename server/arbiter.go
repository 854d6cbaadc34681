package server

import (
	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// arbiterService implements the Arbiter service.
type arbiterService struct {
	pb.UnsafeArbiterServer
	s *Server
}
