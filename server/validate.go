package server

import (
	"context"

	"google.golang.org/grpc"

	"github.com/chesshall/hallclock/server/hallerr"
)

// The door's validation: every request, and every message a stream
// receives, that has a Validate method (proto/hall/v1/validate.go) is
// checked before a handler sees it. Its *hallv1.FieldError maps, in
// hallerr.Codes, to INVALID_ARGUMENT, or OUT_OF_RANGE for numbers beyond what
// a field can ever hold.

type validator interface{ Validate() error }

func checkMessage(m any) error {
	if v, ok := m.(validator); ok {
		if err := v.Validate(); err != nil {
			return hallerr.Invalid(err)
		}
	}
	return nil
}

func validateUnary(ctx context.Context, req any, _ *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	if err := checkMessage(req); err != nil {
		return nil, err
	}
	return handler(ctx, req)
}

func validateStream(srv any, ss grpc.ServerStream, _ *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
	return handler(srv, validatingStream{ss})
}

type validatingStream struct{ grpc.ServerStream }

func (s validatingStream) RecvMsg(m any) error {
	if err := s.ServerStream.RecvMsg(m); err != nil {
		return err
	}
	return checkMessage(m)
}
