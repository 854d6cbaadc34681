package hallerr

import (
	"context"
	"errors"
	"strings"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/protoadapt"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/chesshall/hallclock/formats/standings"
	"github.com/chesshall/hallclock/formats/words"
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

// Domain is the domain of the hall's reasons (google.rpc.ErrorInfo).
const Domain = "hall.chesshall"

// Status returns the gRPC status error of err (nil for nil). A bare
// status error (a stream's own Send failing) is returned as it is. The
// message is err's: it says what was wrong and what is allowed, in
// English; its stable reason code (Reason) is a google.rpc.ErrorInfo
// among the details, with what the reason's words need as metadata (a
// refusal's event and rule, a field's name).
func (c Codes) Status(err error) error {
	if err == nil {
		return nil
	}
	if _, ok := err.(interface{ GRPCStatus() *status.Status }); ok {
		return err
	}
	code, reason, later := c.code(err)
	st := status.New(code, err.Error())
	details := []protoadapt.MessageV1{&errdetails.ErrorInfo{Reason: reason, Domain: Domain, Metadata: metadata(err)}}
	if later {
		delay := c.RetryDelay
		if delay <= 0 {
			delay = DefaultRetryDelay
		}
		details = append(details, &errdetails.RetryInfo{RetryDelay: durationpb.New(delay)})
	}
	if withDetails, derr := st.WithDetails(details...); derr == nil {
		st = withDetails
	}
	return st.Err()
}

// Reason returns the stable reason code of err: what a program matches
// (the message is for people and may change). A status error's is that
// of its ErrorInfo, "" if it has none.
func (c Codes) Reason(err error) string {
	if err == nil {
		return ""
	}
	if info := ErrorInfo(c.Status(err)); info != nil {
		return info.GetReason()
	}
	return ""
}

// ErrorInfo returns the google.rpc.ErrorInfo of a status error, nil if it
// has none.
func ErrorInfo(err error) *errdetails.ErrorInfo {
	for _, d := range status.Convert(err).Details() {
		if info, ok := d.(*errdetails.ErrorInfo); ok {
			return info
		}
	}
	return nil
}

// metadata is what the words of err's reason need: a refusal's event and
// rule, a field's name.
func metadata(err error) map[string]string {
	md := map[string]string{}
	var field *pb.FieldError
	if r := rules.RefusalOf(err); r != nil {
		md["event"] = r.Event.Kind.String()
		if r.What != "" {
			md["event"] = r.What
		}
		if r.Rule != "" {
			md["rule"] = r.Rule
		}
	} else if errors.As(err, &field) {
		md["field"] = field.Field
	}
	if len(md) == 0 {
		return nil
	}
	return md
}

// kinds are the reason codes of this package's kinds of error and of the
// feeds'.
var kinds = []struct {
	err    error
	reason string
}{
	{ErrUnknownBoard, "UNKNOWN_BOARD"}, {broadcast.ErrNotFound, "NOT_FOUND"},
	{ErrNoDevice, "NO_DEVICE"}, {ErrDeviceBusy, "DEVICE_BUSY"}, {ErrRoundStarted, "ROUND_STARTED"},
	{ErrSequenceGap, "SEQUENCE_GAP"}, {ErrBeyondHead, "BEYOND_HEAD"},
	{ErrDeviceSilent, "DEVICE_SILENT"}, {ErrNoHello, "NO_HELLO"},
	{ErrSlowDevice, "SLOW_DEVICE"}, {ErrTooManyStreams, "TOO_MANY_STREAMS"}, {ErrTooManyAttempts, "TOO_MANY_ATTEMPTS"},
	{ErrTooLarge, "TOO_LARGE"}, {ErrBodiesBusy, "BODIES_BUSY"},
	{ErrReplaced, "REPLACED"}, {ErrUnknownMethod, "UNKNOWN_METHOD"}, {ErrPermission, "PERMISSION_DENIED"},
	{ErrUnauthenticated, "UNAUTHENTICATED"}, {broadcast.ErrNotPublic, "NOT_PUBLIC"},
	{ErrShuttingDown, "SHUTTING_DOWN"}, {ErrHubClosed, "SHUTTING_DOWN"}, {ErrNotReady, "NOT_READY"},
}

// reasonOf is the reason code of one of kinds, "" for none.
func reasonOf(err error) string {
	for _, k := range kinds {
		if errors.Is(err, k.err) {
			return k.reason
		}
	}
	return ""
}

// code is the table: err's gRPC code, its reason code, and whether the
// caller should come back later (and not at once).
func (c Codes) code(err error) (code codes.Code, reason string, later bool) {
	var field *pb.FieldError
	storeCode, isStore := codes.Unknown, false
	if c.Store != nil {
		storeCode, isStore = c.Store(err)
	}
	reason = reasonOf(err)
	switch {
	case errors.Is(err, context.Canceled):
		return codes.Canceled, "CANCELED", false
	case errors.Is(err, context.DeadlineExceeded):
		return codes.DeadlineExceeded, "DEADLINE_EXCEEDED", false
	case errors.As(err, &field) && field.OutOfRange:
		return codes.OutOfRange, "FIELD_OUT_OF_RANGE", false
	case field != nil:
		return codes.InvalidArgument, "INVALID_FIELD", false
	case errors.Is(err, rules.ErrInvalid):
		return codes.InvalidArgument, "INVALID_INPUT", false
	case errors.Is(err, ErrBadRequest):
		return codes.InvalidArgument, "BAD_REQUEST", false
	case errors.Is(err, standings.ErrTieBreakList):
		return codes.InvalidArgument, "TIEBREAK_LIST", false
	case errors.Is(err, standings.ErrInconsistent):
		// The request is right; the tournament's rounds as the hall holds
		// them cannot be ranked until an arbiter mends them.
		return codes.FailedPrecondition, "STANDINGS_INCONSISTENT", false
	case errors.Is(err, rules.ErrRefused):
		reason = "REFUSED"
		r := rules.RefusalOf(err)
		if r != nil {
			reason = "REFUSED_" + strings.ToUpper(words.RefusalName(r.Code))
		}
		switch {
		case r != nil && r.Code == rules.RefusedTimeBackwards:
			return codes.OutOfRange, reason, false
		case r != nil && r.Code == rules.RefusedNotPermitted:
			// The Laws do not let this person do it (an assistant beyond
			// what the appendix gives him): whoever asks, not when.
			return codes.PermissionDenied, reason, false
		}
		return codes.FailedPrecondition, reason, false
	case errors.Is(err, ErrUnknownBoard), errors.Is(err, broadcast.ErrNotFound):
		return codes.NotFound, reason, false
	case isStore:
		return storeCode, strings.ToUpper(toSnake(storeCode.String())), false
	case errors.Is(err, ErrNoDevice), errors.Is(err, ErrDeviceBusy), errors.Is(err, ErrRoundStarted):
		return codes.FailedPrecondition, reason, false
	case errors.Is(err, ErrSequenceGap), errors.Is(err, ErrBeyondHead):
		return codes.OutOfRange, reason, false
	case errors.Is(err, ErrDeviceSilent), errors.Is(err, ErrNoHello):
		return codes.DeadlineExceeded, reason, false
	case errors.Is(err, ErrSlowDevice), errors.Is(err, ErrTooManyStreams), errors.Is(err, ErrTooManyAttempts),
		errors.Is(err, ErrTooLarge), errors.Is(err, ErrBodiesBusy):
		return codes.ResourceExhausted, reason, false
	case errors.Is(err, ErrReplaced):
		return codes.Aborted, reason, false
	case errors.Is(err, ErrUnknownMethod):
		return codes.Unimplemented, reason, false
	case errors.Is(err, ErrPermission):
		return codes.PermissionDenied, reason, false
	case errors.Is(err, ErrUnauthenticated), errors.Is(err, broadcast.ErrNotPublic):
		return codes.Unauthenticated, reason, false
	case errors.Is(err, ErrShuttingDown), errors.Is(err, ErrHubClosed):
		return codes.Unavailable, reason, false
	case c.Fault != nil && c.Fault(err):
		// The hall cannot store events now: come back later, not at once.
		return codes.Unavailable, "STORE_FAULT", true
	case errors.Is(err, ErrNotReady):
		return codes.Unavailable, reason, true
	}
	return codes.Internal, "INTERNAL", false
}

// toSnake writes a gRPC code's name ("NotFound") in snake case
// ("Not_Found").
func toSnake(s string) string {
	var b strings.Builder
	for i, r := range s {
		if i > 0 && r >= 'A' && r <= 'Z' {
			b.WriteByte('_')
		}
		b.WriteRune(r)
	}
	return b.String()
}
