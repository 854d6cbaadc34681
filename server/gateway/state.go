package gateway

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"time"
)

// A gateway that cannot follow says so at once: why (not connected to
// NATS and the server's last word — an authorization violation for
// missing credentials —, its streams not listed, a hall's stream not
// read) goes to the log at WARN when it starts and at INFO when it ends,
// to GET /api/following and the federation page, and to /readyz.

// followState is what keeps the gateway from following, "" for nothing.
type followState struct {
	mu       sync.Mutex
	conn     string    // not connected to NATS: why
	connErr  string    // the connection's last error seen while not connected
	down     time.Time // when the connection was first seen down
	discover string    // listing the halls' streams failed: why
	said     string    // the problem last logged
	since    time.Time // when it began
}

// problem is what keeps the gateway from following, or "".
func (g *Gateway) problem() (string, time.Time) {
	s := &g.state
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.problemLocked(), s.since
}

func (s *followState) problemLocked() string {
	if s.conn != "" {
		return s.conn
	}
	return s.discover
}

// update changes the state under its lock and logs a change of problem.
func (g *Gateway) update(change func(s *followState)) {
	s := &g.state
	s.mu.Lock()
	change(s)
	now, was := s.problemLocked(), s.said
	if now != was {
		s.said, s.since = now, g.clock.Now()
	}
	s.mu.Unlock()
	switch {
	case now == was:
	case now != "":
		g.log.Warn("gateway: cannot follow the halls", "problem", now)
	default:
		g.log.Info("gateway: following the halls again", "after", was)
	}
}

// checkConn looks at the NATS connection: connected, or not and why.
func (g *Gateway) checkConn() {
	nc := g.opts.Conn
	connected := nc.IsConnected()
	now := g.clock.Now()
	var last string
	if err := nc.LastError(); err != nil {
		last = err.Error()
	}
	g.update(func(s *followState) {
		if connected {
			s.conn, s.connErr, s.down = "", "", time.Time{}
			return
		}
		if last != "" {
			s.connErr = last
		}
		if s.down.IsZero() {
			s.down = now
		}
		if s.connErr == "" && now.Sub(s.down) < time.Second {
			return // (re)connecting: wait a moment for the server's word
		}
		why := "not connected to NATS " + strings.Join(nc.Servers(), ",") + " (" + strings.ToLower(nc.Status().String()) + ")"
		if s.connErr != "" {
			why += ": " + s.connErr
			if strings.Contains(strings.ToLower(s.connErr), "authorization") {
				why += " — give the gateway's NATS credentials (-nats-nkey, -nats-creds)"
			}
		}
		s.conn = why
	})
}

// watchConn checks the connection until ctx ends: at once, then often
// (the client keeps its last error only between two attempts).
func (g *Gateway) watchConn(ctx context.Context) {
	t := time.NewTicker(100 * time.Millisecond)
	defer t.Stop()
	for {
		g.checkConn()
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// FollowStatus is GET /api/following: whether the gateway follows, and
// if not, why.
type FollowStatus struct {
	// Following: connected, and reading every hall's stream.
	Following bool `json:"following"`
	// Problem is what keeps it from following any hall (NATS); a hall's
	// own is in Halls.
	Problem string `json:"problem,omitempty"`
	// SinceUnixMs is when the problem began.
	SinceUnixMs int64        `json:"sinceUnixMs,omitempty"`
	Halls       []HallStatus `json:"halls"`
}

// HallStatus is one hall followed.
type HallStatus struct {
	Hall    string `json:"hall"`
	Ready   bool   `json:"ready"`             // read to the end of its stream
	Problem string `json:"problem,omitempty"` // why its stream is not read
}

// Following reports whether the gateway follows its halls, and why not.
func (g *Gateway) Following() FollowStatus {
	p, since := g.problem()
	st := FollowStatus{Following: p == "", Problem: p, Halls: []HallStatus{}}
	if p != "" {
		st.SinceUnixMs = since.UnixMilli()
	}
	for _, h := range g.hallList() {
		h.mu.Lock()
		st.Halls = append(st.Halls, HallStatus{Hall: h.id, Ready: h.caughtUp, Problem: h.problem})
		st.Following = st.Following && h.problem == ""
		h.mu.Unlock()
	}
	return st
}

func (g *Gateway) serveFollowing(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_ = json.NewEncoder(w).Encode(g.Following())
}

// setProblem records why the hall's stream is not read ("" once it is).
func (h *hall) setProblem(why string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.problem = why
}
