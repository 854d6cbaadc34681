package natsrun

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
)

// serverLog is the embedded server's logger: it keeps the first fatal
// error (nats-server reports a port it cannot bind, or a JetStream store
// it cannot open, only by logging it, and then never gets ready), and
// prints everything to stderr when Options.Debug asks for it.
type serverLog struct {
	name  string
	out   io.Writer // nil: silent
	mu    sync.Mutex
	fatal string
	fail  chan struct{} // closed at the first fatal error
}

func newServerLog(name string, debug bool) *serverLog {
	l := &serverLog{name: name, fail: make(chan struct{})}
	if debug {
		l.out = os.Stderr
	}
	return l
}

func (l *serverLog) print(level, format string, v ...any) {
	if l.out != nil {
		fmt.Fprintf(l.out, "nats %s [%s] %s\n", l.name, level, fmt.Sprintf(format, v...))
	}
}

func (l *serverLog) Noticef(format string, v ...any) { l.print("INF", format, v...) }
func (l *serverLog) Warnf(format string, v ...any)   { l.print("WRN", format, v...) }
func (l *serverLog) Errorf(format string, v ...any)  { l.print("ERR", format, v...) }
func (l *serverLog) Debugf(format string, v ...any)  { l.print("DBG", format, v...) }
func (l *serverLog) Tracef(format string, v ...any)  { l.print("TRC", format, v...) }

func (l *serverLog) Fatalf(format string, v ...any) {
	l.print("FTL", format, v...)
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.fatal == "" {
		l.fatal = strings.TrimSpace(fmt.Sprintf(format, v...))
		close(l.fail)
	}
}

// failure returns the first fatal error, "" if none.
func (l *serverLog) failure() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.fatal
}
