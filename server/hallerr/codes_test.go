package hallerr

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/chesshall/hallclock/formats/standings"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
	"github.com/chesshall/hallclock/server/broadcast"
)

var (
	errStoreMissing = errors.New("store: not found")
	errStoreFull    = errors.New("store: disk full")
)

// hall is a table as the hall builds it, with a store of two kinds.
var hall = Codes{
	Store: func(err error) (codes.Code, bool) {
		if errors.Is(err, errStoreMissing) {
			return codes.NotFound, true
		}
		return codes.Unknown, false
	},
	Fault:      func(err error) bool { return errors.Is(err, errStoreFull) },
	RetryDelay: 3 * time.Second,
}

func TestCodes(t *testing.T) {
	refused := &rules.Refusal{Code: rules.RefusedGameOver, Reason: "the game is over"}
	backwards := &rules.Refusal{Code: rules.RefusedTimeBackwards, Reason: "time went back"}
	// FIDE 2018 D.2.10: what an assistant may not do is refused to the
	// person, whatever the board's state.
	notPermitted := &rules.Refusal{Code: rules.RefusedNotPermitted, Rule: "FIDE 2018 Appendix D.2.10", Reason: "an assistant may not set the clock"}
	for _, c := range []struct {
		name string
		err  error
		code codes.Code
		http int
	}{
		{"bad request", BadRequest("no board id"), codes.InvalidArgument, http.StatusBadRequest},
		{"field error", &pb.FieldError{Field: "board_id", Msg: "empty"}, codes.InvalidArgument, http.StatusBadRequest},
		{"field out of range", &pb.FieldError{Field: "t_ms", Msg: "too large", OutOfRange: true}, codes.OutOfRange, http.StatusBadRequest},
		{"rules' invalid input", &rules.InputError{What: "FEN", Value: "x"}, codes.InvalidArgument, http.StatusBadRequest},
		{"rules' refusal", fmt.Errorf("board b1: %w", refused), codes.FailedPrecondition, http.StatusConflict},
		{"time backwards", backwards, codes.OutOfRange, http.StatusBadRequest},
		{"not permitted by the Laws", fmt.Errorf("board b1: %w", notPermitted), codes.PermissionDenied, http.StatusForbidden},
		{"standings of rounds that do not fit", fmt.Errorf("the standings of Open: %w", &standings.InputError{Player: 3, Round: 2, Msg: "opponent 4 names 5"}), codes.FailedPrecondition, http.StatusConflict},
		{"tie-break list refused", &standings.ParseError{Item: 1, Entry: "BH:GP", Msg: "a tie-break of team events"}, codes.InvalidArgument, http.StatusBadRequest},
		{"unknown board", fmt.Errorf("%w %q", ErrUnknownBoard, "b9"), codes.NotFound, http.StatusNotFound},
		{"feed not found", broadcast.ErrNotFound, codes.NotFound, http.StatusNotFound},
		{"store's not found", fmt.Errorf("round r1: %w", errStoreMissing), codes.NotFound, http.StatusNotFound},
		{"device busy", ErrDeviceBusy, codes.FailedPrecondition, http.StatusConflict},
		{"beyond head", ErrBeyondHead, codes.OutOfRange, http.StatusBadRequest},
		{"device silent", ErrDeviceSilent, codes.DeadlineExceeded, http.StatusGatewayTimeout},
		{"too many streams", ErrTooManyStreams, codes.ResourceExhausted, http.StatusTooManyRequests},
		{"too many sign-in attempts", ErrTooManyAttempts, codes.ResourceExhausted, http.StatusTooManyRequests},
		{"replaced", ErrReplaced, codes.Aborted, http.StatusInternalServerError},
		{"unknown method", ErrUnknownMethod, codes.Unimplemented, http.StatusNotFound},
		{"permission", ErrPermission, codes.PermissionDenied, http.StatusForbidden},
		{"not public", broadcast.ErrNotPublic, codes.Unauthenticated, http.StatusUnauthorized},
		{"shutting down", ErrShuttingDown, codes.Unavailable, http.StatusServiceUnavailable},
		{"store fault", fmt.Errorf("commit: %w", errStoreFull), codes.Unavailable, http.StatusServiceUnavailable},
		{"canceled", context.Canceled, codes.Canceled, 499},
		{"anything else", errors.New("boom"), codes.Internal, http.StatusInternalServerError},
	} {
		t.Run(c.name, func(t *testing.T) {
			st := status.Convert(hall.Status(c.err))
			if st.Code() != c.code || st.Message() != c.err.Error() {
				t.Errorf("Status(%v) = %v %q, want %v with the error's message", c.err, st.Code(), st.Message(), c.code)
			}
			if got, _, _ := hall.HTTP(c.err); got != c.http {
				t.Errorf("HTTP(%v) = %d, want %d", c.err, got, c.http)
			}
		})
	}
}

// A fault of the store, and a hall not ready, tell the caller when to
// come back; without a store, a store's error is just internal.
func TestRetryLater(t *testing.T) {
	for _, err := range []error{errStoreFull, fmt.Errorf("%w: retry later", ErrNotReady)} {
		st := status.Convert(hall.Status(err))
		var delay time.Duration
		for _, d := range st.Details() {
			if ri, ok := d.(*errdetails.RetryInfo); ok {
				delay = ri.GetRetryDelay().AsDuration()
			}
		}
		if st.Code() != codes.Unavailable || delay != 3*time.Second {
			t.Errorf("Status(%v) = %v with retry delay %v, want UNAVAILABLE with 3s", err, st.Code(), delay)
		}
	}
	if c := status.Code(Codes{}.Status(errStoreMissing)); c != codes.Internal {
		t.Errorf("without a store, its error is %v, want INTERNAL", c)
	}
}

// A status error passes as it is; the interceptors map a handler's error
// once; the JSON form names the code.
func TestInterceptorsAndJSON(t *testing.T) {
	already := status.Error(codes.Aborted, "stream reset")
	if got := hall.Status(already); got != already {
		t.Errorf("Status of a status error = %v, want it unchanged", got)
	}
	_, err := hall.UnaryServerInterceptor()(context.Background(), nil, &grpc.UnaryServerInfo{},
		func(context.Context, any) (any, error) { return nil, ErrPermission })
	if status.Code(err) != codes.PermissionDenied {
		t.Errorf("unary interceptor: %v, want PERMISSION_DENIED", err)
	}
	err = hall.StreamServerInterceptor()(nil, nil, &grpc.StreamServerInfo{},
		func(any, grpc.ServerStream) error { return ErrSequenceGap })
	if status.Code(err) != codes.OutOfRange {
		t.Errorf("stream interceptor: %v, want OUT_OF_RANGE", err)
	}
	w := httptest.NewRecorder()
	hall.WriteJSON(w, fmt.Errorf("%w: role broadcast may not call it", ErrPermission))
	if w.Code != http.StatusForbidden || w.Body.String() != `{"code":"PermissionDenied","message":"permission denied: role broadcast may not call it"}`+"\n" {
		t.Errorf("WriteJSON: %d %s", w.Code, w.Body)
	}
}
