package publish

import (
	"context"
	"crypto/ed25519"
	"testing"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/chesshall/hallclock/formats/hallstream"
)

// The publisher signs a read of the outbox once per batch (format 3), and
// a publisher that stopped halfway through a batch — its messages in the
// stream up to there, its published mark further back, as after kill -9 —
// leaves a stream the next session finds its place in and goes on from:
// the cut batch's messages verify on their own, what follows is sealed
// afresh, and a follower reads the whole stream.
func TestPublishStoppedInTheMiddleOfABatch(t *testing.T) {
	h := newHall(t, t.TempDir(), 4)
	h.play(20) // 80 events and the records: more than one batch in the first read
	a := startNATS(t)
	nca := connect(t, a.URL())
	p, stop := run(t, h, nca, Options{})
	drained(t, p)
	stop()
	full := readStream(t, nca, h.id)

	// The first batch, and where to cut it.
	first, err := hallstream.ReadSeal(full[0].Header)
	if err != nil {
		t.Fatal(err)
	}
	if first.Format != hallstream.FormatBatch || first.Batch != hallstream.MaxBatch {
		t.Fatalf("the stream's first message: format %d in a batch of %d, want format %d in a batch of %d (the first read held %d rows)",
			first.Format, first.Batch, hallstream.FormatBatch, hallstream.MaxBatch, len(full))
	}
	for _, m := range full[1:first.Batch] {
		if m.Header.Get(hallstream.HeaderSignature) != full[0].Header.Get(hallstream.HeaderSignature) {
			t.Fatalf("stream seq %d, in the first batch, has a signature of its own", m.StreamSeq)
		}
	}
	cut := first.Batch / 2

	// Another NATS holds the stream as the stopped publisher left it.
	ctx := context.Background()
	jsa, _ := jetstream.New(nca)
	sa, err := jsa.Stream(ctx, hallstream.StreamName(h.id))
	if err != nil {
		t.Fatal(err)
	}
	info, err := sa.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	b := startNATS(t)
	ncb := connect(t, b.URL())
	jsb, _ := jetstream.New(ncb)
	if _, err := jsb.CreateStream(ctx, info.Config); err != nil {
		t.Fatal(err)
	}
	for _, m := range full[:cut] {
		msg := nats.NewMsg(m.Subject())
		msg.Header, msg.Data = m.Header, m.Data
		if _, err := jsb.PublishMsg(ctx, msg); err != nil {
			t.Fatal(err)
		}
	}
	if err := h.st.RewindPublished(ctx, full[cut/2].Outbox); err != nil {
		t.Fatal(err)
	}

	h.play(2)
	p, _ = run(t, h, ncb, Options{})
	drained(t, p)
	msgs := readStream(t, ncb, h.id)
	checkExactlyOnce(t, h, msgs)
	follower := hallstream.NewTrust([]ed25519.PublicKey{p.signer.Public()}, false)
	for _, m := range msgs {
		if _, err := follower.Check(m.Subject(), m.Header, m.Data); err != nil {
			t.Fatalf("stream seq %d (outbox row %d): %v", m.StreamSeq, m.Outbox, err)
		}
	}
	if msgs[cut].Header.Get(hallstream.HeaderSignature) == msgs[cut-1].Header.Get(hallstream.HeaderSignature) {
		t.Error("the message after the cut carries the cut batch's signature: it was not sealed afresh")
	}
}
