package publish

import (
	"context"
	"crypto/ed25519"
	"errors"
	"testing"

	"github.com/chesshall/hallclock/formats/hallstream"
)

// Every message is signed; after a rotation the messages are signed by
// the new key and carry the old key's endorsement, so a follower that
// trusts the first key reads the whole stream and then refuses the old
// key; one pinned to the new key alone refuses what came before it.
func TestPublishSignsAndRotates(t *testing.T) {
	h := newHall(t, t.TempDir(), 2)
	h.play(3)
	n := startNATS(t)
	nc := connect(t, n.URL())
	p, stop := run(t, h, nc, Options{})
	drained(t, p)
	stop()
	first, err := Signer(context.Background(), h.st)
	if err != nil {
		t.Fatal(err)
	}
	second, err := RotateKey(context.Background(), h.st)
	if err != nil {
		t.Fatal(err)
	}
	h.play(3)
	p, _ = run(t, h, nc, Options{})
	drained(t, p)
	msgs := readStream(t, nc, h.id)

	fromFirst := hallstream.NewTrust([]ed25519.PublicKey{first.Public()}, false)
	onlySecond := hallstream.NewTrust([]ed25519.PublicKey{second}, false)
	var byFirst, bySecond, refusedBySecond int
	for _, m := range msgs {
		subject, body := m.Subject(), m.Data
		seal, err := fromFirst.Check(subject, m.Header, body)
		if err != nil {
			t.Fatalf("stream seq %d: a follower trusting the hall's first key refuses it: %v", m.StreamSeq, err)
		}
		switch {
		case seal.Key.Equal(first.Public()):
			byFirst++
		case seal.Key.Equal(second):
			bySecond++
		}
		if _, err := onlySecond.Check(subject, m.Header, body); errors.Is(err, hallstream.ErrUntrustedKey) {
			refusedBySecond++
		}
	}
	if byFirst == 0 || bySecond == 0 || byFirst+bySecond != len(msgs) || refusedBySecond != byFirst {
		t.Errorf("%d messages: %d signed by the first key, %d by the second; pinned to the second, %d refused (want those of the first)",
			len(msgs), byFirst, bySecond, refusedBySecond)
	}
	seal, _ := hallstream.ReadSeal(msgs[len(msgs)-1].Header)
	if _, err := fromFirst.Check(msgs[0].Subject(), msgs[0].Header, msgs[0].Data); !errors.Is(err, hallstream.ErrUntrustedKey) || len(seal.Chain) != 1 {
		t.Errorf("after the rotation, the first key's message again: %v (want refused); the chain %v", err, seal.Chain)
	}
}
