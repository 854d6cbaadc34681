package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chesshall/hallclock/internal/testkit/halltest"
)

// hallctl talks to a server whose certificate comes from a
// private CA with -tls-ca (or HALL_TLS_CA); with the system's roots alone
// it is refused.
func TestTLSWithAPrivateCA(t *testing.T) {
	t.Parallel()
	cfg, pool, caPEM := halltest.SelfSigned(t)
	h := halltest.Start(t, halltest.OnLoopback(), halltest.WithTLS(cfg, pool))
	h.Round(t, "180+2", 1)
	ca := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(ca, caPEM, 0o644); err != nil {
		t.Fatal(err)
	}
	addr := strings.Replace(h.Addr(), "127.0.0.1", "localhost", 1)
	do := func(env map[string]string, args ...string) (string, error) {
		var out bytes.Buffer
		err := run(context.Background(), append([]string{"-addr", addr, "-token", h.Chief}, args...), &out, func(k string) string { return env[k] })
		return out.String(), err
	}
	if out, err := do(nil, "-tls-ca", ca, "boards"); err != nil || !strings.Contains(out, "White 1") {
		t.Errorf("hallctl -tls-ca boards: %v\n%s", err, out)
	}
	if out, err := do(map[string]string{"HALL_TLS_CA": ca}, "boards"); err != nil || !strings.Contains(out, "White 1") {
		t.Errorf("HALL_TLS_CA=... hallctl boards: %v\n%s", err, out)
	}
	if _, err := do(nil, "-tls", "boards"); err == nil || !strings.Contains(err.Error(), "certificate") {
		t.Errorf("hallctl -tls (system roots) against a private CA: %v, want a certificate error", err)
	}
	if _, err := do(nil, "-tls-ca", filepath.Join(t.TempDir(), "missing.pem"), "boards"); err == nil || !strings.Contains(err.Error(), "-tls-ca") {
		t.Errorf("hallctl -tls-ca with a missing file: %v, want it to say so", err)
	}
}
