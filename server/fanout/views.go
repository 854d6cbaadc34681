package fanout

// Views are the hall's board states as its two kinds of reader see them:
// Live (arbiters, the chief), and Delayed by the broadcast delay
// (broadcast tokens, public feeds); Delayed is nil without a delay, when
// everyone reads Live. Every path that shows a state to a reader takes
// its hub from For, so the delay holds on all of them.
type Views struct{ Live, Delayed *Hub }

// For returns the hub a reader reads: Live for a live reader, else
// Delayed (Live when there is no delay).
func (v Views) For(live bool) *Hub {
	if !live && v.Delayed != nil {
		return v.Delayed
	}
	return v.Live
}
