package hallerr

import (
	"errors"
	"fmt"
)

// The kinds of error of the hall's services; the rules and the store have
// their own. Each maps to one gRPC code (Codes). Append only: clients
// match the messages' codes, not these values, but the table below names
// them all.
var (
	ErrUnknownBoard    = errors.New("no such board")
	ErrNoDevice        = errors.New("board has no device")
	ErrPermission      = errors.New("permission denied")
	ErrUnauthenticated = errors.New("unauthenticated")
	ErrBadRequest      = errors.New("invalid request")
	ErrShuttingDown    = errors.New("server is shutting down")
	ErrHubClosed       = errors.New("server is shutting down")          // a watcher's hub closed (shutdown)
	ErrSequenceGap     = errors.New("sequence gap")                     // a device skipped a sequence number
	ErrDeviceSilent    = errors.New("device silent")                    // no message for its silence (three heartbeat intervals at 1 s, two at longer ones)
	ErrSlowDevice      = errors.New("device not reading")               // its message queue is full
	ErrReplaced        = errors.New("connection replaced")              // a newer stream of the same device
	ErrBeyondHead      = errors.New("beyond the newest change")         // a watcher resuming after a change never made
	ErrDeviceBusy      = errors.New("device busy")                      // it keeps another board whose game is not over
	ErrNotReady        = errors.New("the hall cannot store events now") // readiness fails: a device is asked to come back later
	ErrNoHello         = errors.New("no hello")                         // a device stream silent from the start
	ErrTooManyStreams  = errors.New("too many streams")                 // a token's streams at their limit
	ErrRoundStarted    = errors.New("round started")                    // a round replaced after a clock started
	ErrUnknownMethod   = errors.New("unknown method")                   // the web pages called a method the service does not have
	ErrTooManyAttempts = errors.New("too many attempts")                // sign-ins from one address beyond their limit
	ErrTooLarge        = errors.New("request too large")                // a request beyond its method's size limit
	ErrBodiesBusy      = errors.New("too many large requests")          // the memory budget of request bodies being read is spent
)

// BadRequest returns an error of kind ErrBadRequest (INVALID_ARGUMENT)
// saying what was wrong.
func BadRequest(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrBadRequest, fmt.Sprintf(format, args...))
}

// Invalid is a request that failed its own check (the contract's Validate
// methods, whose *hallv1.FieldError names the field) as the door refuses
// it: of kind ErrBadRequest, the field's error wrapped.
func Invalid(err error) error {
	return fmt.Errorf("%w: %w", ErrBadRequest, err)
}
