package main

import (
	"errors"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"runtime"
	"time"

	"github.com/chesshall/hallclock/internal/rtstats"
)

// Profiling: with -debug-addr the server also serves Go's profiler on a
// listener of its own (never on the public ports): CPU, heap, goroutine,
// and, sampled, blocking and mutex contention, e.g.
//
//	go tool pprof http://localhost:6060/debug/pprof/profile?seconds=20
//	go tool pprof http://localhost:6060/debug/pprof/block?seconds=20
//
// tools/bench uses it to profile the hall under load, and reads
// /debug/runtime (the runtime's pauses, assists and scheduling waits so
// far, as JSON: internal/rtstats) before and after each measured window.

// Sampling of the blocking and mutex profiles while the debug listener is
// on: one blocking event per 100 µs spent blocked, one contended mutex in
// ten — cheap enough to leave on under load.
const (
	blockProfileRateNs     = 100_000
	mutexProfileFraction   = 10
	debugReadHeaderTimeout = 5 * time.Second
)

// serveDebug binds addr and serves the profiler there until the listener
// is closed.
func serveDebug(addr string, log *slog.Logger) (net.Listener, error) {
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	runtime.SetBlockProfileRate(blockProfileRateNs)
	runtime.SetMutexProfileFraction(mutexProfileFraction)
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	mux.Handle("/debug/runtime", rtstats.Handler())
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: debugReadHeaderTimeout}
	go func() {
		if err := srv.Serve(l); err != nil && !errors.Is(err, net.ErrClosed) && !errors.Is(err, http.ErrServerClosed) {
			log.Warn("debug listener stopped", "err", err)
		}
	}()
	return l, nil
}
