package datadir

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A second Lock on a held directory fails at once, naming the holder's
// process and the addresses it announced; once released, it succeeds.
func TestSecondLockNamesTheHolder(t *testing.T) {
	dir := t.TempDir()
	l, err := Lock(dir, "hallserver")
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Announce("127.0.0.1:7070", "127.0.0.1:7080"); err != nil {
		t.Fatal(err)
	}
	_, err = Lock(dir, "hallserver")
	var held *HeldError
	if !errors.As(err, &held) || !errors.Is(err, ErrHeld) {
		t.Fatalf("second Lock = %v, want a *HeldError", err)
	}
	msg := err.Error()
	for _, want := range []string{"PID " + strconv.Itoa(os.Getpid()), "gRPC 127.0.0.1:7070", "HTTP 127.0.0.1:7080", dir} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q does not say %q", msg, want)
		}
	}
	if err := l.Release(); err != nil {
		t.Fatal(err)
	}
	l2, err := Lock(dir, "hallserver reset-chief")
	if err != nil {
		t.Fatalf("Lock after Release = %v", err)
	}
	l2.Release()
}

// The kernel drops the lock of a process that dies: a killed holder
// never keeps the hall down.
func TestLockOfADeadProcessIsFree(t *testing.T) {
	if _, err := exec.LookPath("flock"); err != nil {
		t.Skip("needs flock(1) (util-linux) to hold the lock from another process")
	}
	dir := t.TempDir()
	cmd := exec.Command("flock", "-o", filepath.Join(dir, FileName), "sleep", "30")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // sleep goes with it
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	kill := func() { syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); cmd.Wait() }
	defer kill()
	for i := 0; ; i++ {
		l, err := Lock(dir, "x")
		if errors.Is(err, ErrHeld) {
			break
		}
		if err != nil || i > 500 {
			t.Fatalf("flock(1) never took the lock: %v", err)
		}
		l.Release() // flock(1) had not started; it waits for us
		time.Sleep(10 * time.Millisecond)
	}
	kill()
	// The kernel releases it as the process's files close: at once, but
	// not necessarily before Wait returns on a loaded machine.
	var l *DirLock
	var err error
	for i := 0; i < 200; i++ {
		if l, err = Lock(dir, "x"); err == nil {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err != nil {
		t.Fatalf("Lock after the holder died = %v", err)
	}
	l.Release()
}
