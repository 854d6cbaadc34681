package hallerr

import (
	"context"
	"errors"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/chesshall/hallclock/formats/standings"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
	"github.com/chesshall/hallclock/server/broadcast"
)

// DefaultRetryDelay is the retry delay a fault of the store is answered
// with when Codes.RetryDelay is 0.
const DefaultRetryDelay = 5 * time.Second

// Codes maps errors to gRPC statuses (Status) and HTTP statuses (HTTP).
// The zero value knows this package's kinds, the rules' (invalid input,
// refusals), the contract's field errors and the broadcast feeds'; the
// hall adds its store's.
type Codes struct {
	// Store, if set, says the code of an error of the store (not found,
	// already exists, a gap in a device's numbers); ok false for others.
	Store func(err error) (code codes.Code, ok bool)
	// Fault, if set, says whether err is a fault of the store itself (a
	// full disk, a read-only file system): UNAVAILABLE with RetryDelay,
	// so that clocks come back later rather than at once.
	Fault func(err error) bool
	// RetryDelay is the retry delay (google.rpc.RetryInfo) of a fault and
	// of ErrNotReady; 0 is DefaultRetryDelay.
	RetryDelay time.Duration
}

// Status returns the gRPC status error of err (nil for nil). A bare
// status error (a stream's own Send failing) is returned as it is. The
// message is err's: it says what was wrong and what is allowed.
func (c Codes) Status(err error) error {
	if err == nil {
		return nil
	}
	if _, ok := err.(interface{ GRPCStatus() *status.Status }); ok {
		return err
	}
	code, later := c.code(err)
	if later {
		delay := c.RetryDelay
		if delay <= 0 {
			delay = DefaultRetryDelay
		}
		st, derr := status.New(codes.Unavailable, err.Error()).WithDetails(&errdetails.RetryInfo{RetryDelay: durationpb.New(delay)})
		if derr == nil {
			return st.Err()
		}
	}
	return status.Error(code, err.Error())
}

// code is the table: err's gRPC code, and whether the caller should come
// back later (and not at once).
func (c Codes) code(err error) (code codes.Code, later bool) {
	var field *pb.FieldError
	storeCode, isStore := codes.Unknown, false
	if c.Store != nil {
		storeCode, isStore = c.Store(err)
	}
	switch {
	case errors.Is(err, context.Canceled):
		return codes.Canceled, false
	case errors.Is(err, context.DeadlineExceeded):
		return codes.DeadlineExceeded, false
	case errors.As(err, &field) && field.OutOfRange:
		return codes.OutOfRange, false
	case errors.Is(err, rules.ErrInvalid), errors.Is(err, ErrBadRequest), field != nil, errors.Is(err, standings.ErrTieBreakList):
		return codes.InvalidArgument, false
	case errors.Is(err, standings.ErrInconsistent):
		// The request is right; the tournament's rounds as the hall holds
		// them cannot be ranked until an arbiter mends them.
		return codes.FailedPrecondition, false
	case errors.Is(err, rules.ErrRefused):
		switch r := rules.RefusalOf(err); {
		case r != nil && r.Code == rules.RefusedTimeBackwards:
			return codes.OutOfRange, false
		case r != nil && r.Code == rules.RefusedNotPermitted:
			// The Laws do not let this person do it (an assistant beyond
			// what the appendix gives him): whoever asks, not when.
			return codes.PermissionDenied, false
		}
		return codes.FailedPrecondition, false
	case errors.Is(err, ErrUnknownBoard), errors.Is(err, broadcast.ErrNotFound):
		return codes.NotFound, false
	case isStore:
		return storeCode, false
	case errors.Is(err, ErrNoDevice), errors.Is(err, ErrDeviceBusy), errors.Is(err, ErrRoundStarted):
		return codes.FailedPrecondition, false
	case errors.Is(err, ErrSequenceGap), errors.Is(err, ErrBeyondHead):
		return codes.OutOfRange, false
	case errors.Is(err, ErrDeviceSilent), errors.Is(err, ErrNoHello):
		return codes.DeadlineExceeded, false
	case errors.Is(err, ErrSlowDevice), errors.Is(err, ErrTooManyStreams), errors.Is(err, ErrTooManyAttempts),
		errors.Is(err, ErrTooLarge), errors.Is(err, ErrBodiesBusy):
		return codes.ResourceExhausted, false
	case errors.Is(err, ErrReplaced):
		return codes.Aborted, false
	case errors.Is(err, ErrUnknownMethod):
		return codes.Unimplemented, false
	case errors.Is(err, ErrPermission):
		return codes.PermissionDenied, false
	case errors.Is(err, ErrUnauthenticated), errors.Is(err, broadcast.ErrNotPublic):
		return codes.Unauthenticated, false
	case errors.Is(err, ErrShuttingDown), errors.Is(err, ErrHubClosed):
		return codes.Unavailable, false
	case c.Fault != nil && c.Fault(err), errors.Is(err, ErrNotReady):
		// The hall cannot store events now: come back later, not at once.
		return codes.Unavailable, true
	}
	return codes.Internal, false
}
