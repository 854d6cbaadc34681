package gateway

import (
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
)

// gatewayMetrics are the gateway's own counters; the per-hall figures are
// read at each scrape (hallCollector).
type gatewayMetrics struct {
	watchers prometheus.Gauge
	updates  prometheus.Counter
}

// newMetrics makes the gateway's registry, served at /metrics:
//
//	hall_gateway_watchers            watch streams open (gRPC and SSE)
//	hall_gateway_updates_total       updates sent to watchers
//	hall_gateway_messages_total      stream messages applied, by hall
//	hall_gateway_pending             stream messages not yet applied, by hall (the lag)
//	hall_gateway_refused_total       messages refused, by hall: not written by the hall (unsigned, forged, another key), events out of order or refused by the rules (0 unless something is wrong)
//	hall_gateway_replayed_total      messages the hall wrote, refused as replayed: their outbox number not above the last applied, by hall (also in refused_total)
//	hall_gateway_hall_seq            the hall's last change number applied, by hall
//	hall_gateway_http_connections    HTTP connections open, by class (httpdoor)
//	hall_gateway_http_refused_total  HTTP connections and requests refused, by reason (httpdoor)
func (g *Gateway) newMetrics() *prometheus.Registry {
	reg := prometheus.NewRegistry()
	g.metrics = &gatewayMetrics{
		watchers: prometheus.NewGauge(prometheus.GaugeOpts{Name: "hall_gateway_watchers", Help: "Watch streams open (gRPC and SSE)."}),
		updates:  prometheus.NewCounter(prometheus.CounterOpts{Name: "hall_gateway_updates_total", Help: "Updates sent to watchers."}),
	}
	reg.MustRegister(g.metrics.watchers, g.metrics.updates, &hallCollector{g: g}, g.door.Collector("hall_gateway"),
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return reg
}

type hallCollector struct{ g *Gateway }

var (
	descMessages = prometheus.NewDesc("hall_gateway_messages_total", "Stream messages applied.", []string{"hall"}, nil)
	descPending  = prometheus.NewDesc("hall_gateway_pending", "Stream messages not yet applied (the lag behind the hall).", []string{"hall"}, nil)
	descRefused  = prometheus.NewDesc("hall_gateway_refused_total", "Messages refused: not written by the hall (unsigned, forged, another key), events out of order or refused by the rules (0 unless something is wrong).", []string{"hall"}, nil)
	descReplayed = prometheus.NewDesc("hall_gateway_replayed_total", "Messages the hall wrote, refused as replayed: their outbox number is not above the last applied (also counted in hall_gateway_refused_total).", []string{"hall"}, nil)
	descHallSeq  = prometheus.NewDesc("hall_gateway_hall_seq", "The hall's last change number applied.", []string{"hall"}, nil)
)

func (c *hallCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- descMessages
	ch <- descPending
	ch <- descRefused
	ch <- descReplayed
	ch <- descHallSeq
}

func (c *hallCollector) Collect(ch chan<- prometheus.Metric) {
	for _, h := range c.g.hallList() {
		h.mu.Lock()
		applied, pending, refused, replayed, seq := h.applied, h.pending, h.refused, h.replayed, h.lastSeq
		h.mu.Unlock()
		ch <- prometheus.MustNewConstMetric(descMessages, prometheus.CounterValue, float64(applied), h.id)
		ch <- prometheus.MustNewConstMetric(descPending, prometheus.GaugeValue, float64(pending), h.id)
		ch <- prometheus.MustNewConstMetric(descRefused, prometheus.CounterValue, float64(refused), h.id)
		ch <- prometheus.MustNewConstMetric(descReplayed, prometheus.CounterValue, float64(replayed), h.id)
		ch <- prometheus.MustNewConstMetric(descHallSeq, prometheus.GaugeValue, float64(seq), h.id)
	}
}
