package clockdev

import (
	"fmt"
	"time"

	hallv1 "github.com/chesshall/hallclock/proto/hall/v1"
)

// NoticeKind says what a Notice reports. Append only.
type NoticeKind int8

const (
	NoticeInvalid      NoticeKind = iota
	NoticeConnected               // the server welcomed the device (Status().Connected is true)
	NoticeDisconnected            // the stream ended; Err says why
	NoticeAssignment              // an Assignment arrived; Adopted says whether the local clock took the server's state
	NoticeCommand                 // an arbiter command was handled; Event is what was reported, Err the local refusal if any
	NoticeEvent                   // an event was recorded in the outbox (a local action, a flag fall or a command)
	NoticeAck                     // the server acknowledged every event up to UpTo
	NoticeRejection               // the server's rules refused the event Rejection.Seq (it is acknowledged all the same)
	NoticeAnnouncement            // the talking clock said Speech (its button, or the hall's Announce)
	NoticeTakenOver               // another connection of this device took over; Run returned ErrTakenOver and does not reconnect; Err is the hall's words
)

var noticeNames = [...]string{"invalid", "connected", "disconnected", "assignment", "command", "event", "ack", "rejection", "announcement", "taken over"}

func (k NoticeKind) String() string {
	if k >= 0 && int(k) < len(noticeNames) {
		return noticeNames[k]
	}
	return fmt.Sprintf("NoticeKind(%d)", int8(k))
}

// Notice is something that happened to a Device, for simulators, displays
// and tests. Only the fields of its Kind are set; messages are copies the
// receiver may keep.
type Notice struct {
	Kind       NoticeKind
	Assignment *hallv1.Assignment  // NoticeAssignment (nil board_id: unassigned)
	Adopted    bool                // NoticeAssignment: the local state was replaced by the server's
	Command    *hallv1.Command     // NoticeCommand
	Event      *hallv1.DeviceEvent // NoticeEvent, NoticeCommand
	UpTo       uint64              // NoticeAck
	Rejection  *hallv1.Rejection   // NoticeRejection
	Err        error               // NoticeDisconnected, NoticeTakenOver: why; NoticeCommand: the local rules' refusal; NoticeAssignment: why it could not be used
	RetryIn    time.Duration       // NoticeDisconnected: how long the device waits before it reconnects (on its Clock)
	Speech     *Speech             // NoticeAnnouncement
}
