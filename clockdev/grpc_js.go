//go:build js

package clockdev

import (
	"errors"
	"io"
	"time"
)

// js/wasm builds have no gRPC: a browser's clock sets Config.Transport
// (clockdev/wsdial). Conn and DialOptions exist so that Config is one
// type, and are refused.

type (
	grpcConn       = any
	grpcDialOption = any
)

func grpcTransport(*Config) (Transport, io.Closer, error) {
	return nil, nil, errors.New("clockdev: this build has no gRPC (js/wasm): set Config.Transport (clockdev/wsdial)")
}

func grpcStatus(error) (int, time.Duration, bool) { return 0, 0, false }
