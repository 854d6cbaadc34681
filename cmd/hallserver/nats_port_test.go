package main

import (
	"net"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/chesshall/hallclock/internal/testkit/halltest"
)

// The embedded NATS server's port held by another program: hallserver
// exits at once, saying which address is in use, without a panic.
func TestEmbeddedNATSPortInUse(t *testing.T) {
	held, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	addr := held.Addr().String()
	args := []string{"-data-dir", t.TempDir(), "-grpc-addr", "127.0.0.1:0", "-http-addr", "127.0.0.1:0", "-nats-listen", addr, "-log-level", "error"}
	cmd := exec.Command(os.Args[0], "-test.run=^TestHallserverChild$")
	cmd.Env = append(os.Environ(), childArgsEnv+"="+strings.Join(args, "\x1f"))
	out := &halltest.SyncBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case err = <-exited:
	case <-time.After(10 * time.Second):
		_ = cmd.Process.Kill()
		<-exited
		t.Fatalf("hallserver still running 10 s after starting with its NATS port in use\n%s", out)
	}
	took := time.Since(start)
	if err == nil {
		t.Fatalf("hallserver with its NATS port in use exited without an error\n%s", out)
	}
	if text := out.String(); strings.Contains(text, "panic") || !strings.Contains(text, addr+" is in use") {
		t.Errorf("hallserver said\n%s\nwant it to name %s as in use, and no panic", text, addr)
	}
	t.Logf("exited after %v:\n%s", took.Round(time.Millisecond), out)
}
