// Package devlink is what every transport of a clock's stream shares (the
// gRPC stream of package link, the WebSocket of package wslink): a Door
// serves one device stream (Serve), given the identity of its token and
// the stream's Recv and Send. It checks that the token is a device's and
// speaks for the Hello (within HelloTimeout), that the hall is ready,
// opens the session (hall.Open: the session itself lives in the hall)
// and hands it the device's messages; what the session sends goes out on
// the stream. A device silent for its heartbeat intervals (heartbeat.go)
// is taken offline — unless the hall itself is behind its work
// (Overloaded), which then gives it more time. The package writes nothing
// about devices itself and imports no storage; it knows no transport.
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
package devlink
