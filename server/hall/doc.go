// Package hall is the hall's live state: one actor per board, applying
// every event through the rules, writing it (group commit) and handing
// its state on after the commit; the registry of boards and clock devices
// (the floor) and of tournaments, rounds and their broadcast settings
// (the schedule), each a type with its own lock; the busy-device rule;
// the rulings on time; each connected clock's session (session.go), the
// one door of a device whatever transport carries it; and the hall as the
// broadcast feeds read it. The services (ClockLink, Arbiter, Watch) are
// thin over it.
//
// # Usage
//
//	h, err := hall.Load(ctx, store, hall.Options{Clock: clock, Sink: hubs})
//	sess, welcome, err := h.Open(ctx, dev, hello, out, every) // a clock connects
//	err = sess.Handle(ctx, msg) // each of its messages; Acks go out via out.Reply
//	sess.Close()
//	b, err := h.Board(id)
//	resp, err := b.Act(ctx, identity, action, reason, wait) // an arbiter's
//	...
//	h.Stop() // no board function starts from now
//	h.Wait() // the ones running end
//
// # Concurrency
//
// Each board is an actor: its functions run one at a time, and device
// links, arbiter calls and timers hand it work (do, tell, post) and wait
// for the commit; a device's session hands its events to their board one
// at a time, on the transport's loop, and its heartbeats take no lock a
// press waits on. An idle board holds no goroutine: a caller finding it
// idle runs its function itself, and a queue that builds up while it is
// busy gets a goroutine until it is empty. Events of different boards
// share commits (group commit in storage). The sink hears of a commit
// after it, in the order of the hall's sequence numbers. The registry's
// locks are held only to read or change its maps, never while a board
// function runs or the store writes.
package hall
