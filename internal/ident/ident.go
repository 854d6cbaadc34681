// Package ident holds the hall's identifiers that its store, its stream
// and its followers share without sharing code: the grammar of a hall's
// id (it names the hall's NATS subjects and stream), and the hash under
// which a token is kept in the store and published to gateways (which
// check a bearer token against it offline). It imports the standard
// library only, so that a gateway links neither SQLite nor the hall.
package ident

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
)

// hallIDPattern is what a hall id may be: it is a NATS subject token and
// part of a stream name.
var hallIDPattern = regexp.MustCompile(`^[A-Za-z0-9_-]{1,32}$`)

// CheckHallID reports whether id can name a hall: 1 to 32 letters,
// digits, '-' or '_'.
func CheckHallID(id string) error {
	if !hallIDPattern.MatchString(id) {
		return fmt.Errorf("hall id %q: want 1 to 32 letters, digits, '-' or '_' (it names the hall's NATS subjects and stream)", id)
	}
	return nil
}

// HashSecret returns the hex SHA-256 of a token's secret: how the store
// keeps a token (never the secret itself) and how the hall publishes a
// broadcast token to its followers.
func HashSecret(secret string) string {
	h := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(h[:])
}
