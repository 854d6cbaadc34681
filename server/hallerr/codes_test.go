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
		name   string
		err    error
		code   codes.Code
		http   int
		reason string // the stable code of google.rpc.ErrorInfo
	}{
		{"bad request", BadRequest("no board id"), codes.InvalidArgument, http.StatusBadRequest, "BAD_REQUEST"},
		{"field error", &pb.FieldError{Field: "board_id", Msg: "empty"}, codes.InvalidArgument, http.StatusBadRequest, "INVALID_FIELD"},
		{"field out of range", &pb.FieldError{Field: "t_ms", Msg: "too large", OutOfRange: true}, codes.OutOfRange, http.StatusBadRequest, "FIELD_OUT_OF_RANGE"},
		{"rules' invalid input", &rules.InputError{What: "FEN", Value: "x"}, codes.InvalidArgument, http.StatusBadRequest, "INVALID_INPUT"},
		{"rules' refusal", fmt.Errorf("board b1: %w", refused), codes.FailedPrecondition, http.StatusConflict, "REFUSED_GAME_OVER"},
		{"time backwards", backwards, codes.OutOfRange, http.StatusBadRequest, "REFUSED_TIME_BACKWARDS"},
		{"not permitted by the Laws", fmt.Errorf("board b1: %w", notPermitted), codes.PermissionDenied, http.StatusForbidden, "REFUSED_NOT_PERMITTED"},
		{"standings of rounds that do not fit", fmt.Errorf("the standings of Open: %w", &standings.InputError{Player: 3, Round: 2, Msg: "opponent 4 names 5"}), codes.FailedPrecondition, http.StatusConflict, "STANDINGS_INCONSISTENT"},
		{"tie-break list refused", &standings.ParseError{Item: 1, Entry: "BH:GP", Msg: "a tie-break of team events"}, codes.InvalidArgument, http.StatusBadRequest, "TIEBREAK_LIST"},
		{"unknown board", fmt.Errorf("%w %q", ErrUnknownBoard, "b9"), codes.NotFound, http.StatusNotFound, "UNKNOWN_BOARD"},
		{"feed not found", broadcast.ErrNotFound, codes.NotFound, http.StatusNotFound, "NOT_FOUND"},
		{"store's not found", fmt.Errorf("round r1: %w", errStoreMissing), codes.NotFound, http.StatusNotFound, "NOT_FOUND"},
		{"device busy", ErrDeviceBusy, codes.FailedPrecondition, http.StatusConflict, "DEVICE_BUSY"},
		{"beyond head", ErrBeyondHead, codes.OutOfRange, http.StatusBadRequest, "BEYOND_HEAD"},
		{"device silent", ErrDeviceSilent, codes.DeadlineExceeded, http.StatusGatewayTimeout, "DEVICE_SILENT"},
		{"too many streams", ErrTooManyStreams, codes.ResourceExhausted, http.StatusTooManyRequests, "TOO_MANY_STREAMS"},
		{"too many sign-in attempts", ErrTooManyAttempts, codes.ResourceExhausted, http.StatusTooManyRequests, "TOO_MANY_ATTEMPTS"},
		{"replaced", ErrReplaced, codes.Aborted, http.StatusInternalServerError, "REPLACED"},
		{"unknown method", ErrUnknownMethod, codes.Unimplemented, http.StatusNotFound, "UNKNOWN_METHOD"},
		{"permission", ErrPermission, codes.PermissionDenied, http.StatusForbidden, "PERMISSION_DENIED"},
		{"not public", broadcast.ErrNotPublic, codes.Unauthenticated, http.StatusUnauthorized, "NOT_PUBLIC"},
		{"shutting down", ErrShuttingDown, codes.Unavailable, http.StatusServiceUnavailable, "SHUTTING_DOWN"},
		{"store fault", fmt.Errorf("commit: %w", errStoreFull), codes.Unavailable, http.StatusServiceUnavailable, "STORE_FAULT"},
		{"canceled", context.Canceled, codes.Canceled, 499, "CANCELED"},
		{"anything else", errors.New("boom"), codes.Internal, http.StatusInternalServerError, "INTERNAL"},
	} {
		t.Run(c.name, func(t *testing.T) {
			st := status.Convert(hall.Status(c.err))
			if st.Code() != c.code || st.Message() != c.err.Error() {
				t.Errorf("Status(%v) = %v %q, want %v with the error's message", c.err, st.Code(), st.Message(), c.code)
			}
			if got, _, _ := hall.HTTP(c.err); got != c.http {
				t.Errorf("HTTP(%v) = %d, want %d", c.err, got, c.http)
			}
			info := ErrorInfo(hall.Status(c.err))
			if info.GetReason() != c.reason || info.GetDomain() != Domain || hall.Reason(c.err) != c.reason {
				t.Errorf("Status(%v) has ErrorInfo %v, want reason %s of %s", c.err, info, c.reason, Domain)
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
	if w.Code != http.StatusForbidden || w.Body.String() != `{"code":"PermissionDenied","reason":"PERMISSION_DENIED","message":"permission denied: role broadcast may not call it"}`+"\n" {
		t.Errorf("WriteJSON: %d %s", w.Code, w.Body)
	}
}

// A refusal of the rules carries its event and its article as the
// ErrorInfo's metadata, and the JSON bridge's body carries them as params:
// what a page needs to write the refusal in its reader's language.
func TestRefusalReasonCarriesItsWords(t *testing.T) {
	refused := fmt.Errorf("board b1: %w", &rules.Refusal{Event: rules.Event{Kind: rules.KindSetClock}, Code: rules.RefusedRunning,
		Rule: "FIDE 2023 Art. 6.10.2", Reason: "stop the clock first"})
	info := ErrorInfo(hall.Status(refused))
	if info.GetReason() != "REFUSED_CLOCK_RUNNING" || info.GetMetadata()["event"] != "set_clock" || info.GetMetadata()["rule"] != "FIDE 2023 Art. 6.10.2" {
		t.Errorf("ErrorInfo = %v", info)
	}
	w := httptest.NewRecorder()
	hall.WriteJSON(w, refused)
	want := `{"code":"FailedPrecondition","reason":"REFUSED_CLOCK_RUNNING","message":"board b1: set_clock refused: stop the clock first (FIDE 2023 Art. 6.10.2)","params":{"event":"set_clock","rule":"FIDE 2023 Art. 6.10.2"}}` + "\n"
	if w.Code != http.StatusConflict || w.Body.String() != want {
		t.Errorf("WriteJSON: %d %s, want %s", w.Code, w.Body, want)
	}
	// A field's error names the field.
	if md := ErrorInfo(hall.Status(Invalid(&pb.FieldError{Field: "board_id", Msg: "empty"}))).GetMetadata(); md["field"] != "board_id" {
		t.Errorf("a field error's metadata %v, want its field", md)
	}
}
