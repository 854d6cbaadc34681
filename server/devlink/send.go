package devlink

import (
	"context"
	"fmt"
	"sync"

	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/server/hallerr"
)

// maxLinkQueue is how many messages may wait for a device that does not
// read them before its link is cut.
const maxLinkQueue = 256

// linkSender sends a link's messages in the order queued, on whichever
// goroutine is there: the receive loop sends its own acknowledgements
// (flush), and a message queued by another goroutine (a command, an
// assignment) while nothing sends gets a goroutine until the queue is
// empty. An idle link holds no goroutine for sending, and an
// acknowledgement is not handed to another goroutine to be sent.
//
// Nothing queued after the link was cut is sent, even while the stream
// still stands: a message dropped at the cut (a full queue) must not be
// followed by a later one, whose acknowledgement covers the dropped one's
// sequence number (the device would count a refused event applied). The
// device reconnects and learns the rest from its Welcome.
type linkSender struct {
	dev    string
	ctx    context.Context // the link's: done when it is cut
	cancel context.CancelCauseFunc
	stream func(*pb.ServerMessage) error // stream.Send

	mu      sync.Mutex
	queue   []*pb.ServerMessage
	sending bool           // a goroutine is sending the queue
	closed  bool           // the stream ended: nothing more starts sending
	err     error          // the first failed Send
	senders sync.WaitGroup // goroutines started to send
}

// send queues a message for the device; false if the device is gone or its
// queue is full (then the link is cut: the device reconnects and
// resyncs). If nothing is sending, a goroutine starts to.
func (l *linkSender) send(m *pb.ServerMessage) bool {
	ok, mine := l.enqueue(m, true)
	if mine {
		go func() {
			defer l.senders.Done()
			l.drain()
		}()
	}
	return ok
}

// sendHere queues a message and, if nothing is sending, sends the queue on
// the calling goroutine. Only the link's receive loop (Connect's own
// goroutine) may call it, for its acknowledgements: close does not wait
// for it, since Connect calls close after its loop.
func (l *linkSender) sendHere(m *pb.ServerMessage) bool {
	ok, mine := l.enqueue(m, false)
	if mine {
		l.drain()
	}
	return ok
}

// enqueue queues m; mine says the caller took the sending (nothing was
// sending), counted in senders if it will send on a goroutine of its own.
func (l *linkSender) enqueue(m *pb.ServerMessage, goroutine bool) (ok, mine bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.ctx.Err() != nil || l.closed {
		return false, false
	}
	if len(l.queue) >= maxLinkQueue {
		l.cancel(fmt.Errorf("%w: device %s does not read its messages", hallerr.ErrSlowDevice, l.dev))
		return false, false
	}
	l.queue = append(l.queue, m)
	if l.sending {
		return true, false
	}
	l.sending = true
	if goroutine {
		l.senders.Add(1)
	}
	return true, true
}

// drain sends the queue until it is empty, the link is cut or a send
// fails; the caller has set sending.
func (l *linkSender) drain() {
	for {
		l.mu.Lock()
		if len(l.queue) == 0 || l.ctx.Err() != nil || l.err != nil {
			l.queue = nil
			l.sending = false
			l.mu.Unlock()
			return
		}
		m := l.queue[0]
		l.queue[0] = nil // the array lets go of what was sent
		if l.queue = l.queue[1:]; len(l.queue) == 0 {
			l.queue = nil
		}
		l.mu.Unlock()
		if err := l.stream(m); err != nil {
			l.mu.Lock()
			l.err = err
			l.mu.Unlock()
			l.cancel(err)
		}
	}
}

// close stops anything new from sending and waits for the goroutines
// sending; it returns the first Send error. After it, the stream's Send
// is not called again (its handler may return).
func (l *linkSender) close() error {
	l.mu.Lock()
	l.closed = true
	l.mu.Unlock()
	l.senders.Wait()
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.err
}
