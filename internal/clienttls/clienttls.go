// Package clienttls builds the transport credentials of the hall's
// command-line clients (hallctl, clocksim, the demo fleet): TLS trusting
// the system's roots, or a private CA given as a PEM file (-tls-ca), with
// an optional server name when the address does not match the
// certificate.
package clienttls

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"os"

	"google.golang.org/grpc/credentials"
)

// Config returns a client TLS configuration: with caFile, trusting only
// the certificates in it; without, the system's roots. serverName, if
// set, is the name the server's certificate must show.
func Config(caFile, serverName string) (*tls.Config, error) {
	cfg := &tls.Config{ServerName: serverName, MinVersion: tls.VersionTLS12}
	if caFile == "" {
		return cfg, nil
	}
	pem, err := os.ReadFile(caFile)
	if err != nil {
		return nil, fmt.Errorf("-tls-ca: %w", err)
	}
	roots := x509.NewCertPool()
	if !roots.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("-tls-ca %s: no PEM certificate in it", caFile)
	}
	cfg.RootCAs = roots
	return cfg, nil
}

// Credentials returns gRPC transport credentials for Config.
func Credentials(caFile, serverName string) (credentials.TransportCredentials, error) {
	cfg, err := Config(caFile, serverName)
	if err != nil {
		return nil, err
	}
	return credentials.NewTLS(cfg), nil
}
