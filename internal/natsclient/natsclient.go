// Package natsclient turns the commands' NATS credential and TLS flags
// into connection options (github.com/nats-io/nats.go), the same for the
// hall server and the gateways:
//
//	-nats-creds FILE     a user's credentials: JWT and nkey seed (nsc generate creds)
//	-nats-nkey FILE      an nkey seed (SU...), for servers that list nkey users
//	-nats-tls-ca FILE    the CA that signed the NATS servers' certificates
//	-nats-tls-cert FILE, -nats-tls-key FILE   a client certificate, where the servers ask for one
//
// A user and password may also be given in the URL
// (nats://user:password@host:4222).
package natsclient

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/nats-io/nats.go"
)

// Auth is how a command proves itself to NATS and checks the servers.
type Auth struct {
	Creds   string // a .creds file: user JWT and nkey seed
	NKey    string // an nkey seed file
	TLSCA   string // the servers' CA (PEM)
	TLSCert string // a client certificate (PEM), with TLSKey
	TLSKey  string
}

// Check reports flags that do not go together and files that cannot be
// read, naming the flag.
func (a Auth) Check() error {
	if a.Creds != "" && a.NKey != "" {
		return errors.New("-nats-creds and -nats-nkey: give one (a .creds file holds its own nkey seed)")
	}
	if (a.TLSCert == "") != (a.TLSKey == "") {
		return errors.New("-nats-tls-cert and -nats-tls-key go together")
	}
	for _, f := range []struct{ flag, path string }{{"-nats-creds", a.Creds}, {"-nats-nkey", a.NKey}, {"-nats-tls-ca", a.TLSCA},
		{"-nats-tls-cert", a.TLSCert}, {"-nats-tls-key", a.TLSKey}} {
		if f.path == "" {
			continue
		}
		if _, err := os.ReadFile(f.path); err != nil {
			return fmt.Errorf("%s: %w", f.flag, err)
		}
	}
	return nil
}

// Options are the connection options for a.
func (a Auth) Options() ([]nats.Option, error) {
	if err := a.Check(); err != nil {
		return nil, err
	}
	var opts []nats.Option
	if a.Creds != "" {
		opts = append(opts, nats.UserCredentials(a.Creds))
	}
	if a.NKey != "" {
		o, err := nats.NkeyOptionFromSeed(a.NKey)
		if err != nil {
			return nil, fmt.Errorf("-nats-nkey %s: %w", a.NKey, err)
		}
		opts = append(opts, o)
	}
	if a.TLSCA != "" {
		opts = append(opts, nats.RootCAs(a.TLSCA))
	}
	if a.TLSCert != "" {
		opts = append(opts, nats.ClientCert(a.TLSCert, a.TLSKey))
	}
	return opts, nil
}

// String says how a connects, for a banner: "credentials F, TLS (CA C)".
func (a Auth) String() string {
	var parts []string
	switch {
	case a.Creds != "":
		parts = append(parts, "credentials "+a.Creds)
	case a.NKey != "":
		parts = append(parts, "nkey "+a.NKey)
	default:
		parts = append(parts, "no credentials")
	}
	if a.TLSCA != "" {
		parts = append(parts, "TLS (CA "+a.TLSCA+")")
	}
	if a.TLSCert != "" {
		parts = append(parts, "client certificate "+a.TLSCert)
	}
	return strings.Join(parts, ", ")
}
