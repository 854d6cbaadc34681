package server

// Stats are the server's counters since it started: what the link saw.
// The fleet simulator and the progress line of the demo read them; tests
// use them to show that a fault really happened.
type Stats struct {
	Connects uint64 // device streams welcomed (gRPC and WebSocket)
	// WebSocketConnects counts the device streams welcomed over WebSocket
	// (package wslink), a part of Connects.
	WebSocketConnects uint64
	Received          uint64 // device messages received (events, heartbeats)
	EventsApplied     uint64 // device events applied and committed
	Rejected          uint64 // device events refused by the rules (committed to the audit log)
	Duplicates        uint64 // device events dropped as already received, re-acknowledged
	Gaps              uint64 // streams ended because a sequence number was skipped
	Commands          uint64 // arbiter commands issued
	// LateWatchdogs counts silence checks that ran more than a heartbeat
	// interval late (the hall overloaded): the device got more time.
	LateWatchdogs uint64
	// SilenceCuts counts clocks taken offline for sending nothing for
	// heartbeat intervals (three at 1 s, two at longer ones).
	SilenceCuts uint64
	// WatchHolds counts watchers' updates held back while ingest was
	// behind (fanout.Ingest).
	WatchHolds uint64
	// StreamsOpen is the streams with an identity (clock links, watch
	// streams, SSE feeds) open now: a gauge, not a counter.
	StreamsOpen uint64
}

// Stats returns a snapshot of the counters.
func (s *Server) Stats() Stats {
	l, w := s.link.Stats(), s.wslink.Stats()
	return Stats{
		Connects: l.Connects + w.Connects, WebSocketConnects: w.Connects, Received: l.Received + w.Received,
		EventsApplied: l.EventsApplied, Rejected: l.Rejected, Duplicates: l.Duplicates, Gaps: l.Gaps, Commands: s.hall.Commands(),
		LateWatchdogs: l.LateWatchdogs + w.LateWatchdogs, SilenceCuts: l.SilenceCuts + w.SilenceCuts, WatchHolds: s.ingest.Holds(),
		StreamsOpen: s.streams.Open(),
	}
}
