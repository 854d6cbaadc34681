package hallerr

import (
	"context"

	"google.golang.org/grpc"
)

// UnaryServerInterceptor maps the error of every unary call to its status.
// Put it after metrics and logging (they see the code) and before auth,
// so that the door's refusals are mapped too.
func (c Codes) UnaryServerInterceptor() grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, _ *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		resp, err := handler(ctx, req)
		if err != nil {
			return nil, c.Status(err)
		}
		return resp, nil
	}
}

// StreamServerInterceptor maps the error that ends every stream to its
// status, as UnaryServerInterceptor does.
func (c Codes) StreamServerInterceptor() grpc.StreamServerInterceptor {
	return func(srv any, ss grpc.ServerStream, _ *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
		return c.Status(handler(srv, ss))
	}
}
