package server

import (
	"context"
	"errors"
	"fmt"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/durationpb"

	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
	"github.com/chesshall/hallclock/server/broadcast"
	"github.com/chesshall/hallclock/storage"
)

// Errors of the server itself; the rules and the store have their own.
var (
	ErrHubClosed       = errors.New("server is shutting down")
	ErrUnknownBoard    = errors.New("no such board")
	ErrNoDevice        = errors.New("board has no device")
	ErrPermission      = errors.New("permission denied")
	ErrUnauthenticated = errors.New("unauthenticated")
	ErrBadRequest      = errors.New("invalid request")
	ErrShuttingDown    = errors.New("server is shutting down")
	ErrSequenceGap     = errors.New("sequence gap")                     // a device skipped a sequence number
	ErrDeviceSilent    = errors.New("device silent")                    // no message for three heartbeat intervals
	ErrSlowDevice      = errors.New("device not reading")               // its message queue is full
	ErrReplaced        = errors.New("connection replaced")              // a newer stream of the same device
	ErrBeyondHead      = errors.New("beyond the newest change")         // a watcher resuming after a change never made
	ErrDeviceBusy      = errors.New("device busy")                      // it keeps another board whose game is not over
	ErrNotReady        = errors.New("the hall cannot store events now") // readiness fails: a device is asked to come back later
	ErrNoHello         = errors.New("no hello")                         // a device stream silent from the start
	ErrTooManyStreams  = errors.New("too many streams")                 // a token's streams at their limit
	ErrRoundStarted    = errors.New("round started")                    // a round replaced after a clock started
	ErrUnknownMethod   = errors.New("unknown method")                   // the web pages called a method the service does not have
)

// FaultRetryDelay is the retry delay (google.rpc.RetryInfo) the server
// names when it cannot store events: clocks wait that long (and a
// little more, spread) before they reconnect.
var FaultRetryDelay = 5 * time.Second

// badRequest returns an error that maps to InvalidArgument.
func badRequest(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrBadRequest, fmt.Sprintf(format, args...))
}

// toStatus maps every error the server returns to its gRPC status, in one
// place. Messages say what was wrong and what is allowed.
func toStatus(err error) error {
	if err == nil {
		return nil
	}
	if _, ok := status.FromError(err); ok && !isWrapped(err) {
		return err
	}
	code := codes.Internal
	var field *pb.FieldError
	switch {
	case errors.Is(err, context.Canceled):
		code = codes.Canceled
	case errors.Is(err, context.DeadlineExceeded):
		code = codes.DeadlineExceeded
	case errors.As(err, &field) && field.OutOfRange:
		code = codes.OutOfRange
	case errors.Is(err, rules.ErrInvalid), errors.Is(err, ErrBadRequest), field != nil:
		code = codes.InvalidArgument
	case errors.Is(err, rules.ErrRefused):
		code = codes.FailedPrecondition
		if r := rules.RefusalOf(err); r != nil && r.Code == rules.RefusedTimeBackwards {
			code = codes.OutOfRange
		}
	case errors.Is(err, ErrUnknownBoard), errors.Is(err, storage.ErrNotFound), errors.Is(err, broadcast.ErrNotFound):
		code = codes.NotFound
	case errors.Is(err, storage.ErrDuplicate), errors.Is(err, storage.ErrConflict):
		code = codes.AlreadyExists
	case errors.Is(err, storage.ErrGap):
		code = codes.OutOfRange
	case errors.Is(err, ErrNoDevice), errors.Is(err, ErrDeviceBusy), errors.Is(err, ErrRoundStarted):
		code = codes.FailedPrecondition
	case errors.Is(err, ErrSequenceGap), errors.Is(err, ErrBeyondHead):
		code = codes.OutOfRange
	case errors.Is(err, ErrDeviceSilent):
		code = codes.DeadlineExceeded
	case errors.Is(err, ErrNoHello):
		code = codes.DeadlineExceeded
	case errors.Is(err, ErrSlowDevice), errors.Is(err, ErrTooManyStreams):
		code = codes.ResourceExhausted
	case errors.Is(err, ErrReplaced):
		code = codes.Aborted
	case errors.Is(err, ErrUnknownMethod):
		code = codes.Unimplemented
	case errors.Is(err, ErrPermission):
		code = codes.PermissionDenied
	case errors.Is(err, ErrUnauthenticated), errors.Is(err, broadcast.ErrNotPublic):
		code = codes.Unauthenticated
	case errors.Is(err, ErrShuttingDown), errors.Is(err, ErrHubClosed):
		code = codes.Unavailable
	case storage.IsFault(err), errors.Is(err, ErrNotReady):
		// The hall cannot store events now: come back later, not at once.
		st, derr := status.New(codes.Unavailable, err.Error()).WithDetails(&errdetails.RetryInfo{RetryDelay: durationpb.New(FaultRetryDelay)})
		if derr == nil {
			return st.Err()
		}
		code = codes.Unavailable
	}
	return status.Error(code, err.Error())
}

// isWrapped reports whether err is something other than a bare status.
func isWrapped(err error) bool {
	_, ok := err.(interface{ GRPCStatus() *status.Status })
	return !ok
}
