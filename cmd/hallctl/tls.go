package main

import (
	"flag"

	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/chesshall/hallclock/internal/clienttls"
)

// tlsFlags are the connection's transport security: -tls (system roots),
// -tls-ca FILE (a private CA; implies -tls), -tls-server-name.
type tlsFlags struct {
	on         *bool
	ca, server *string
}

func addTLSFlags(fs *flag.FlagSet, getenv func(string) string) tlsFlags {
	return tlsFlags{
		on:     fs.Bool("tls", getenv("HALL_TLS") != "", "use TLS, trusting the system's roots (HALL_TLS)"),
		ca:     fs.String("tls-ca", getenv("HALL_TLS_CA"), "use TLS, trusting this CA certificate (PEM), e.g. a private CA (HALL_TLS_CA)"),
		server: fs.String("tls-server-name", getenv("HALL_TLS_SERVER_NAME"), "the name the server's certificate must show (default: from -addr) (HALL_TLS_SERVER_NAME)"),
	}
}

func (f tlsFlags) credentials() (credentials.TransportCredentials, error) {
	if !*f.on && *f.ca == "" {
		return insecure.NewCredentials(), nil
	}
	return clienttls.Credentials(*f.ca, *f.server)
}
