// Package fanout hands committed board states to watchers: the hub
// (Publish after each commit, Subscribe per watcher), each update encoded
// once for all the watchers of a scope (Update: protobuf for Watch
// streams, a server-sent event for the web pages, gzipped for those that
// take it), a delay line that feeds a second hub late (the broadcast
// delay), the server-sent events of a connection that stops reading
// (SendSSE), the check of a watcher's
// resume point (CheckResume), and the hold that gives ingest priority
// while it is behind (Ingest). The hall (package server) and its followers
// (package server/gateway) both serve their watchers through it.
//
// # Usage
//
//	hub := fanout.NewHub(0)
//	hub.Place(boardID, section)            // before the board's first state
//	hub.Publish(roundID, state, seq)       // after each commit, in seq order
//	...
//	if err := fanout.CheckResume(hub, from); err != nil { ... }
//	sub := hub.Subscribe(fanout.Scope{RoundID: r}, from, 50*time.Millisecond)
//	defer sub.Close()
//	for {
//		u, err := sub.NextUpdate(ctx)
//		...
//		stream.SendMsg(fanout.Encoded(must(u.Proto())))
//	}
//
// # Concurrency
//
// Publish is O(1) and never waits for a watcher nor for the hub's lock: it
// appends to a list that the next reader of the hub applies. Each watcher
// (Sub) belongs to one goroutine and reads at its own pace; a watcher that
// missed updates gets them merged (fresher, rarer), one far behind a fresh
// snapshot, so a slow watcher costs the hall at most one merge per kept
// update per interval, never a backlog. The hub's ordering promise: a
// watcher sees the changes in the order of the hall's sequence numbers;
// each of its updates names a later state of the hall than the one before
// (Update.ID, an EventID: a server-sent event's id), never one twice; and
// resuming from the id of its last update it misses none and gets nothing
// older than it had.
package fanout
