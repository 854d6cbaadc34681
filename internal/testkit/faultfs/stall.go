package faultfs

import "sync"

// Stall is a disk that stops answering, as a frozen file system (fsfreeze)
// or a network volume gone away does: nothing fails, a commit just does
// not return. Give Hook as storage.Options.BeforeCommit: while the disk is
// frozen, each commit waits in it until Thaw.
type Stall struct {
	mu      sync.Mutex
	thawed  chan struct{} // closed by Thaw; nil while not frozen
	waiting chan struct{}
}

// NewStall returns a disk that answers until Freeze.
func NewStall() *Stall { return &Stall{waiting: make(chan struct{}, 1)} }

// Hook is the store's BeforeCommit: while frozen, it waits for Thaw.
func (s *Stall) Hook() {
	s.mu.Lock()
	thawed := s.thawed
	s.mu.Unlock()
	if thawed == nil {
		return
	}
	select {
	case s.waiting <- struct{}{}:
	default:
	}
	<-thawed
}

// Freeze makes the next commits wait.
func (s *Stall) Freeze() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.thawed == nil {
		s.thawed = make(chan struct{})
	}
}

// Waiting receives when a commit has begun to wait.
func (s *Stall) Waiting() <-chan struct{} { return s.waiting }

// Thaw lets the waiting commit return, and the next ones.
func (s *Stall) Thaw() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.thawed != nil {
		close(s.thawed)
		s.thawed = nil
	}
}
