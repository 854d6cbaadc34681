package hall

import (
	"sync"
	"time"

	"github.com/chesshall/hallclock/storage"
)

// What each device last said (when, its battery, its drift) is kept in
// memory and written to the store at most every lastHeardEvery per device,
// for the device list after a restart. The records due are gathered for
// lastHeardGather and written together, one Write for all of them: a
// hall of 10,000 clocks then writes some 80 records four times a second
// instead of 330 writes a second, each with its goroutine and savepoint
// in the group commit.
const (
	lastHeardEvery  = 30 * time.Second
	lastHeardGather = 250 * time.Millisecond
)

// lastHeard gathers the device records due to be written.
type lastHeard struct {
	mu      sync.Mutex
	pending []storage.DeviceRecord
}

// add queues a device's record; the first of a gathering schedules the
// write, on the hall's clock.
func (l *lastHeard) add(h *Hall, r storage.DeviceRecord) {
	l.mu.Lock()
	first := len(l.pending) == 0
	l.pending = append(l.pending, r)
	l.mu.Unlock()
	if first {
		h.clock.AfterFunc(lastHeardGather, func() { l.flush(h) })
	}
}

// flush writes what was gathered, in one Write.
func (l *lastHeard) flush(h *Hall) {
	l.mu.Lock()
	rs := l.pending
	l.pending = nil
	l.mu.Unlock()
	if len(rs) == 0 {
		return
	}
	err := h.store.Write(h.ctx, func(tx *storage.Tx) error {
		for _, r := range rs {
			if err := tx.TouchDevice(r); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil && h.ctx.Err() == nil {
		h.log.Warn("devices' last-heard records not written (the store is behind or failing); the next heartbeats write them again",
			"devices", len(rs), "err", err)
		// The next heartbeat of each queues it again.
		h.floor.mu.RLock()
		for _, r := range rs {
			if d := h.floor.devices[r.ID]; d != nil {
				d.mu.Lock()
				d.persisted = time.Time{}
				d.mu.Unlock()
			}
		}
		h.floor.mu.RUnlock()
	}
}
