package faultfs

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// Stall is a disk that stops answering, as a frozen file system (fsfreeze)
// or a network volume gone away does: nothing fails, a commit just does
// not return. Give Hook as storage.Options.BeforeCommit: while the disk is
// frozen, each commit waits in it until Thaw.
type Stall struct {
	mu      sync.Mutex
	thawed  chan struct{} // closed by Thaw; nil while not frozen
	waiting chan struct{}
}

// NewStall returns a disk that answers until Freeze.
func NewStall() *Stall { return &Stall{waiting: make(chan struct{}, 1)} }

// Hook is the store's BeforeCommit: while frozen, it waits for Thaw.
func (s *Stall) Hook() {
	s.mu.Lock()
	thawed := s.thawed
	s.mu.Unlock()
	if thawed == nil {
		return
	}
	select {
	case s.waiting <- struct{}{}:
	default:
	}
	<-thawed
}

// Freeze makes the next commits wait.
func (s *Stall) Freeze() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.thawed == nil {
		s.thawed = make(chan struct{})
	}
}

// Waiting receives when a commit has begun to wait.
func (s *Stall) Waiting() <-chan struct{} { return s.waiting }

// Thaw lets the waiting commit return, and the next ones.
func (s *Stall) Thaw() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.thawed != nil {
		close(s.thawed)
		s.thawed = nil
	}
}

// Frozen is a directory on a file system of its own that a test can
// freeze (fsfreeze: every write waits until the thaw, as on a disk that
// stops answering) and thaw: an ext4 image on a loop device, mounted for
// the test. It needs root, a loop device and mkfs.ext4, and skips the test
// saying so without them. The file system is thawed before it is
// unmounted, whatever the test did.
type Frozen struct {
	Dir string
	t   testing.TB
	mu  sync.Mutex
	on  bool
}

// Freezable returns a frozen-able directory of size bytes (at least 8 MiB).
func Freezable(t testing.TB, size int64) *Frozen {
	t.Helper()
	if !Root() {
		t.Skip("a frozen file system needs a loop device, which needs root; run as root, as .ci/run does")
	}
	for _, tool := range []string{"mkfs.ext4", "fsfreeze", "losetup"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("a frozen file system needs %s: %v", tool, err)
		}
	}
	img := filepath.Join(t.TempDir(), "disk.img")
	if err := os.WriteFile(img, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(img, max(size, 8<<20)); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("mkfs.ext4", "-q", "-F", img).CombinedOutput(); err != nil {
		t.Skipf("mkfs.ext4: %v: %s", err, out)
	}
	dir := filepath.Join(t.TempDir(), "ext4")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("mount", "-o", "loop", img, dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a loop device for the fault (%v: %s)", err, out)
	}
	f := &Frozen{Dir: dir, t: t}
	t.Cleanup(func() {
		f.Thaw()
		if out, err := exec.Command("umount", dir).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v: %s", dir, err, out)
		}
	})
	return f
}

// Freeze freezes the file system: writes to it wait until Thaw.
func (f *Frozen) Freeze() {
	f.t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	if out, err := exec.Command("fsfreeze", "--freeze", f.Dir).CombinedOutput(); err != nil {
		f.t.Fatalf("fsfreeze --freeze %s: %v: %s", f.Dir, err, out)
	}
	f.on = true
}

// Thaw lets the waiting writes through.
func (f *Frozen) Thaw() {
	f.t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.on {
		return
	}
	if out, err := exec.Command("fsfreeze", "--unfreeze", f.Dir).CombinedOutput(); err != nil {
		f.t.Errorf("fsfreeze --unfreeze %s: %v: %s", f.Dir, err, out)
		return
	}
	f.on = false
}
