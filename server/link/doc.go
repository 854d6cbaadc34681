// Package link is the ClockLink service: one bidirectional stream per
// connected clock. A device says Hello (within HelloTimeout), is welcomed
// with what the hall acknowledged of it and the rejections it may have
// missed, and is told the board it keeps (hall.SendAssignment); its events
// go to their board's actor in sequence order and each is acknowledged
// only once committed; duplicates are acknowledged again, a gap ends the
// stream naming the number to resend from. A device silent for three
// heartbeat intervals is taken offline — unless the hall itself is behind
// its work (Lag), which then gives it more time.
//
// # Usage
//
//	svc := link.New(ctx, link.Options{Hall: h, Store: st, Clock: clock, ...})
//	pb.RegisterClockLinkServer(grpcServer, svc)
//
// # Concurrency
//
// Each stream has a receive loop (heartbeats handled as they arrive,
// events queued for the loop that applies them one at a time) and a
// sender (send.go): only one goroutine at a time calls Send, the receive
// loop sends its own acknowledgements, and a message queued from
// elsewhere (a command, an assignment) gets a goroutine until the queue
// is empty. A device that does not read its messages is cut when its
// queue is full, never the hall's memory filled. Shutdown (ctx) and a
// revoked token (auth.Streams) cut every link.
package link
