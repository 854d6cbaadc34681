package sim

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
)

// savedFleet is what a fleet keeps in StateDir/fleet.json to continue a
// hall after a restart: the ids of what it created and the device tokens.
type savedFleet struct {
	Version     int                         `json:"version"`
	Tournaments []*savedTournament          `json:"tournaments"`
	Devices     map[string]*savedDeviceInfo `json:"devices"` // by device id
	// Clocks are the clocks' board times at a moment of the wall clock,
	// noted while the fleet runs and as it stops (away.go).
	Clocks map[string]*savedClock `json:"clocks,omitempty"` // by device id
}

type savedTournament struct {
	Name   string        `json:"name"`
	ID     string        `json:"id"`
	Rounds []*savedRound `json:"rounds"`
}

type savedRound struct {
	ID       string   `json:"id"`
	Number   int      `json:"number"`
	Boards   []string `json:"boards"` // board ids by board number - 1
	Started  bool     `json:"started"`
	Finished bool     `json:"finished"`
}

type savedDeviceInfo struct {
	Token string `json:"token"`
}

const stateVersion = 1

// store keeps a savedFleet, in memory only when dir is "".
type store struct {
	dir string
	mu  sync.Mutex
	s   savedFleet
}

func openStore(dir string) (*store, error) {
	st := &store{dir: dir, s: savedFleet{Version: stateVersion, Devices: map[string]*savedDeviceInfo{}}}
	if dir == "" {
		return st, nil
	}
	if err := os.MkdirAll(filepath.Join(dir, "outbox"), 0o700); err != nil {
		return nil, fmt.Errorf("sim: state directory: %w", err)
	}
	data, err := os.ReadFile(st.path())
	if errors.Is(err, os.ErrNotExist) {
		return st, nil
	}
	if err != nil {
		return nil, fmt.Errorf("sim: read fleet state: %w", err)
	}
	if err := json.Unmarshal(data, &st.s); err != nil {
		return nil, fmt.Errorf("sim: fleet state %s: %w", st.path(), err)
	}
	if st.s.Version != stateVersion {
		return nil, fmt.Errorf("sim: fleet state %s has version %d, want %d", st.path(), st.s.Version, stateVersion)
	}
	if st.s.Devices == nil {
		st.s.Devices = map[string]*savedDeviceInfo{}
	}
	return st, nil
}

func (st *store) path() string { return filepath.Join(st.dir, "fleet.json") }

// outboxPath returns where a device keeps its outbox ("" without a dir).
func (st *store) outboxPath(device string) string {
	if st.dir == "" {
		return ""
	}
	return filepath.Join(st.dir, "outbox", device+".jsonl")
}

// update changes the state under the lock and saves it.
func (st *store) update(f func(s *savedFleet)) error {
	st.mu.Lock()
	defer st.mu.Unlock()
	f(&st.s)
	return st.saveLocked()
}

// read runs f on the state under the lock.
func (st *store) read(f func(s *savedFleet)) {
	st.mu.Lock()
	defer st.mu.Unlock()
	f(&st.s)
}

// saveLocked writes the state atomically (temporary file, fsync, rename).
func (st *store) saveLocked() error {
	if st.dir == "" {
		return nil
	}
	data, err := json.MarshalIndent(&st.s, "", "  ")
	if err != nil {
		return err
	}
	tmp := st.path() + ".tmp"
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return fmt.Errorf("sim: save fleet state: %w", err)
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return fmt.Errorf("sim: save fleet state: %w", err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("sim: save fleet state: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("sim: save fleet state: %w", err)
	}
	if err := os.Rename(tmp, st.path()); err != nil {
		return fmt.Errorf("sim: save fleet state: %w", err)
	}
	return nil
}

// tournament returns the saved tournament named name, or nil.
func (s *savedFleet) tournament(name string) *savedTournament {
	for _, t := range s.Tournaments {
		if t.Name == name {
			return t
		}
	}
	return nil
}

// round returns the saved round number n, or nil.
func (t *savedTournament) round(n int) *savedRound {
	for _, r := range t.Rounds {
		if r.Number == n {
			return r
		}
	}
	return nil
}
