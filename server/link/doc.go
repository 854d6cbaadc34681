// Package link is the ClockLink service over gRPC: one bidirectional
// stream per connected clock, a thin transport of the clock's session,
// which lives in the hall (hall.Session: Hello bookkeeping, the Welcome,
// sequence numbers, duplicates, gaps, refusals, acknowledgements,
// assignments and commands). The gRPC door (interceptors) has checked the
// token; the stream is served by package devlink, which every device
// transport shares (the WebSocket of package wslink too): the token
// speaks for the Hello (within HelloTimeout), the hall is ready, the
// receive loop, the send queue, heartbeats and silence. What the stream
// ends with is mapped to its gRPC status by hallerr's interceptor. It
// also measures the hall's scheduling latency (Lag), which holds back
// the silence watchdog while the hall is behind.
//
// # Usage
//
//	svc := link.New(ctx, link.Options{Hall: h, Clock: clock, ...})
//	pb.RegisterClockLinkServer(grpcServer, svc)
package link
