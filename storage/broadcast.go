package storage

import (
	"context"
	"fmt"
	"time"
)

// RoundBroadcast is how a round is broadcast: public or not, and the
// relay its PGN is pushed to.
type RoundBroadcast struct {
	RoundID    string
	Public     bool   // its feeds need no token
	RelayURL   string // "" pushes nowhere
	RelayToken string // sent to the relay as a bearer token (kept as given)
	Updated    time.Time
}

// PutRoundBroadcast stores (or replaces) a round's broadcast settings; a
// zero Updated is set to now. An unknown round is ErrNotFound.
func (t *Tx) PutRoundBroadcast(b *RoundBroadcast) error {
	updated := t.s.wallMs(b.Updated)
	_, err := t.exec(`INSERT INTO round_broadcast (round_id, public, relay_url, relay_token, updated_ms) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (round_id) DO UPDATE SET public = excluded.public, relay_url = excluded.relay_url,
			relay_token = excluded.relay_token, updated_ms = excluded.updated_ms`,
		b.RoundID, b.Public, b.RelayURL, b.RelayToken, updated)
	if constraint(err) == "foreign" {
		return errorf(ErrNotFound, "round %s: no such round", b.RoundID)
	}
	if err != nil {
		return fmt.Errorf("storage: round %s: broadcast: %w", b.RoundID, err)
	}
	if err := t.outbox(OutboxRound, b.RoundID, nil); err != nil {
		return err
	}
	if b.Updated.IsZero() {
		b.Updated = fromMs(updated)
	}
	return nil
}

// RoundBroadcasts returns the broadcast settings of every round that has
// any, by round id.
func (s *Store) RoundBroadcasts(ctx context.Context) ([]RoundBroadcast, error) {
	db, err := s.reader()
	if err != nil {
		return nil, err
	}
	return queryAll(ctx, db, func(sc scanner) (RoundBroadcast, error) {
		var (
			b  RoundBroadcast
			ms int64
		)
		if err := sc.Scan(&b.RoundID, &b.Public, &b.RelayURL, &b.RelayToken, &ms); err != nil {
			return b, scanErr("round broadcast", err)
		}
		b.Updated = fromMs(ms)
		return b, nil
	}, `SELECT round_id, public, relay_url, relay_token, updated_ms FROM round_broadcast ORDER BY round_id`)
}
