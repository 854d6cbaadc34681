package hallerr

import (
	"encoding/json"
	"errors"
	"net/http"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// httpStatuses is the HTTP status of each gRPC code; any other is 500.
var httpStatuses = map[codes.Code]int{
	codes.InvalidArgument: http.StatusBadRequest, codes.OutOfRange: http.StatusBadRequest,
	codes.Unauthenticated: http.StatusUnauthorized, codes.PermissionDenied: http.StatusForbidden,
	codes.NotFound: http.StatusNotFound, codes.AlreadyExists: http.StatusConflict,
	codes.FailedPrecondition: http.StatusConflict, codes.Unavailable: http.StatusServiceUnavailable,
	codes.DeadlineExceeded: http.StatusGatewayTimeout, codes.Canceled: 499,
	codes.ResourceExhausted: http.StatusTooManyRequests, codes.Unimplemented: http.StatusNotFound,
}

// HTTP returns the HTTP status of err (that of its gRPC code), its gRPC
// code and its message.
func (c Codes) HTTP(err error) (httpStatus int, code codes.Code, msg string) {
	st := status.Convert(c.Status(err))
	httpStatus, ok := httpStatuses[st.Code()]
	switch {
	case errors.Is(err, ErrTooLarge):
		httpStatus = http.StatusRequestEntityTooLarge
	case !ok:
		httpStatus = http.StatusInternalServerError
	}
	return httpStatus, st.Code(), st.Message()
}

// WriteHTTP answers err as plain text with its HTTP status.
func (c Codes) WriteHTTP(w http.ResponseWriter, err error) {
	code, _, msg := c.HTTP(err)
	http.Error(w, msg, code)
}

// callError is the JSON of a refused call.
type callError struct {
	Code    string            `json:"code"`
	Reason  string            `json:"reason"`
	Message string            `json:"message"`
	Params  map[string]string `json:"params,omitempty"`
}

// WriteJSON answers err as {"code": "PermissionDenied", "reason":
// "PERMISSION_DENIED", "message": "...", "params": {...}} with its HTTP
// status: the refusals of the services' JSON bridge. The message is
// English; reason is the stable code a program (or a page, for its
// reader's words) matches, params what its words need (the
// ErrorInfo's metadata).
func (c Codes) WriteJSON(w http.ResponseWriter, err error) {
	httpStatus, code, msg := c.HTTP(err)
	body := callError{Code: code.String(), Message: msg}
	if info := ErrorInfo(c.Status(err)); info != nil {
		body.Reason, body.Params = info.GetReason(), info.GetMetadata()
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(httpStatus)
	_ = json.NewEncoder(w).Encode(body)
}
