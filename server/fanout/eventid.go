package fanout

import (
	"fmt"
	"strconv"
	"strings"
)

// EventID names one state of a hub: every change up to the hall's
// sequence number Seq, and the Live changes that came after it without a
// seq of their own (a device going offline, a board added). Each change
// the hub records gives it a new, greater id, so an id names one state of
// the hall: the id of an update is the state it brings its watcher to, and
// a watcher resuming from it gets exactly what changed after.
//
// As a server-sent event's id it is "Seq", or "Seq.Live" when Live > 0.
// A Watch stream's updates carry Seq only (WatchUpdate.seq): resuming from
// it sends again the boards whose live fields changed at that seq.
type EventID struct {
	Seq  uint64
	Live uint64
}

// After says whether id names a later state than o.
func (id EventID) After(o EventID) bool {
	return id.Seq > o.Seq || id.Seq == o.Seq && id.Live > o.Live
}

// String is the id as a server-sent event carries it.
func (id EventID) String() string {
	if id.Live == 0 {
		return strconv.FormatUint(id.Seq, 10)
	}
	return strconv.FormatUint(id.Seq, 10) + "." + strconv.FormatUint(id.Live, 10)
}

// appendTo appends the id as String does.
func (id EventID) appendTo(b []byte) []byte {
	b = strconv.AppendUint(b, id.Seq, 10)
	if id.Live > 0 {
		b = append(b, '.')
		b = strconv.AppendUint(b, id.Live, 10)
	}
	return b
}

// ParseEventID reads an event id as String writes it (a browser sends it
// back as Last-Event-ID); a plain sequence number is one too.
func ParseEventID(s string) (EventID, error) {
	s = strings.TrimSpace(s)
	seq, live, hasLive := strings.Cut(s, ".")
	var id EventID
	var err error
	if id.Seq, err = strconv.ParseUint(seq, 10, 64); err == nil && hasLive {
		id.Live, err = strconv.ParseUint(live, 10, 64)
	}
	if err != nil {
		return EventID{}, fmt.Errorf("event id %q is not a sequence number (as 721) nor one with a count of live changes (as 721.3)", s)
	}
	return id, nil
}
