package fanout

import (
	"fmt"

	"github.com/chesshall/hallclock/server/hallerr"
)

// CheckResume refuses a watcher resuming after a change the hub has not
// seen (hallerr.ErrBeyondHead): it would wait silently for numbers that
// may never come (a hall restored from an older backup numbers its changes
// anew). Both the hall's Watch and a gateway's check it before Subscribe.
func CheckResume(h *Hub, from uint64) error {
	return CheckResumeAt(h, EventID{Seq: from})
}

// CheckResumeAt is CheckResume for an event id (Last-Event-ID). Its count
// of changes without a seq is not checked: a hub that started afresh at
// the same seq counts them anew, and SubscribeAt sends such boards again.
func CheckResumeAt(h *Hub, from EventID) error {
	if last := h.LastSeq(); from.Seq > last {
		return fmt.Errorf("%w: from_seq %d is beyond the newest change, %d: resume from at most %d, or from 0 for a snapshot",
			hallerr.ErrBeyondHead, from.Seq, last, last)
	}
	return nil
}
