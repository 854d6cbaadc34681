package natsclient

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nats-io/nats.go"

	"github.com/chesshall/hallclock/internal/natsrun"
	"github.com/chesshall/hallclock/internal/testkit/halltest"
)

// A server that requires TLS and a listed user: the options of an Auth
// with the user's seed and the server's CA connect; without the seed, or
// without the CA, the server refuses.
func TestOptionsConnect(t *testing.T) {
	dir := t.TempDir()
	seed := filepath.Join(dir, "gateway.nk")
	pub, err := natsrun.UserSeed(seed)
	if err != nil {
		t.Fatal(err)
	}
	if again, err := natsrun.UserSeed(seed); err != nil || again != pub {
		t.Fatalf("UserSeed of an existing file = %q, %v; want the same user %q", again, err, pub)
	}
	tlsConf, _, caPEM := halltest.SelfSigned(t)
	ca := filepath.Join(dir, "ca.pem")
	if err := os.WriteFile(ca, caPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	n, err := natsrun.Start(natsrun.Options{Dir: t.TempDir(), Users: []natsrun.User{natsrun.FollowerUser(pub)}, TLS: tlsConf})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Shutdown()
	connect := func(a Auth) error {
		opts, err := a.Options()
		if err != nil {
			return err
		}
		nc, err := nats.Connect(n.URL(), opts...)
		if err == nil {
			nc.Close()
		}
		return err
	}
	if err := connect(Auth{NKey: seed, TLSCA: ca}); err != nil {
		t.Errorf("with the user's seed and the CA: %v", err)
	}
	if err := connect(Auth{TLSCA: ca}); !errors.Is(err, nats.ErrAuthorization) {
		t.Errorf("without a seed: %v, want an authorization violation", err)
	}
	if err := connect(Auth{NKey: seed}); err == nil {
		t.Error("without the CA: connected to a server whose certificate nothing vouches for")
	}
	if s := (Auth{NKey: seed, TLSCA: ca}).String(); !strings.Contains(s, seed) || !strings.Contains(s, ca) {
		t.Errorf("String() = %q, want the seed and the CA named", s)
	}
}

func TestCheck(t *testing.T) {
	f := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(f, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []Auth{{Creds: f, NKey: f}, {TLSCert: f}, {TLSKey: f}, {Creds: f + ".missing"}, {TLSCA: f + ".missing"}} {
		if err := bad.Check(); err == nil {
			t.Errorf("Check(%+v) = nil, want an error", bad)
		}
	}
	if err := (Auth{Creds: f, TLSCA: f, TLSCert: f, TLSKey: f}).Check(); err != nil {
		t.Errorf("Check of readable files = %v", err)
	}
}
