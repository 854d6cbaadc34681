package hallstream

import (
	"bytes"
	"crypto/ed25519"
	"errors"
	"fmt"
)

// Why a follower refuses a message (Trust.Check): each wraps ErrNotTheHalls.
var (
	// ErrNotTheHalls: the hall did not write the message.
	ErrNotTheHalls = errors.New("not written by the hall")
	// ErrUnsigned: a format 1 message where only signed ones are read.
	ErrUnsigned = fmt.Errorf("%w: unsigned", ErrNotTheHalls)
	// ErrBadSignature: the signature does not match the message.
	ErrBadSignature = fmt.Errorf("%w: its signature does not match it", ErrNotTheHalls)
	// ErrUntrustedKey: signed by a key the follower does not trust: not
	// the pinned one, not endorsed by it, or one the hall has replaced.
	ErrUntrustedKey = fmt.Errorf("%w: signed by a key that is not the hall's", ErrNotTheHalls)
)

// Trust is a follower's trust in one hall's keys: which key the hall's
// messages must be signed by. It starts from the keys pinned (the
// operator's, from the hall's banner) or, with none, from the key of the
// first signed message (trust on first use), and follows the hall's
// rotations: a message signed by a new key whose chain endorses it from
// the trusted one moves the trust to the new key, and the old one is no
// longer accepted. Not safe for concurrent use: one follower, in stream
// order.
type Trust struct {
	pinned []ed25519.PublicKey
	// allowUnsigned reads format 1 messages until the hall's first
	// signed one (a stream written before the hall signed).
	allowUnsigned bool

	current ed25519.PublicKey // nil until a signed message was accepted
	retired [][]byte          // keys the trust moved on from
	last    verified          // the signature last checked: a batch's
}

// NewTrust returns the trust in a hall's keys: pinned (any of them may
// sign the first signed message; none: the first signed message's key),
// and whether unsigned messages are read until a signed one comes.
func NewTrust(pinned []ed25519.PublicKey, allowUnsigned bool) *Trust {
	return &Trust{pinned: pinned, allowUnsigned: allowUnsigned}
}

// Key returns the key the hall's messages are signed by now, nil before
// the first signed message.
func (t *Trust) Key() ed25519.PublicKey { return t.current }

// Check reads a message's headers and reports whether the hall wrote it,
// moving the trust along a rotation. A message refused changes nothing.
func (t *Trust) Check(subject string, h Header, body []byte) (Seal, error) {
	s, err := ReadSeal(h)
	if err != nil {
		return s, fmt.Errorf("%w: %v", ErrNotTheHalls, err)
	}
	if s.Format == 1 {
		if t.allowUnsigned && t.current == nil {
			return s, nil
		}
		if t.current != nil {
			return s, fmt.Errorf("%w, after the hall's signed messages", ErrUnsigned)
		}
		return s, fmt.Errorf("%w (a hall that does not sign yet is read only with -allow-unsigned)", ErrUnsigned)
	}
	if !s.verify(subject, body, &t.last) {
		return s, ErrBadSignature
	}
	switch {
	case t.current != nil && s.Key.Equal(t.current):
		return s, nil
	case t.isRetired(s.Key):
		return s, fmt.Errorf("%w: %s was replaced by %s", ErrUntrustedKey, KeyString(s.Key), KeyString(t.current))
	case t.current == nil && (len(t.pinned) == 0 || t.isPinned(s.Key)):
		t.current = s.Key
		return s, nil
	}
	if !t.endorsed(s) {
		want := "the pinned key"
		if t.current != nil {
			want = KeyString(t.current) + " or a key it endorsed"
		}
		return s, fmt.Errorf("%w: %s, want %s", ErrUntrustedKey, KeyString(s.Key), want)
	}
	if t.current != nil {
		t.retired = append(t.retired, t.current)
	}
	t.current = s.Key
	return s, nil
}

// endorsed reports whether s's chain leads from a trusted key (the
// current one, or a pinned one before any) to s's key, every link
// verified.
func (t *Trust) endorsed(s Seal) bool {
	from := -1
	for i, e := range s.Chain {
		if (t.current != nil && e.By.Equal(t.current)) || (t.current == nil && t.isPinned(e.By)) {
			from = i
		}
	}
	if from < 0 {
		return false
	}
	for i := from; i < len(s.Chain); i++ {
		next := s.Key
		if i+1 < len(s.Chain) {
			next = s.Chain[i+1].By
		}
		if !ed25519.Verify(s.Chain[i].By, EndorsedBytes(next), s.Chain[i].Sig) {
			return false
		}
	}
	return true
}

func (t *Trust) isPinned(k ed25519.PublicKey) bool {
	for _, p := range t.pinned {
		if p.Equal(k) {
			return true
		}
	}
	return false
}

func (t *Trust) isRetired(k ed25519.PublicKey) bool {
	for _, r := range t.retired {
		if bytes.Equal(r, k) {
			return true
		}
	}
	return false
}
