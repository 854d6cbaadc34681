package broadcast

import (
	"github.com/prometheus/client_golang/prometheus"
)

// metrics of the feeds, all named hall_broadcast_*.
type metrics struct {
	requests      *prometheus.CounterVec // by feed and HTTP status
	cuts          prometheus.Counter
	games         prometheus.Counter
	renderSeconds prometheus.Histogram
	pushes        *prometheus.CounterVec // by round and outcome
	streams       prometheus.Gauge
}

func newMetrics(f *Feeds, reg prometheus.Registerer) *metrics {
	const ns, sub = "hall", "broadcast"
	m := &metrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: ns, Subsystem: sub, Name: "requests_total",
			Help: "Feed requests by feed (pgn_round, pgn_board, display) and HTTP status; 304 is a poll that cost nothing."}, []string{"feed", "code"}),
		cuts: prometheus.NewCounter(prometheus.CounterOpts{Namespace: ns, Subsystem: sub, Name: "cuts_total",
			Help: "Views of a round made again because it changed (or an event came out of the delay)."}),
		games: prometheus.NewCounter(prometheus.CounterOpts{Namespace: ns, Subsystem: sub, Name: "games_rendered_total",
			Help: "Games written as PGN (each once per state shown)."}),
		renderSeconds: prometheus.NewHistogram(prometheus.HistogramOpts{Namespace: ns, Subsystem: sub, Name: "render_seconds",
			Help: "Time to write a round's PGN document after a change.", Buckets: prometheus.ExponentialBuckets(0.0001, 4, 8)}),
		pushes: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: ns, Subsystem: sub, Name: "relay_pushes_total",
			Help: "Pushes of a round's PGN to its relay, by round and outcome (ok, failed)."}, []string{"round", "outcome"}),
		streams: prometheus.NewGauge(prometheus.GaugeOpts{Namespace: ns, Subsystem: sub, Name: "display_streams",
			Help: "Display pages following a round now."}),
	}
	if reg != nil {
		reg.MustRegister(m.requests, m.cuts, m.games, m.renderSeconds, m.pushes, m.streams, &relayCollector{f: f})
	}
	return m
}

var (
	relayBehindDesc = prometheus.NewDesc("hall_broadcast_relay_behind",
		"1 while the relay has not got the round's current PGN (a push pending, in flight or failing).", []string{"round"}, nil)
	relayFailuresDesc = prometheus.NewDesc("hall_broadcast_relay_consecutive_failures",
		"Failed pushes since the last one that succeeded.", []string{"round"}, nil)
	relaySuccessDesc = prometheus.NewDesc("hall_broadcast_relay_last_success_timestamp_seconds",
		"When the relay last accepted a push (Unix seconds; 0: never).", []string{"round"}, nil)
)

// relayCollector reports each relay's status at scrape time.
type relayCollector struct{ f *Feeds }

func (c *relayCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- relayBehindDesc
	ch <- relayFailuresDesc
	ch <- relaySuccessDesc
}

func (c *relayCollector) Collect(ch chan<- prometheus.Metric) {
	for _, st := range c.f.RelayStatuses() {
		behind := 0.0
		if st.Behind {
			behind = 1
		}
		var last float64
		if !st.LastSuccess.IsZero() {
			last = float64(st.LastSuccess.UnixMilli()) / 1000
		}
		ch <- prometheus.MustNewConstMetric(relayBehindDesc, prometheus.GaugeValue, behind, st.RoundID)
		ch <- prometheus.MustNewConstMetric(relayFailuresDesc, prometheus.GaugeValue, float64(st.ConsecutiveFailures), st.RoundID)
		ch <- prometheus.MustNewConstMetric(relaySuccessDesc, prometheus.GaugeValue, last, st.RoundID)
	}
}
