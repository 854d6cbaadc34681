// Package faultfs gives tests real file-system faults: a read-only
// directory, a small file system that fills up, and one that freezes
// (Freezable: every write waits until the thaw). They use a file system
// mounted for the test when the test runs as root (as CI does); without
// root, ReadOnly falls back to permissions and Small and Freezable skip
// the test with a message saying why. Stall is the frozen disk without
// root: a store's BeforeCommit hook that blocks.
package faultfs

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Root reports whether the tests can mount file systems.
func Root() bool { return os.Geteuid() == 0 }

// mount mounts a tmpfs of size bytes on a new directory, unmounted at the
// end of the test; it skips the test if mounting fails.
func mount(t testing.TB, size int64) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "tmpfs")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", fmt.Sprintf("size=%d,mode=0755", size), "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs for the fault (%v: %s); run as root, as .ci/run does", err, out)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", "-l", dir).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v: %s", dir, err, out)
		}
	})
	return dir
}

// ReadOnly returns a directory that populate filled and that then became
// read-only: a tmpfs remounted read-only when root (the real fault: EROFS
// even for root), else a directory and files without write permission.
func ReadOnly(t testing.TB, populate func(dir string)) string {
	t.Helper()
	if !Root() {
		dir := t.TempDir()
		populate(dir)
		if err := filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
			if err != nil {
				return err
			}
			if fi.IsDir() {
				return os.Chmod(p, 0o555)
			}
			return os.Chmod(p, 0o444)
		}); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error { return os.Chmod(p, 0o755) })
		})
		return dir
	}
	dir := mount(t, 64<<20)
	populate(dir)
	if out, err := exec.Command("mount", "-o", "remount,ro", dir).CombinedOutput(); err != nil {
		t.Fatalf("remount %s read-only: %v: %s", dir, err, out)
	}
	return dir
}

// Small returns a directory on a tmpfs of size bytes, to fill up; it skips
// the test when not root.
func Small(t testing.TB, size int64) string {
	t.Helper()
	if !Root() {
		t.Skip("a full disk needs a small tmpfs, which needs root; run as root, as .ci/run does")
	}
	return mount(t, size)
}

// Fill writes a file in dir until the file system is full and returns its
// path; removing it frees the space.
func Fill(t testing.TB, dir string) string {
	t.Helper()
	p := filepath.Join(dir, "filler")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	buf := make([]byte, 64<<10)
	for {
		if _, err := f.Write(buf); err != nil {
			break
		}
	}
	for {
		if _, err := f.Write(buf[:512]); err != nil {
			break
		}
	}
	return p
}
