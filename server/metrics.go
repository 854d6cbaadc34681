package server

import (
	"net/http"

	grpcprom "github.com/grpc-ecosystem/go-grpc-middleware/providers/prometheus"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// metrics are the server's Prometheus metrics, on a registry of its own
// (so several servers can run in one process, as in tests), served at
// /metrics: gRPC calls by method and code with handling times, the hall's
// counters (Stats), devices online, boards by status, and the store's
// commits and writes (their ratio is the group-commit size).
type metrics struct {
	reg  *prometheus.Registry
	grpc *grpcprom.ServerMetrics
}

func (s *Server) newMetrics() *metrics {
	m := &metrics{reg: prometheus.NewRegistry(), grpc: grpcprom.NewServerMetrics(grpcprom.WithServerHandlingTimeHistogram())}
	m.reg.MustRegister(m.grpc, collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	counter := func(name, help string, f func(Stats) uint64) {
		m.reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{Namespace: "hall", Name: name, Help: help},
			func() float64 { return float64(f(s.Stats())) }))
	}
	counter("device_connects_total", "Device streams welcomed.", func(st Stats) uint64 { return st.Connects })
	counter("device_websocket_connects_total", "Device streams welcomed over WebSocket (/clocklink), a part of device_connects_total.",
		func(st Stats) uint64 { return st.WebSocketConnects })
	counter("device_messages_received_total", "Device messages received (events and heartbeats), counted as they arrive.", func(st Stats) uint64 { return st.Received })
	counter("device_events_applied_total", "Device events applied and committed.", func(st Stats) uint64 { return st.EventsApplied })
	counter("device_events_rejected_total", "Device events refused by the rules (committed to the audit log).", func(st Stats) uint64 { return st.Rejected })
	counter("device_events_duplicate_total", "Device events dropped as already received and acknowledged again.", func(st Stats) uint64 { return st.Duplicates })
	counter("device_sequence_gaps_total", "Device streams ended because a sequence number was skipped.", func(st Stats) uint64 { return st.Gaps })
	counter("late_silence_checks_total", "Checks for silent devices that ran over a heartbeat interval late (the hall overloaded); the device got more time.",
		func(st Stats) uint64 { return st.LateWatchdogs })
	counter("device_silence_cuts_total", "Clocks taken offline for sending nothing for three heartbeat intervals (two at intervals over 1 s).",
		func(st Stats) uint64 { return st.SilenceCuts })
	counter("watch_holds_total", "Watchers' updates held back while presses waited over 500 ms to be acknowledged (ingest first).",
		func(st Stats) uint64 { return st.WatchHolds })
	counter("arbiter_commands_total", "Arbiter commands issued to clocks.", func(st Stats) uint64 { return st.Commands })
	m.reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{Namespace: "hall", Name: "store_commits_total", Help: "Transactions committed by the store."},
		func() float64 { c, _ := s.store.Stats(); return float64(c) }))
	m.reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{Namespace: "hall", Name: "store_writes_total", Help: "Writes committed by the store (grouped into commits)."},
		func() float64 { _, w := s.store.Stats(); return float64(w) }))
	m.reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{Namespace: "hall", Name: "signin_refused_total",
		Help: "Web sign-ins refused (429) because their address failed too often (auth.SignInLimit)."},
		func() float64 { return float64(s.signIns.Refused()) }))
	for reason, n := range map[string]func(d *callDoor) uint64{
		"unauthenticated": func(d *callDoor) uint64 { return d.unauthenticated.Load() },
		"permission":      func(d *callDoor) uint64 { return d.denied.Load() },
		"budget":          func(d *callDoor) uint64 { return d.busy.Load() },
	} {
		m.reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{Namespace: "hall", Name: "grpc_door_refused_total",
			Help:        "gRPC calls refused on their headers, before their request was read, by reason.",
			ConstLabels: prometheus.Labels{"reason": reason}},
			func() float64 {
				if s.calls == nil {
					return 0
				}
				return float64(n(s.calls))
			}))
	}
	m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Namespace: "hall", Name: "sched_latency_p99_seconds",
		Help: "How long runnable goroutines waited to run (p99, last 250 ms): over 0.2 s the hall is behind."},
		func() float64 { return s.lag.Last().Seconds() }))
	m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Namespace: "hall", Name: "devices_online", Help: "Clock devices connected now."},
		func() float64 { return float64(s.hall.Online()) }))
	m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Namespace: "hall", Name: "streams_open", Help: "Streams open now with a token (clock links, watch streams, SSE feeds)."},
		func() float64 { return float64(s.streams.Open()) }))
	m.reg.MustRegister(s.door.Collector("hall"))
	m.reg.MustRegister(&boardCollector{s: s, desc: prometheus.NewDesc("hall_boards", "Boards by status.", []string{"status"}, nil)})
	if s.opts.Stream != nil {
		m.reg.MustRegister(newStreamCollector(s))
	}
	return m
}

// boardCollector counts boards by status from the hub's latest states.
type boardCollector struct {
	s    *Server
	desc *prometheus.Desc
}

func (c *boardCollector) Describe(ch chan<- *prometheus.Desc) { ch <- c.desc }

func (c *boardCollector) Collect(ch chan<- prometheus.Metric) {
	counts := map[string]int{}
	c.s.hub.Each(func(st *pb.BoardState) { counts[st.GetStatus().String()]++ })
	for st, n := range counts {
		ch <- prometheus.MustNewConstMetric(c.desc, prometheus.GaugeValue, float64(n), st)
	}
}

func (m *metrics) handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg})
}
