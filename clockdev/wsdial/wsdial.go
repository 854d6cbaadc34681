// Package wsdial is the device library's WebSocket transport: a
// clockdev.Transport that speaks ClockLink over a WebSocket to the hall's
// HTTP port (server/wslink), as a browser's clock does. It links no gRPC,
// so that a js/wasm build of the device library stays small
// (`GOOS=js GOARCH=wasm go list -deps ./clockdev/wsdial` names no
// google.golang.org/grpc). Natively it dials with github.com/coder/websocket
// (coder.go); in a browser (GOOS=js, browser.go) it drives the page's own
// WebSocket through syscall/js and links neither that library nor
// net/http, which would take the browser build past its budget.
//
// One binary frame carries one DeviceMessage or ServerMessage. The token
// is offered as the subprotocol "bearer.<token>" beside "clocklink.v1"
// (a browser cannot set an Authorization header on a WebSocket); the
// hall selects "clocklink.v1". A close frame 4000+c ends a stream as the
// gRPC status code c would: Recv returns a *clockdev.LinkError with the
// code, the reason and the retry delay the hall named. docs/protocol.md
// describes the binding.
//
//	d, err := clockdev.New(clockdev.Config{DeviceID: id, Token: token,
//		Transport: &wsdial.Transport{URL: "wss://hall.local/clocklink"}})
package wsdial

import (
	"strconv"
	"strings"
	"time"

	"github.com/chesshall/hallclock/clockdev"
)

const (
	// Subprotocol is the binding's name.
	Subprotocol = "clocklink.v1"
	// BearerPrefix starts the subprotocol that carries the token.
	BearerPrefix = "bearer."
	// CloseBase plus a gRPC status code is the close code of a stream
	// the hall ended with that status.
	CloseBase = 4000
	// MaxFrame bounds a frame from the hall (4 MiB, as over gRPC).
	MaxFrame = 4 << 20
)

// linkError is the *clockdev.LinkError of a close frame with a code
// CloseBase+c and its reason ("retry-after-ms=N; reason" names a delay),
// ok false for other codes.
func linkError(code int, reason string) (*clockdev.LinkError, bool) {
	if code < CloseBase || code >= CloseBase+100 {
		return nil, false
	}
	le := &clockdev.LinkError{Code: code - CloseBase, Message: reason}
	if rest, ok := strings.CutPrefix(reason, "retry-after-ms="); ok {
		n, msg, _ := strings.Cut(rest, "; ")
		if ms, err := strconv.ParseInt(n, 10, 64); err == nil && ms > 0 {
			le.RetryAfter, le.Message = time.Duration(ms)*time.Millisecond, msg
		}
	}
	return le, true
}
