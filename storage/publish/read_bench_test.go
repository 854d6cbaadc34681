package publish

import (
	"context"
	"testing"

	"github.com/chesshall/hallclock/formats/hallstream"
	"github.com/chesshall/hallclock/storage"
)

// The publisher's own work for a window of 256 events, NATS left out:
// reading the rows and encoding their messages — read back from the
// database (after a restart, or behind) or handed over in memory (as
// they commit).
//
//	go test -run - -bench OutboxToMessages -benchmem ./storage/publish
func BenchmarkOutboxToMessages(b *testing.B) {
	const window = 256
	h := newHall(b, b.TempDir(), 64)
	ctx := context.Background()
	recs, err := h.st.OutboxAfter(ctx, 0, 0)
	if err != nil {
		b.Fatal(err)
	}
	after := recs[len(recs)-1].ID // the records; then only events
	h.play(window / 64)
	encode := func(b *testing.B, rows []storage.OutboxEntry) {
		if len(rows) != window {
			b.Fatalf("%d rows, want %d", len(rows), window)
		}
		for _, r := range rows {
			m, err := message(h.id, r)
			if err != nil {
				b.Fatal(err)
			}
			if r.EventJSON != nil {
				_, _, err = hallstream.EncodeEvent(m, r.EventJSON)
			} else {
				_, _, err = hallstream.Encode(m)
			}
			if err != nil {
				b.Fatal(err)
			}
		}
	}
	b.Run("database", func(b *testing.B) {
		for b.Loop() {
			rows, err := h.st.OutboxAfter(ctx, after, window)
			if err != nil {
				b.Fatal(err)
			}
			encode(b, rows)
		}
	})
	b.Run("memory", func(b *testing.B) {
		var buf []storage.OutboxEntry
		for b.Loop() {
			buf, _ = h.st.OutboxRecent(buf, after, window)
			encode(b, buf)
		}
	})
}
