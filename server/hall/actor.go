package hall

import (
	"context"
	"fmt"
	"sync/atomic"

	"github.com/chesshall/hallclock/server/hallerr"
)

// The board's functions run one at a time, on whichever goroutine is there
// to run them, so that an idle board holds no goroutine and a press waits
// for no hand-off: a caller of do whose board is idle runs its function
// itself; what arrives while the board is busy is queued, and the
// goroutine that finishes hands a non-empty queue to a goroutine started
// for it, which runs it dry and ends. Nothing runs once the board is
// withdrawn or the server shuts down (Shutdown waits for what is running).
// Invariant: the queue is empty whenever busy is false.

// do runs f on the actor and waits for it. Either f has run to its end
// when do returns nil, or it never runs: a caller that gives up (ctx done,
// shutdown) before the actor took f abandons it, and one whose f has
// started waits for it, so f never writes into what its caller has
// already handed on (a reply being marshalled).
func (b *Board) do(ctx context.Context, f func()) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	b.mu.Lock()
	if !b.busy {
		b.busy = true
		b.mu.Unlock()
		err := b.runOne(f)
		b.handOn()
		return err
	}
	done := make(chan struct{})
	var state atomic.Int32 // 0 queued, 1 taken by the actor, 2 abandoned
	b.queue = append(b.queue, func() {
		if !state.CompareAndSwap(0, 1) {
			return
		}
		f()
		close(done)
	})
	b.mu.Unlock()
	giveUp := func(err error) error {
		if state.CompareAndSwap(0, 2) {
			return err
		}
		<-done
		return nil
	}
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return giveUp(ctx.Err())
	case <-b.h.ctx.Done():
		// Nothing runs after shutdown, so f may never be taken.
		return giveUp(hallerr.ErrShuttingDown)
	case <-b.quit:
		return giveUp(b.withdrawnErr())
	}
}

// tell runs f on the actor without waiting; it drops f if the queue is
// long (for telemetry that the next message repeats).
func (b *Board) tell(f func()) {
	b.enqueue(f, true)
}

// post runs f on the actor without waiting and without dropping it.
func (b *Board) post(f func()) {
	b.enqueue(f, false)
}

// maxQueue is how many functions tell lets wait for a busy board.
const maxQueue = 64

func (b *Board) enqueue(f func(), droppable bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if droppable && len(b.queue) >= maxQueue {
		return
	}
	b.queue = append(b.queue, f)
	if !b.busy {
		b.busy = true
		go b.drain()
	}
}

// handOn ends a turn: the queue, if any, goes to a goroutine of its own
// (the caller that ran its function inline returns to its own work).
func (b *Board) handOn() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.queue) == 0 {
		b.busy = false
		return
	}
	go b.drain()
}

// drain runs the queue dry, then the board is idle.
func (b *Board) drain() {
	for {
		b.mu.Lock()
		if len(b.queue) == 0 {
			b.busy = false
			b.mu.Unlock()
			return
		}
		f := popFront(&b.queue)
		b.mu.Unlock()
		_ = b.runOne(f)
	}
}

// popFront takes the first of a queue, letting go of its array once it
// is empty.
func popFront[T any](q *[]T) T {
	var zero T
	v := (*q)[0]
	(*q)[0] = zero
	if *q = (*q)[1:]; len(*q) == 0 {
		*q = nil
	}
	return v
}

// runOne runs f unless the board is withdrawn or the server is shutting
// down; Shutdown waits for it.
func (b *Board) runOne(f func()) error {
	select {
	case <-b.quit:
		return b.withdrawnErr()
	default:
	}
	if !b.h.enterActor() {
		return hallerr.ErrShuttingDown
	}
	defer b.h.wg.Done()
	f()
	return nil
}

func (b *Board) closeQuit() {
	b.quitOnce.Do(func() { close(b.quit) })
}

func (b *Board) withdrawnErr() error {
	return fmt.Errorf("%w %q: withdrawn", hallerr.ErrUnknownBoard, b.rec.ID)
}
