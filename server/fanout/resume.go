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
	if last := h.LastSeq(); from > last {
		return fmt.Errorf("%w: from_seq %d is beyond the newest change, %d: resume from at most %d, or from 0 for a snapshot",
			hallerr.ErrBeyondHead, from, last, last)
	}
	return nil
}
