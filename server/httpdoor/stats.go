package httpdoor

import "github.com/prometheus/client_golang/prometheus"

// Reason is why the door refused a connection or a request.
type Reason int

// The reasons. Append only.
const (
	RefusedFull        Reason = iota // a connection beyond every place, closed at once
	RefusedReserveOnly               // a request on a reserve connection that was not a health check: 503
	RefusedMadeWay                   // a reserve connection that had asked nothing, closed for a newcomer
	RefusedBodyTimeout               // a request whose body did not come within BodyTimeout
	NumReasons                       // how many there are
)

// String is the reason's name in metrics.
func (r Reason) String() string {
	switch r {
	case RefusedFull:
		return "full"
	case RefusedReserveOnly:
		return "reserve_only"
	case RefusedMadeWay:
		return "made_way"
	case RefusedBodyTimeout:
		return "body_timeout"
	}
	return "unknown"
}

// Stats is what the door holds and has refused.
type Stats struct {
	Anonymous, Trusted, Reserve int                // connections open now, by class
	Refused                     [NumReasons]uint64 // by Reason
}

// Stats returns the door's counts now.
func (d *Door) Stats() Stats {
	var s Stats
	d.mu.Lock()
	s.Anonymous, s.Trusted, s.Reserve = d.counts[anonymous], d.counts[trusted], d.counts[reserve]
	d.mu.Unlock()
	for i := range s.Refused {
		s.Refused[i] = d.refused[i].Load()
	}
	return s
}

// Collector returns the door's metrics for Prometheus, named after prefix:
// <prefix>_http_connections{class} (open now: anonymous, trusted,
// reserve) and <prefix>_http_refused_total{reason} (by Reason).
func (d *Door) Collector(prefix string) prometheus.Collector {
	return &collector{d: d,
		conns: prometheus.NewDesc(prefix+"_http_connections",
			"HTTP connections open now: anonymous (no credential shown yet), trusted, or on the reserve kept for health checks.", []string{"class"}, nil),
		refused: prometheus.NewDesc(prefix+"_http_refused_total",
			"HTTP connections and requests the door refused: full (no place at all, closed at once), reserve_only (not a health check, "+
				"on a reserve connection: 503), made_way (a reserve connection that was not answering a health check, closed for a newcomer), "+
				"body_timeout (a request body that did not come in time).", []string{"reason"}, nil)}
}

type collector struct {
	d              *Door
	conns, refused *prometheus.Desc
}

func (c *collector) Describe(ch chan<- *prometheus.Desc) { ch <- c.conns; ch <- c.refused }

func (c *collector) Collect(ch chan<- prometheus.Metric) {
	s := c.d.Stats()
	for class, n := range map[string]int{"anonymous": s.Anonymous, "trusted": s.Trusted, "reserve": s.Reserve} {
		ch <- prometheus.MustNewConstMetric(c.conns, prometheus.GaugeValue, float64(n), class)
	}
	for r := range NumReasons {
		ch <- prometheus.MustNewConstMetric(c.refused, prometheus.CounterValue, float64(s.Refused[r]), r.String())
	}
}
