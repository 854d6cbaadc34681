//go:build !js

package clockdev

import (
	"context"
	"fmt"
	"io"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	hallv1 "github.com/chesshall/hallclock/proto/hall/v1"
)

// The gRPC transport, the default: js/wasm builds leave it out (a
// browser's clock uses clockdev/wsdial), so that they link no gRPC.

type (
	grpcConn       = grpc.ClientConnInterface
	grpcDialOption = grpc.DialOption
)

// grpcStreams opens ClockLink.Connect on a gRPC connection, with the
// token as "authorization: Bearer <token>".
type grpcStreams struct{ client hallv1.ClockLinkClient }

func (g grpcStreams) Open(ctx context.Context, token string) (Stream, error) {
	ctx = metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer "+token)
	return g.client.Connect(ctx)
}

// grpcTransport is the transport of a Config without one: on its Conn, or
// on a connection dialled to its Target (returned to be closed).
func grpcTransport(cfg *Config) (Transport, io.Closer, error) {
	if cfg.Conn != nil {
		return grpcStreams{hallv1.NewClockLinkClient(cfg.Conn)}, nil, nil
	}
	c, err := grpc.NewClient(cfg.Target, cfg.DialOptions...)
	if err != nil {
		return nil, nil, fmt.Errorf("clockdev: dial %s: %w", cfg.Target, err)
	}
	return grpcStreams{hallv1.NewClockLinkClient(c)}, c, nil
}

// grpcStatus is the code and retry delay (google.rpc.RetryInfo) of a gRPC
// status error.
func grpcStatus(err error) (code int, retry time.Duration, ok bool) {
	st, ok := status.FromError(err)
	if !ok {
		return 0, 0, false
	}
	for _, d := range st.Details() {
		if ri, ok := d.(*errdetails.RetryInfo); ok && ri.GetRetryDelay() != nil {
			retry = ri.GetRetryDelay().AsDuration()
		}
	}
	return int(st.Code()), retry, true
}

// GRPCStatus makes a LinkError read like the gRPC stream's status
// (status.Code, status.FromError).
func (e *LinkError) GRPCStatus() *status.Status {
	return status.New(codes.Code(e.Code), e.Message)
}
