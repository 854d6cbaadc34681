package hall

import (
	"fmt"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/server/hallerr"
	"github.com/chesshall/hallclock/storage"
)

// Device is what the hall last heard from a clock device. Its fields are
// guarded by its own lock, not the floor's: every heartbeat and
// acknowledgement writes them.
type Device struct {
	mu        sync.Mutex
	rec       storage.DeviceRecord // rec.ID never changes
	online    bool
	acked     uint64
	persisted time.Time // when its last-heard record was last queued for the store
	// board is the board whose clock it keeps (nil: none), as the
	// registry has it (floor.keep): its heartbeats find the board here.
	board atomic.Pointer[Board]
	// voice is what its last Hello said it can say (a talking clock,
	// FIDE 2018 D.2.6.1: the languages of its voice); nil: nothing.
	voice *pb.DeviceCapabilities
}

// setAcked records the device's highest event committed.
func (d *Device) setAcked(seq uint64) {
	d.mu.Lock()
	d.acked = seq
	d.mu.Unlock()
}

// attach registers a device's new session's link (Open), replacing (and
// cutting) an older one, with what its Hello said (its firmware, whether
// it is a talking clock), and tells its board.
func (h *Hall) attach(l DeviceLink, dev string, hello *pb.Hello, acked uint64) *Device {
	firmware := hello.GetFirmware()
	f := &h.floor
	f.mu.Lock()
	old := f.links[dev]
	f.links[dev] = l
	delete(f.told, dev) // until its board is sent (SendAssignment)
	info := f.devices[dev]
	if info == nil {
		info = &Device{rec: storage.DeviceRecord{ID: dev, BatteryPct: -1}}
		info.board.Store(f.boards[f.byDevice[dev]])
		f.devices[dev] = info
	}
	info.mu.Lock()
	info.online = true
	info.rec.Firmware = firmware
	info.rec.LastSeen = h.clock.Now()
	info.acked = acked
	info.voice = nil
	if c := hello.GetCapabilities(); c.GetAnnounce() {
		info.voice = &pb.DeviceCapabilities{Announce: true, Languages: slices.Clone(c.GetLanguages())}
	}
	rec := info.rec
	info.mu.Unlock()
	b := f.boards[f.byDevice[dev]]
	f.mu.Unlock()
	if old != nil {
		old.Cut(TakenOver(dev))
	}
	_ = h.store.Write(h.ctx, func(tx *storage.Tx) error { return tx.TouchDevice(rec) })
	if b != nil {
		b.post(b.deviceOnline)
	}
	h.log.Info("device connected", "device", dev, "firmware", firmware, "acked", acked)
	return info
}

// TakenOver is why a device's older connection ended when a newer one of
// the same device (its token: a second browser, a clock that reconnected
// before its old stream was seen gone) opened: ErrReplaced (ABORTED; close
// code 4010 on the WebSocket). A device's library stops reconnecting on
// it, so that two connections of one device never take turns.
func TakenOver(dev string) error {
	return fmt.Errorf("%w: another connection of this device took over (device %s): this one has ended and does not reconnect; "+
		"close the other page or clock, or reload this one to take the clock back", hallerr.ErrReplaced, dev)
}

// detach unregisters a link whose session ended (Session.Close), if it is
// still the device's.
func (h *Hall) detach(l DeviceLink, dev string) {
	f := &h.floor
	f.mu.Lock()
	current := f.links[dev] == l
	if current {
		delete(f.links, dev)
		delete(f.told, dev)
		if info := f.devices[dev]; info != nil {
			info.mu.Lock()
			info.online = false
			info.mu.Unlock()
		}
	}
	b := f.boards[f.byDevice[dev]]
	f.mu.Unlock()
	if !current {
		return
	}
	if b != nil {
		b.post(b.deviceOnline)
	}
	h.log.Info("device disconnected", "device", dev)
}

// heartbeat records a device's telemetry and its board time, which its
// board takes as its reference. It takes no lock a press waits on and
// writes nothing itself: what the device last said goes to the store
// with others' at most every lastHeardEvery (lastHeard).
func (h *Hall) heartbeat(info *Device, hb *pb.Heartbeat) {
	now := h.clock.Now()
	info.mu.Lock()
	info.rec.LastSeen = now
	info.rec.BatteryPct = int(hb.GetBatteryPct())
	info.rec.DriftPPM = hb.GetDriftPpm()
	if now.Sub(info.persisted) > lastHeardEvery {
		info.persisted = now
		h.lastHeard.add(h, info.rec)
	}
	info.mu.Unlock()
	if b := info.board.Load(); b != nil && hb.GetBoardTMs() > 0 {
		b.heartbeatRef(info.rec.ID, hb.GetBoardTMs(), now)
	}
}

// Devices lists every device the hall knows of — heard from since the
// start, or stored — with what it last said, whether it is connected, the
// board it keeps and its kind (stored: a tablet), by id.
func (h *Hall) Devices(stored []storage.DeviceRecord) []*pb.Device {
	f := &h.floor
	f.mu.RLock()
	defer f.mu.RUnlock()
	seen := map[string]bool{}
	kind := map[string]string{} // the store's: a tablet is one from its enrolment
	for _, r := range stored {
		kind[r.ID] = r.Kind
	}
	var out []*pb.Device
	add := func(r storage.DeviceRecord, info *Device) {
		d := &pb.Device{DeviceId: r.ID, Firmware: r.Firmware, LastSeenUnixMs: r.LastSeen.UnixMilli(),
			BatteryPct: int32(r.BatteryPct), DriftPpm: r.DriftPPM, BoardId: f.byDevice[r.ID], Kind: kind[r.ID]}
		if info != nil {
			d.Online, d.AckedSeq = info.online, info.acked
			d.CanAnnounce, d.Voices = info.voice.GetAnnounce(), slices.Clone(info.voice.GetLanguages())
		}
		out = append(out, d)
	}
	for _, info := range f.devices {
		info.mu.Lock()
		seen[info.rec.ID] = true
		add(info.rec, info)
		info.mu.Unlock()
	}
	for _, r := range stored {
		if !seen[r.ID] {
			add(r, nil)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].GetDeviceId() < out[j].GetDeviceId() })
	return out
}

// Voice says whether device dev, connected now, is a talking clock, and
// the languages of its voice (empty: English only).
func (h *Hall) Voice(dev string) (talking bool, voices []string) {
	f := &h.floor
	f.mu.RLock()
	info, online := f.devices[dev], f.links[dev] != nil
	f.mu.RUnlock()
	if info == nil || !online {
		return false, nil
	}
	info.mu.Lock()
	defer info.mu.Unlock()
	return info.voice.GetAnnounce(), slices.Clone(info.voice.GetLanguages())
}

// Online is how many clock devices are connected now.
func (h *Hall) Online() int {
	f := &h.floor
	f.mu.RLock()
	defer f.mu.RUnlock()
	return len(f.links)
}
