package hall

import (
	"fmt"
	"sort"
	"sync"

	"github.com/chesshall/hallclock/server/hallerr"
	"github.com/chesshall/hallclock/storage"
)

// floor is the registry of the hall's boards and clock devices: which
// boards there are, which device keeps which board's clock, which devices
// are connected (their links) and what each last said. Lookups on the
// press path take its lock to read; nothing slow runs under it, and no
// other lock is taken while it is held, save a device's own (Device).
type floor struct {
	mu       sync.RWMutex
	boards   map[string]*Board
	byDevice map[string]string     // device id → board id
	links    map[string]DeviceLink // device id → its live link
	// told holds a device's live link once the link was sent its board
	// (an Assignment, empty if none): commands and announcements go to
	// it only then, so that none reaches a clock before its board
	// (docs/protocol.md: Hello → Welcome → Assignment → the rest).
	told    map[string]DeviceLink
	devices map[string]*Device // devices heard from since the start
}

// keep records that dev keeps board boardID's clock ("": no board's),
// in the registry and on the device's record, where its heartbeats find
// the board without the registry's lock. f.mu is held for writing.
func (f *floor) keep(dev, boardID string) {
	if boardID == "" {
		delete(f.byDevice, dev)
	} else {
		f.byDevice[dev] = boardID
	}
	if d := f.devices[dev]; d != nil {
		d.board.Store(f.boards[boardID]) // nil if none (yet: addBoard sets it)
	}
}

// Fleet is how many clocks the hall counts on: the devices that keep a
// board's clock, or that are connected if more.
func (h *Hall) Fleet() int {
	f := &h.floor
	f.mu.RLock()
	defer f.mu.RUnlock()
	return max(len(f.byDevice), len(f.links))
}

func newFloor() floor {
	return floor{boards: map[string]*Board{}, byDevice: map[string]string{}, links: map[string]DeviceLink{}, told: map[string]DeviceLink{}, devices: map[string]*Device{}}
}

// Board returns a board by id (hallerr.ErrUnknownBoard if there is none).
func (h *Hall) Board(id string) (*Board, error) {
	f := &h.floor
	f.mu.RLock()
	defer f.mu.RUnlock()
	b, ok := f.boards[id]
	if !ok {
		return nil, fmt.Errorf("%w %q", hallerr.ErrUnknownBoard, id)
	}
	return b, nil
}

// BoardOfDevice returns the board whose clock dev keeps, or nil.
func (h *Hall) BoardOfDevice(dev string) *Board {
	f := &h.floor
	f.mu.RLock()
	defer f.mu.RUnlock()
	return f.boards[f.byDevice[dev]]
}

// Boards returns a round's boards ("": every board) by section and number.
func (h *Hall) Boards(roundID string) []*Board {
	f := &h.floor
	f.mu.RLock()
	var bs []*Board
	for _, b := range f.boards {
		if roundID == "" || b.rec.RoundID == roundID {
			bs = append(bs, b)
		}
	}
	f.mu.RUnlock()
	sort.Slice(bs, func(i, j int) bool {
		if bs[i].rec.Section != bs[j].rec.Section {
			return bs[i].rec.Section < bs[j].rec.Section
		}
		if bs[i].rec.Number != bs[j].rec.Number {
			return bs[i].rec.Number < bs[j].rec.Number
		}
		return bs[i].rec.ID < bs[j].rec.ID
	})
	return bs
}

// link returns a device's live link, or nil.
func (h *Hall) link(dev string) DeviceLink {
	f := &h.floor
	f.mu.RLock()
	defer f.mu.RUnlock()
	return f.links[dev]
}

// toldLink returns a device's live link if it was sent its board
// (assigned), or nil: what a board sends its clock (a command, an
// announcement) goes through it, never ahead of the Assignment.
func (h *Hall) toldLink(dev string) DeviceLink {
	f := &h.floor
	f.mu.RLock()
	defer f.mu.RUnlock()
	if l := f.told[dev]; l != nil && f.links[dev] == l {
		return l
	}
	return nil
}

// assigned records that link l of dev was sent its board (SendAssignment,
// on the board's actor, before the board's pending commands), if l is
// still the device's live link.
func (h *Hall) assigned(l DeviceLink, dev string) {
	f := &h.floor
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.links[dev] == l {
		f.told[dev] = l
	}
}

// DeviceState says whether a device is connected and which board it keeps
// ("" none).
func (h *Hall) DeviceState(dev string) (online bool, boardID string) {
	f := &h.floor
	f.mu.RLock()
	defer f.mu.RUnlock()
	return f.links[dev] != nil, f.byDevice[dev]
}

// addBoard registers a board; its actor runs when it has work (Board.do).
func (h *Hall) addBoard(b *Board) {
	h.sink.Place(b.rec.ID, b.rec.Section)
	f := &h.floor
	f.mu.Lock()
	f.boards[b.rec.ID] = b
	if b.rec.DeviceID != "" {
		f.keep(b.rec.DeviceID, b.rec.ID)
	}
	f.mu.Unlock()
	h.changes.Touch(b.rec.RoundID) // the feeds see the board from now
	b.post(func() {
		if b.rec.Source == storage.SourceVirtual {
			b.armTimer()
		}
		// The device may have connected between newBoard and now, while
		// the board was not yet registered to hear of it: ask the
		// registry again.
		b.deviceOnline()
	})
}

// moveDevice records that dev now keeps board's clock, taking it off any
// other board.
func (h *Hall) moveDevice(dev, boardID string) {
	f := &h.floor
	f.mu.Lock()
	defer f.mu.Unlock()
	if old, ok := f.byDevice[dev]; ok && old != boardID {
		if ob := f.boards[old]; ob != nil {
			ob.post(func() {
				if ob.rec.DeviceID == dev {
					ob.rec.DeviceID = ""
					ob.online = false // the device left with its link
					ob.publishLive()
				}
			})
		}
	}
	f.keep(dev, boardID)
}

// releaseDevice records that dev no longer keeps boardID's clock (if it
// still did).
func (h *Hall) releaseDevice(dev, boardID string) {
	f := &h.floor
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.byDevice[dev] == boardID {
		f.keep(dev, "")
	}
}

// removeBoard unregisters a withdrawn board and returns its device if the
// device kept it ("" otherwise).
func (h *Hall) removeBoard(b *Board, dev string) string {
	f := &h.floor
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.boards, b.rec.ID)
	if dev != "" && f.byDevice[dev] == b.rec.ID {
		f.keep(dev, "")
		return dev
	}
	return ""
}
