package hall

import (
	"context"
	"time"

	"github.com/chesshall/hallclock/rules"
	"github.com/chesshall/hallclock/storage"
)

// armTimer sets the virtual clock's timer for the next deadline: when it
// fires the server, keeping the time, records the flag at its exact instant.
func (b *Board) armTimer() {
	b.stopTimer()
	d, ok := b.state.NextDeadline()
	if !ok || b.state.Over() {
		return
	}
	wait := time.Duration(d-b.now()) * time.Millisecond
	b.timer = b.h.clock.AfterFunc(max(wait, 0), func() {
		b.post(func() { b.virtualDeadline(d) })
	})
}

func (b *Board) virtualDeadline(d int64) {
	if b.rec.Source != storage.SourceVirtual || b.state.Over() {
		return
	}
	if b.now() < d {
		b.armTimer()
		return
	}
	e := rules.Event{Kind: rules.KindFlag, T: d, Side: b.state.ToMove}
	next, err := rules.Apply(b.state, e)
	if err != nil {
		b.armTimer() // a period was added at the flag, or the deadline moved
		return
	}
	ctx, cancel := context.WithTimeout(b.h.ctx, 10*time.Second)
	defer cancel()
	if err := b.commit(ctx, change{next: next, event: e, actor: "server", reason: "virtual clock"}); err != nil {
		b.h.log.Error("virtual clock deadline not recorded", "board", b.rec.ID, "err", err)
		b.armTimer()
	}
}
