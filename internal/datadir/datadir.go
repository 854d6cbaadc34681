// Package datadir keeps one hall server per data directory.
//
// A hall's data directory holds its database. Two servers on one database
// would split the hall: each would keep its own clocks for the same boards
// and send commands that never reach the clock. Lock takes an exclusive,
// advisory lock (flock) on the file hall.lock in the directory and writes
// who holds it (process id, then the addresses it serves once bound); a
// second Lock fails at once with a *HeldError naming the holder. The
// kernel releases the lock when the holder's process ends, however it
// ends (kill -9 included), so a stale lock file never keeps a hall down.
//
// # Usage
//
//	l, err := datadir.Lock(dir, "hallserver")
//	if err != nil {
//		return err // a *HeldError says who holds it
//	}
//	defer l.Release()
//	... bind the listeners ...
//	l.Announce(grpcAddr, httpAddr)
//
// Offline tools (reset-chief, restore) take the same lock, so they never
// write under a running server.
package datadir

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// FileName is the lock file in a data directory.
const FileName = "hall.lock"

// Holder is what the lock file says about the process holding it.
type Holder struct {
	PID     int       `json:"pid"`
	Program string    `json:"program"`        // "hallserver", "hallserver reset-chief", ...
	GRPC    string    `json:"grpc,omitempty"` // the gRPC address it serves, once bound
	HTTP    string    `json:"http,omitempty"` // the HTTP address it serves, once bound
	Since   time.Time `json:"since"`          // when it took the lock
	Host    string    `json:"host,omitempty"` // the machine's name
}

func (h Holder) String() string {
	s := h.Program
	if s == "" {
		s = "a process"
	}
	if h.PID > 0 {
		s += fmt.Sprintf(" (PID %d", h.PID)
		if h.Host != "" {
			s += " on " + h.Host
		}
		s += ")"
	}
	var addrs []string
	if h.GRPC != "" {
		addrs = append(addrs, "gRPC "+h.GRPC)
	}
	if h.HTTP != "" {
		addrs = append(addrs, "HTTP "+h.HTTP)
	}
	if len(addrs) > 0 {
		s += ", serving " + strings.Join(addrs, " and ")
	} else if h.PID > 0 {
		s += ", starting up"
	}
	if !h.Since.IsZero() {
		s += ", since " + h.Since.Format(time.DateTime)
	}
	return s
}

// HeldError is returned by Lock when another process holds the directory.
type HeldError struct {
	Dir    string
	Holder Holder // as its lock file says; zero fields if it could not be read
}

func (e *HeldError) Error() string {
	return fmt.Sprintf("data directory %s is in use by %s: one hall server per data directory; stop it first, or give another -data-dir", e.Dir, e.Holder)
}

// ErrHeld matches a *HeldError with errors.Is.
var ErrHeld = errors.New("data directory in use")

// Is makes errors.Is(err, ErrHeld) true for a *HeldError.
func (e *HeldError) Is(target error) bool { return target == ErrHeld }

// DirLock is a held lock on a data directory.
type DirLock struct {
	f      *os.File
	holder Holder
}

// Lock takes the data directory dir (which must exist) for program, or
// fails at once with a *HeldError if another process holds it.
func Lock(dir, program string) (*DirLock, error) {
	path := filepath.Join(dir, FileName)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("data directory %s is not usable: cannot create its lock file (%w); the hall needs a writable data directory", dir, err)
	}
	if err := flock(f); err != nil {
		f.Close()
		if errors.Is(err, errWouldBlock) {
			return nil, &HeldError{Dir: dir, Holder: readHolder(path)}
		}
		return nil, fmt.Errorf("data directory %s: cannot lock %s: %w", dir, path, err)
	}
	host, _ := os.Hostname()
	l := &DirLock{f: f, holder: Holder{PID: os.Getpid(), Program: program, Since: time.Now().UTC().Truncate(time.Second), Host: host}}
	if err := l.write(); err != nil {
		l.Release()
		return nil, err
	}
	return l, nil
}

// Announce records the addresses the holder serves, for the message a
// second server shows.
func (l *DirLock) Announce(grpcAddr, httpAddr string) error {
	l.holder.GRPC, l.holder.HTTP = grpcAddr, httpAddr
	return l.write()
}

func (l *DirLock) write() error {
	b, _ := json.Marshal(l.holder)
	b = append(b, '\n')
	if err := l.f.Truncate(0); err != nil {
		return fmt.Errorf("lock file: %w", err)
	}
	if _, err := l.f.WriteAt(b, 0); err != nil {
		return fmt.Errorf("lock file: %w", err)
	}
	return nil
}

// Release unlocks the directory. The lock file stays (it says nothing once
// unlocked: the next holder rewrites it).
func (l *DirLock) Release() error {
	if l == nil || l.f == nil {
		return nil
	}
	err := l.f.Close() // closing the descriptor releases the flock
	l.f = nil
	return err
}

// readHolder reads a lock file, retrying briefly while its holder is
// rewriting it.
func readHolder(path string) Holder {
	var h Holder
	for range 5 {
		b, err := os.ReadFile(path)
		if err == nil && json.Unmarshal(b, &h) == nil {
			return h
		}
		time.Sleep(20 * time.Millisecond)
	}
	return h
}
