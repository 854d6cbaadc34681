package natsrun

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/nats-io/nkeys"
)

// UserSeed returns the public key (U...) of the nkey user whose seed is
// in the file at path, creating the file (mode 0600, a new random user)
// if it does not exist. A client connects as that user with
// nats.NkeyOptionFromSeed(path) (or the nats tool's --nkey path).
func UserSeed(path string) (string, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		kp, err := nkeys.CreateUser()
		if err != nil {
			return "", fmt.Errorf("natsrun: a user key: %w", err)
		}
		seed, err := kp.Seed()
		if err != nil {
			return "", fmt.Errorf("natsrun: a user key: %w", err)
		}
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err != nil {
			return "", fmt.Errorf("natsrun: %w", err)
		}
		_, werr := f.Write(append(seed, '\n'))
		if err := errors.Join(werr, f.Sync(), f.Close()); err != nil {
			os.Remove(path)
			return "", fmt.Errorf("natsrun: writing %s: %w", path, err)
		}
		b = seed
	} else if err != nil {
		return "", fmt.Errorf("natsrun: %w", err)
	}
	kp, err := nkeys.ParseDecoratedNKey(b)
	if err != nil {
		return "", fmt.Errorf("natsrun: %s: not an nkey seed: %w", path, err)
	}
	pub, err := kp.PublicKey()
	if err != nil || !nkeys.IsValidPublicUserKey(pub) {
		return "", fmt.Errorf("natsrun: %s: not a user's nkey seed (SU...)", path)
	}
	return pub, nil
}
