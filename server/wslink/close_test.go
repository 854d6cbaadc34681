package wslink

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/coder/websocket"

	"github.com/chesshall/hallclock/server/hallerr"
)

// Why a stream ended, as its close frame says it: 4000 + the gRPC code,
// the message cut to what a close frame holds (whole characters), the
// retry delay first where the hall names one; 1000 for a clock that
// closed in order.
func TestCloseOf(t *testing.T) {
	h := &Handler{cfg: Config{Codes: hallerr.Codes{RetryDelay: 1500 * time.Millisecond}}}
	long := fmt.Errorf("%w: %s", hallerr.ErrUnauthenticated, strings.Repeat("é", 100))
	for _, c := range []struct {
		err    error
		code   websocket.StatusCode
		reason string
	}{
		{nil, websocket.StatusNormalClosure, ""},
		{io.EOF, websocket.StatusNormalClosure, ""},
		{fmt.Errorf("%w: resend from 2", hallerr.ErrSequenceGap), 4011, "resend from 2"},
		{hallerr.ErrNotReady, 4014, "retry-after-ms=1500; "},
		{hallerr.ErrShuttingDown, 4014, ""},
		{long, 4016, "unauthenticated"},
	} {
		code, reason := h.closeOf(c.err)
		if code != c.code || !strings.HasPrefix(reason, c.reason) && !strings.Contains(reason, c.reason) {
			t.Errorf("closeOf(%v) = %d %q, want %d with %q", c.err, code, reason, c.code, c.reason)
		}
		if len(reason) > maxReason || !utf8.ValidString(reason) {
			t.Errorf("closeOf(%v): reason of %d bytes (valid UTF-8 %v), want at most %d of whole characters", c.err, len(reason), utf8.ValidString(reason), maxReason)
		}
	}
	if code, _ := h.closeOf(errors.New("a fault")); code < CloseBase {
		t.Errorf("an unknown error closes with %d, want a 4000 code", code)
	}
}
