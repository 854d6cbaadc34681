package clockdev

import (
	"context"
	"errors"
	"fmt"
	"time"

	hallv1 "github.com/chesshall/hallclock/proto/hall/v1"
)

// Transport carries a device's ClockLink streams to the hall: gRPC (the
// default, on Config.Conn or Config.Target; file grpc.go, left out of
// js/wasm builds) or a WebSocket (package clockdev/wsdial, which links no
// gRPC: a browser's clock). The device's link — Hello, resend,
// acknowledgements, heartbeats, reconnection — is the same over either.
type Transport interface {
	// Open opens one stream on which the device is known by its bearer
	// token. The stream ends when ctx is done.
	Open(ctx context.Context, token string) (Stream, error)
}

// Stream is one open ClockLink stream: one goroutine sends, another
// receives. Recv returns io.EOF when the hall ended the stream in order,
// else why it ended: a gRPC status error, or a *LinkError.
type Stream interface {
	Send(*hallv1.DeviceMessage) error
	Recv() (*hallv1.ServerMessage, error)
}

// LinkError is why the hall ended a stream, as a transport other than
// gRPC reports it: Code is the gRPC status code the gRPC stream would
// have ended with (google.rpc.Code: 11 OUT_OF_RANGE for a sequence gap,
// 14 UNAVAILABLE, 16 UNAUTHENTICATED...), Message the hall's reason,
// RetryAfter the delay the hall asks for before coming back (0: none). On
// builds with gRPC, status.Code(err) reads its code.
type LinkError struct {
	Code       int
	Message    string
	RetryAfter time.Duration
}

func (e *LinkError) Error() string {
	return fmt.Sprintf("the hall ended the stream (%s): %s", codeName(e.Code), e.Message)
}

// The status codes the link tells apart (google.rpc.Code).
const (
	codeResourceExhausted = 8
	codeAborted           = 10
	codeInternal          = 13
	codeUnavailable       = 14
	codeDataLoss          = 15
)

// takenOver reports whether a stream ended because the hall let another
// connection of the device take over (ABORTED).
func takenOver(err error) bool {
	code, _, ok := linkStatus(err)
	return ok && code == codeAborted
}

// codeName names a status code as gRPC does.
func codeName(c int) string {
	names := [...]string{"OK", "CANCELED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND",
		"ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "ABORTED",
		"OUT_OF_RANGE", "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS", "UNAUTHENTICATED"}
	if c >= 0 && c < len(names) {
		return names[c]
	}
	return fmt.Sprintf("code %d", c)
}

// linkStatus is the status code and retry delay of why a stream ended: a
// LinkError's, or a gRPC status's (grpcStatus); ok false for others (the
// network's).
func linkStatus(err error) (code int, retry time.Duration, ok bool) {
	var le *LinkError
	if errors.As(err, &le) {
		return le.Code, le.RetryAfter, true
	}
	return grpcStatus(err)
}
