package server

import (
	"context"
	"fmt"
	"log/slog"
	"runtime/debug"
	"strings"

	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors"
	grpcauth "github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/auth"
	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/logging"
	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/recovery"
	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/selector"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// interceptorLogger adapts slog to the middleware's logger.
func interceptorLogger(l *slog.Logger) logging.Logger {
	return logging.LoggerFunc(func(ctx context.Context, lvl logging.Level, msg string, fields ...any) {
		l.Log(ctx, slog.Level(lvl), msg, fields...)
	})
}

// needsAuth lets health checks and reflection through the door.
func needsAuth(_ context.Context, c interceptors.CallMeta) bool {
	return c.Service != "grpc.health.v1.Health" && !strings.HasPrefix(c.Service, "grpc.reflection.")
}

// interceptors is the door, identical for unary and stream calls: metrics
// → logging → errors to statuses (hallerr.Codes: once, for every handler
// and the door's own refusals) → what could not be decoded (hallerr.DecodeCheck:
// before anything that could answer first) → auth (not for health and
// reflection) →
// (streams: the limit of open streams per token) → validation → recovery.
func (s *Server) interceptors() []grpc.ServerOption {
	logOpts := []logging.Option{logging.WithLogOnEvents(logging.FinishCall), logging.WithLevels(func(c codes.Code) logging.Level {
		switch c {
		case codes.OK, codes.Canceled, codes.NotFound, codes.AlreadyExists, codes.FailedPrecondition, codes.InvalidArgument, codes.OutOfRange:
			return logging.LevelDebug
		case codes.Unauthenticated, codes.PermissionDenied, codes.DeadlineExceeded, codes.Unavailable, codes.Aborted, codes.ResourceExhausted:
			return logging.LevelInfo
		}
		return logging.LevelError
	})}
	onPanic := recovery.WithRecoveryHandler(func(p any) error {
		s.log.Error("panic in handler", "panic", p, "stack", string(debug.Stack()))
		return status.Error(codes.Internal, fmt.Sprintf("internal error: %v", p))
	})
	match := selector.MatchFunc(needsAuth)
	return []grpc.ServerOption{
		grpc.ChainUnaryInterceptor(
			s.metrics.grpc.UnaryServerInterceptor(),
			logging.UnaryServerInterceptor(interceptorLogger(s.log), logOpts...),
			s.codes.UnaryServerInterceptor(),
			s.decode.UnaryServerInterceptor(),
			selector.UnaryServerInterceptor(grpcauth.UnaryServerInterceptor(s.tokens.Authenticate), match),
			validateUnary,
			recovery.UnaryServerInterceptor(onPanic),
		),
		grpc.ChainStreamInterceptor(
			s.metrics.grpc.StreamServerInterceptor(),
			logging.StreamServerInterceptor(interceptorLogger(s.log), logOpts...),
			s.codes.StreamServerInterceptor(),
			s.decode.StreamServerInterceptor(),
			selector.StreamServerInterceptor(grpcauth.StreamServerInterceptor(s.tokens.Authenticate), match),
			s.streams.StreamServerInterceptor(),
			validateStream,
			recovery.StreamServerInterceptor(onPanic),
		),
	}
}
