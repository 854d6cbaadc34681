package publish

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"fmt"

	"github.com/chesshall/hallclock/formats/hallstream"
	"github.com/chesshall/hallclock/storage"
)

// Signing. Every message the publisher writes is signed with the hall's
// key (hallstream format 2), kept in the hall's database: followers check
// the signature before they apply anything, so nobody else can write the
// hall's stream, even where NATS lets them.

// Signer returns the hall's signer: its newest key with the chain of
// endorsements from its first. A hall without a key gets one.
func Signer(ctx context.Context, st *storage.Store) (hallstream.Signer, error) {
	keys, err := st.StreamKeys(ctx)
	if err != nil {
		return hallstream.Signer{}, err
	}
	if len(keys) == 0 {
		_, k, err := ed25519.GenerateKey(rand.Reader)
		if err != nil {
			return hallstream.Signer{}, fmt.Errorf("publish: a signing key: %w", err)
		}
		if err := st.AddStreamKey(ctx, k, nil); err != nil {
			return hallstream.Signer{}, err
		}
		if keys, err = st.StreamKeys(ctx); err != nil {
			return hallstream.Signer{}, err
		}
	}
	return signerOf(keys)
}

// signerOf is the signer of keys, oldest first: the last one signs; each
// later key's endorsement is checked here so that a damaged chain is
// found by the hall, not by its followers.
func signerOf(keys []storage.StreamKey) (hallstream.Signer, error) {
	if len(keys) == 0 {
		return hallstream.Signer{}, fmt.Errorf("publish: the hall has no signing key")
	}
	s := hallstream.Signer{Key: keys[len(keys)-1].Private}
	for i := 1; i < len(keys); i++ {
		prev := keys[i-1].Public()
		e := hallstream.Endorsement{By: prev, Sig: keys[i].Endorsement}
		if !ed25519.Verify(prev, hallstream.EndorsedBytes(keys[i].Public()), e.Sig) {
			return hallstream.Signer{}, fmt.Errorf("publish: signing key %d is not endorsed by key %d before it", keys[i].ID, keys[i-1].ID)
		}
		s.Chain = append(s.Chain, e)
	}
	return s, nil
}

// RotateKey gives the hall a new signing key, endorsed by its current one
// (made first if it has none), and returns the new public key. What the
// publisher sends from its next session on is signed with it; followers
// learn it from the endorsement every message then carries.
func RotateKey(ctx context.Context, st *storage.Store) (ed25519.PublicKey, error) {
	cur, err := Signer(ctx, st)
	if err != nil {
		return nil, err
	}
	pub, k, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("publish: a signing key: %w", err)
	}
	if err := st.AddStreamKey(ctx, k, hallstream.Endorse(cur.Key, pub).Sig); err != nil {
		return nil, err
	}
	return pub, nil
}

// ownKey reports whether k is one of the hall's keys.
func ownKey(keys []storage.StreamKey, k ed25519.PublicKey) bool {
	for _, own := range keys {
		if own.Public().Equal(k) {
			return true
		}
	}
	return false
}
