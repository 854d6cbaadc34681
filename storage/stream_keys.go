package storage

import (
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"fmt"
	"time"
)

// The hall's signing keys: what its publisher signs each stream message
// with (formats/hallstream, format 2), kept in the database so that a
// restart, a backup and a restore keep them. A backup therefore holds the
// private key: keep backups as safe as the hall itself.

// StreamKey is one of the hall's signing keys.
type StreamKey struct {
	ID      int64
	Private ed25519.PrivateKey
	// Endorsement is the previous key's signature of this one (nil for
	// the hall's first key).
	Endorsement []byte
	Created     time.Time
}

// Public is the key's public half.
func (k StreamKey) Public() ed25519.PublicKey { return k.Private.Public().(ed25519.PublicKey) }

// StreamKeys returns the hall's signing keys, oldest first: the last one
// signs. None until AddStreamKey.
func (s *Store) StreamKeys(ctx context.Context) ([]StreamKey, error) {
	db, err := s.reader()
	if err != nil {
		return nil, err
	}
	return queryAll(ctx, db, func(sc scanner) (StreamKey, error) {
		var (
			k         StreamKey
			pub, seed []byte
			ms        int64
		)
		if err := sc.Scan(&k.ID, &pub, &seed, &k.Endorsement, &ms); err != nil {
			return k, scanErr("stream key", err)
		}
		if len(seed) != ed25519.SeedSize {
			return k, fmt.Errorf("storage: stream key %d: a seed of %d bytes", k.ID, len(seed))
		}
		k.Private, k.Created = ed25519.NewKeyFromSeed(seed), fromMs(ms)
		if !k.Public().Equal(ed25519.PublicKey(pub)) {
			return k, fmt.Errorf("storage: stream key %d: its public key is not its seed's", k.ID)
		}
		return k, nil
	}, `SELECT id, public_key, seed, endorsement, created_ms FROM stream_keys ORDER BY id`)
}

// AddStreamKey makes key the hall's signing key from now on, with the
// previous key's endorsement of it (nil for the first), and audits it.
// The caller makes the key and the endorsement (package publish).
func (s *Store) AddStreamKey(ctx context.Context, key ed25519.PrivateKey, endorsement []byte) error {
	if len(key) != ed25519.PrivateKeySize {
		return fmt.Errorf("storage: stream key: %d bytes, want an ed25519 private key", len(key))
	}
	pub := key.Public().(ed25519.PublicKey)
	return s.Write(ctx, func(tx *Tx) error {
		var n int
		if err := tx.queryRow(`SELECT COUNT(*) FROM stream_keys`).Scan(&n); err != nil {
			return fmt.Errorf("storage: stream keys: %w", err)
		}
		if (n == 0) != (endorsement == nil) {
			return errorf(ErrConflict, "stream key: the first key has no endorsement, every later one has its predecessor's")
		}
		if _, err := tx.exec(`INSERT INTO stream_keys (public_key, seed, endorsement, created_ms) VALUES (?, ?, ?, ?)`,
			[]byte(pub), key.Seed(), endorsement, s.wallMs(time.Time{})); err != nil {
			if constraint(err) == "unique" {
				return errorf(ErrDuplicate, "stream key: already the hall's")
			}
			return fmt.Errorf("storage: stream key: %w", err)
		}
		what, kind := "stream signing key made: ", "did.stream_key_made"
		if n > 0 {
			what, kind = "stream signing key rotated: now ", "did.stream_key_rotated"
		}
		key64 := base64.RawURLEncoding.EncodeToString(pub)
		what += key64
		return tx.AddAudit(&AuditRecord{Actor: "server", What: what, Outcome: OutcomeApplied, Kind: kind, Params: map[string]string{"key": key64, "text": what}})
	})
}
