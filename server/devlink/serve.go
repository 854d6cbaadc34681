package devlink

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"google.golang.org/grpc/status"

	"github.com/chesshall/hallclock/internal/mono"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/server/auth"
	"github.com/chesshall/hallclock/server/hallerr"
)

// link is one connected device's stream: the transport of its session
// (hall.Session). The receive loop (Serve) hands the session the
// device's messages in order, one at a time; messages to the device go
// through its linkSender (Send from any goroutine, Reply from the loop).
type link struct {
	linkSender
}

// Stream is one device's stream as a transport carries it: Recv returns
// the device's next message (io.EOF once it closed the stream in order),
// Send writes one message to it. Recv is called from one goroutine,
// Send from one at a time. Both fail once ctx (Serve's) is done.
type Stream struct {
	Recv func() (*pb.DeviceMessage, error)
	Send func(*pb.ServerMessage) error
}

// Serve is one device's stream, whatever carries it, until it ends: the
// identity id of the caller's token, checked to be a device's and to
// speak for the Hello; the hall ready; the session opened (hall.Open) and
// handed the device's messages; silence watched. ctx is the stream's. The
// error is why it ended (nil: the device closed it), for the transport
// to map to its status (hallerr.Codes).
func (d *Door) Serve(ctx context.Context, id *auth.Identity, stream Stream) error {
	if id == nil || id.Role != auth.RoleDevice {
		return fmt.Errorf("%w: only device tokens may connect a clock", hallerr.ErrPermission)
	}
	first, err := d.recvHello(ctx, stream.Recv)
	if errors.Is(err, io.EOF) {
		return nil // gone before saying anything
	}
	if err != nil {
		return err
	}
	hello := first.GetHello()
	if hello == nil {
		return hallerr.BadRequest("the first message must be Hello")
	}
	if hello.GetDeviceId() != id.DeviceID {
		return fmt.Errorf("%w: token is bound to device %q, hello says %q", hallerr.ErrPermission, id.DeviceID, hello.GetDeviceId())
	}
	dev := id.DeviceID
	if err := d.opts.Ready(); err != nil && !errors.Is(err, hallerr.ErrShuttingDown) {
		// Nothing it sends could be stored: the device keeps its events
		// and comes back after the retry delay.
		return fmt.Errorf("%w (%v): keep the events and retry later", hallerr.ErrNotReady, err)
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	stop := context.AfterFunc(d.ctx, func() { cancel(hallerr.ErrShuttingDown) })
	defer stop()

	l := &link{linkSender{dev: dev, ctx: ctx, cancel: cancel, stream: stream.Send}}
	// Revoking the device's token cuts the link.
	defer d.streams.Track(id.TokenID, func() {
		l.cancel(fmt.Errorf("%w: the device's token was revoked", hallerr.ErrUnauthenticated))
	})()
	beatEvery := HeartbeatEvery(d.hall.Fleet(), d.opts.HeartbeatBudget, d.opts.HeartbeatInterval)
	sess, _, err := d.hall.Open(ctx, dev, hello, l, beatEvery)
	// Nothing may call Send once Serve returns: the link is cut (a
	// stream ending by the device's EOF or a protocol error has not
	// cancelled ctx yet) and what is sending is waited for; then the
	// session ends.
	defer func() {
		cancel(nil)
		_ = l.close()
		if sess != nil {
			sess.Close()
		}
	}()
	if err != nil {
		if ctx.Err() != nil {
			return causeStatus(ctx, l.close())
		}
		return err
	}
	d.counters.connects.Add(1)

	// Receive loop, with a watchdog: silence for SilenceAfter its
	// heartbeat interval means the device is gone (keepalive catches dead
	// connections too).
	// The device is heard when a message arrives, not when it is handled:
	// a press waiting for its commit must not make its heartbeats late.
	// Heartbeats are handled here, on the receive goroutine (they wait for
	// nothing); events go to the loop below, one at a time. While an event
	// waits for the loop, the device counts as heard: it is the hall that
	// is busy.
	type arrival struct {
		m  *pb.DeviceMessage
		at time.Time // when it arrived (real time), for the ingest monitor (fanout.Ingest)
	}
	msgs := make(chan arrival)
	recvErr := make(chan error, 1)
	var heard atomic.Int64 // server clock, Unix ns; 0 while an event waits for the loop
	heard.Store(d.clock.Now().UnixNano())
	go func() {
		for {
			m, err := stream.Recv()
			if err != nil {
				recvErr <- err
				return
			}
			heard.Store(d.clock.Now().UnixNano())
			d.counters.received.Add(1)
			if hb := m.GetHeartbeat(); hb != nil {
				sess.Heartbeat(hb)
				continue
			}
			heard.Store(0)
			select {
			case msgs <- arrival{m, time.Now()}:
				heard.Store(d.clock.Now().UnixNano())
			case <-ctx.Done():
				return
			}
		}
	}()
	defer d.watchSilence(dev, beatEvery, &heard, cancel)()
	for {
		select {
		case <-ctx.Done():
			return causeStatus(ctx, l.close())
		case err := <-recvErr:
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		case a := <-msgs:
			if err := sess.Handle(ctx, a.m); err != nil {
				return err
			}
			d.ingest.ObserveAck(time.Since(a.at))
		}
	}
}

// watchSilence cuts a device's link (DEADLINE_EXCEEDED) once nothing was
// heard from it for SilenceAfter its heartbeat interval (every). It looks
// when the silence would be complete, not at every message. If it looks
// late by more than a heartbeat interval, or the hall is behind its work
// (Lag), it is the hall that is slow, not necessarily the device: the
// device gets the whole silence again rather than being cut for the
// hall's delay (a dead connection is still found by keepalive). It
// returns the function that stops it.
func (d *Door) watchSilence(dev string, every time.Duration, heard *atomic.Int64, cancel context.CancelCauseFunc) (stop func()) {
	silence := SilenceAfter(every, d.opts.HeartbeatInterval)
	var (
		mu      sync.Mutex
		t       mono.Timer
		stopped bool
		due     = d.clock.Now().Add(silence)
	)
	mu.Lock()
	defer mu.Unlock()
	t = d.clock.AfterFunc(silence, func() {
		mu.Lock()
		defer mu.Unlock()
		if stopped {
			return
		}
		now := d.clock.Now()
		var quiet time.Duration // 0 while a message waits to be handled
		if at := heard.Load(); at != 0 {
			quiet = now.Sub(time.Unix(0, at))
		}
		switch late := now.Sub(due); {
		case quiet < silence:
			due = now.Add(silence - quiet)
		case late > every || d.opts.Overloaded():
			d.counters.lateWatchdogs.Add(1)
			d.log.Warn("the hall is behind (overloaded): a clock that seems silent gets more time", "device", dev, "late", late, "quiet", quiet,
				"sched_p99", time.Duration(d.opts.SchedLatency()))
			due = now.Add(silence)
		default:
			d.counters.silenceCuts.Add(1)
			cancel(fmt.Errorf("%w: device %s sent nothing for %s: taken offline", hallerr.ErrDeviceSilent, dev, silence))
			return
		}
		t.Reset(due.Sub(now))
	})
	return func() {
		mu.Lock()
		defer mu.Unlock()
		stopped = true
		t.Stop()
	}
}

// causeStatus is why a link ended: the cause it was cut with (a newer
// connection, silence, shutdown), else its Send's failure, else its
// context's end.
func causeStatus(ctx context.Context, sendErr error) error {
	if c := context.Cause(ctx); c != nil && !errors.Is(c, context.Canceled) && !errors.Is(c, context.DeadlineExceeded) {
		return c
	}
	if sendErr != nil {
		return sendErr
	}
	return status.FromContextError(ctx.Err()).Err()
}

// Send queues a message for the device (hall.DeviceLink).
func (l *link) Send(m *pb.ServerMessage) bool { return l.send(m) }

// Reply queues an acknowledgement and sends it on the receive loop's
// goroutine if nothing is sending (hall.DeviceLink).
func (l *link) Reply(m *pb.ServerMessage) bool { return l.sendHere(m) }

// Cut ends the link with cause (hall.DeviceLink).
func (l *link) Cut(cause error) { l.cancel(cause) }
