package gateway

// Replays. Each message of a hall's stream carries its outbox number,
// under the hall's signature: the hall numbers what it publishes in the
// order it commits it. A signature proves who wrote a message, not that
// it is new: anyone who may write the hall's NATS can publish a genuine
// message again (a broadcast token's issue after its revocation, the
// stream's first Hall-Start). So a gateway applies a message only if its
// number is above the last it applied; a Hall-Start only so (a hall
// restored from a backup numbers its new start above everything its
// stream held). The rest is refused, counted and logged.
//
// One exception keeps the hall's own repair working: when a message
// someone else wrote took a place in the stream, the hall's message meant
// for it is missing and the hall sends it, and those after it, again. The
// numbers a gateway skipped over (and those of events it could not apply
// for want of the one missing) are remembered, a bounded few, and each
// is applied once when it comes; a number applied is never applied again.

// maxMissing bounds the numbers remembered as skipped over: a hall's
// resend covers one publishing window (hundreds of messages).
const maxMissing = 4096

// order is which outbox numbers of a hall the gateway has applied. The
// follower's goroutine only.
type order struct {
	seen    bool                // a message was applied
	last    uint64              // the highest number applied
	missing map[uint64]struct{} // numbers below last not applied
}

// admit reports whether a message numbered n, marked Hall-Start or not,
// may be applied.
func (o *order) admit(n uint64, start bool) bool {
	if !o.seen || n > o.last {
		return true
	}
	if start {
		return false
	}
	_, ok := o.missing[n]
	return ok
}

// record notes the message numbered n as read: applied, or not (an event
// that came before the one it follows), to be taken when it comes again.
// A Hall-Start forgets the hall's earlier numbers but the last.
func (o *order) record(n uint64, start, applied bool) {
	if start || o.missing == nil {
		o.missing = map[uint64]struct{}{}
	}
	if gap := n - o.last - 1; o.seen && n > o.last+1 && !start && len(o.missing)+int(min(gap, maxMissing)) <= maxMissing {
		for k := o.last + 1; k < n; k++ {
			o.missing[k] = struct{}{}
		}
	}
	delete(o.missing, n)
	if !applied && len(o.missing) < maxMissing {
		o.missing[n] = struct{}{}
	}
	if !o.seen || n > o.last {
		o.last = n
	}
	o.seen = true
}
