// Package link is the ClockLink service over gRPC: one bidirectional
// stream per connected clock, a thin transport of the clock's session,
// which lives in the hall (hall.Session: Hello bookkeeping, the Welcome,
// sequence numbers, duplicates, gaps, refusals, acknowledgements,
// assignments and commands). The stream checks that the device's token
// speaks for the Hello (within HelloTimeout) and that the hall is ready,
// opens the session (hall.Open) and hands it the device's messages; what
// the session sends goes out on the stream. A device silent for its
// heartbeat intervals (heartbeat.go) is taken offline — unless the hall
// itself is behind its work (Lag), which then gives it more time. The
// package writes nothing about devices itself and imports no storage.
//
// # Usage
//
//	svc := link.New(ctx, link.Options{Hall: h, Clock: clock, ...})
//	pb.RegisterClockLinkServer(grpcServer, svc)
//
// # Concurrency
//
// Each stream has a receive loop (heartbeats handed to the session as
// they arrive — they allocate nothing and wait for nothing — events
// queued for the loop that hands them to the session one at a time) and
// a sender (send.go): only one goroutine at a time calls Send, the loop
// sends the session's replies (acknowledgements, hall.DeviceLink.Reply)
// itself, and a message queued from elsewhere (a command, an assignment:
// hall.DeviceLink.Send) gets a goroutine until the queue is empty. So a
// stream holds two goroutines (its handler and its receiver), an idle one
// none for sending. A device that does not read its messages is cut when
// its queue is full, never the hall's memory filled. Shutdown (ctx) and a
// revoked token (auth.Streams) cut every link.
package link
