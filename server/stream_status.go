package server

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/chesshall/hallclock/server/auth"
)

// The hall's stream: a publisher (package storage/publish,
// wired by cmd/hallserver) drains the store's outbox into NATS JetStream
// for gateways and a federation's view. The server only reports on it:
// Options.Stream says how it fares, shown at GET /api/stream for the
// dashboard and as metrics.

// StreamStatus is how the hall's publisher to NATS JetStream fares.
type StreamStatus struct {
	Hall   string `json:"hall"`   // the hall's id: its subjects are hall.<hall>.>
	Stream string `json:"stream"` // its stream, HALL_<hall>
	NATS   string `json:"nats"`   // where: "embedded nats://127.0.0.1:4222" or the cluster's URLs
	// Connected: the publisher reaches the stream and publishes.
	Connected bool `json:"connected"`
	// Backlog is the number of committed changes not yet in the stream;
	// OldestAgeMs how long (ms) the oldest of them has waited.
	Backlog     uint64 `json:"backlog"`
	OldestAgeMs int64  `json:"oldestAgeMs"`
	// Published is the outbox row up to which the stream has the hall;
	// Acked the messages the stream acknowledged since the server started.
	Published uint64 `json:"published"`
	Acked     uint64 `json:"acked"`
	// LastError is the publisher's last failure ("" while it publishes),
	// LastErrorUnixMs when (Unix ms, 0 if none).
	LastError       string `json:"lastError,omitempty"`
	LastErrorUnixMs int64  `json:"lastErrorUnixMs,omitempty"`
	// Ahead: the stream holds changes this hall's database never made
	// (restored from an older backup); nothing is published until the
	// stream is deleted.
	Ahead bool `json:"ahead,omitempty"`
}

// serveStream answers GET /api/stream: the publisher's StreamStatus as
// JSON, for arbiters and the chief arbiter; 404 when the hall publishes
// nowhere.
func (s *Server) serveStream(w http.ResponseWriter, r *http.Request) {
	if _, err := s.sessions.WebIdentity(r, auth.RoleChief, auth.RoleArbiter); err != nil {
		s.codes.WriteHTTP(w, err)
		return
	}
	if s.opts.Stream == nil {
		http.Error(w, "the hall publishes to no stream (hallserver -nats off)", http.StatusNotFound)
		return
	}
	st, err := s.opts.Stream(r.Context())
	if err != nil {
		s.codes.WriteHTTP(w, err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_ = json.NewEncoder(w).Encode(st)
}

// streamCollector reports the publisher at each scrape.
type streamCollector struct {
	s                                     *Server
	backlog, age, connected, acked, ahead *prometheus.Desc
}

func newStreamCollector(s *Server) *streamCollector {
	d := func(name, help string) *prometheus.Desc { return prometheus.NewDesc(name, help, nil, nil) }
	return &streamCollector{s: s,
		backlog:   d("hall_outbox_backlog", "Committed changes not yet in the hall's NATS stream (outbox rows)."),
		age:       d("hall_outbox_oldest_age_seconds", "How long the oldest change not yet in the stream has waited (0 when none)."),
		connected: d("hall_stream_connected", "1 while the publisher reaches the hall's stream, else 0."),
		acked:     d("hall_stream_acked_total", "Messages the hall's stream acknowledged since the server started."),
		ahead:     d("hall_stream_ahead", "1 when the stream holds changes this hall never made (restored from an older backup)."),
	}
}

func (c *streamCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- c.backlog
	ch <- c.age
	ch <- c.connected
	ch <- c.acked
	ch <- c.ahead
}

func (c *streamCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	st, err := c.s.opts.Stream(ctx)
	if err != nil {
		return
	}
	b := func(v bool) float64 {
		if v {
			return 1
		}
		return 0
	}
	ch <- prometheus.MustNewConstMetric(c.backlog, prometheus.GaugeValue, float64(st.Backlog))
	ch <- prometheus.MustNewConstMetric(c.age, prometheus.GaugeValue, float64(st.OldestAgeMs)/1000)
	ch <- prometheus.MustNewConstMetric(c.connected, prometheus.GaugeValue, b(st.Connected))
	ch <- prometheus.MustNewConstMetric(c.acked, prometheus.CounterValue, float64(st.Acked))
	ch <- prometheus.MustNewConstMetric(c.ahead, prometheus.GaugeValue, b(st.Ahead))
}
