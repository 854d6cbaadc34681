package clockdev

import (
	"log/slog"
	"time"
)

// maxRetryHint bounds the retry delay a hall may ask for.
const maxRetryHint = 5 * time.Minute

// serverFault reports whether a stream ended by a fault of the hall's own
// (not the network's, not the device's), and the retry delay the hall
// named, if any (google.rpc.RetryInfo, or a LinkError's).
func serverFault(err error) (hint time.Duration, fault bool) {
	code, hint, ok := linkStatus(err)
	if !ok {
		return 0, false
	}
	switch code {
	case codeInternal, codeResourceExhausted, codeDataLoss:
		return hint, true
	case codeUnavailable:
		return hint, hint > 0 // a restart or a cut is not the hall's fault
	}
	return hint, hint > 0
}

// linkLog rate-limits the link's warnings: a failure like the last one is
// logged at debug level, and at warning level again only once a minute
// (with how many were not), so a hall that cannot store events does not
// flood the device's log.
type linkLog struct {
	last       string
	lastWarn   time.Time
	suppressed int
}

const linkLogEvery = time.Minute

func (l *linkLog) down(log *slog.Logger, err error, wait time.Duration, now time.Time) {
	text := "<nil>"
	if err != nil {
		text = err.Error()
	}
	if text == l.last && now.Sub(l.lastWarn) < linkLogEvery {
		l.suppressed++
		log.Debug("link down", "err", err, "retry_in", wait)
		return
	}
	switch {
	case l.suppressed > 0 && text == l.last:
		log.Warn("link down", "err", err, "retry_in", wait, "repeated", l.suppressed)
	case l.suppressed > 0:
		log.Warn("link down", "err", err, "retry_in", wait, "previous_err", l.last, "previous_repeated", l.suppressed)
	default:
		log.Warn("link down", "err", err, "retry_in", wait)
	}
	l.last, l.lastWarn, l.suppressed = text, now, 0
}
