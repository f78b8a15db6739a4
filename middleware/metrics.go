package middleware

import (
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Metrics holds the HTTP metrics of all listeners in one registry.
type Metrics struct {
	Registry *prometheus.Registry
	requests *prometheus.CounterVec
	latency  *prometheus.HistogramVec
	// series caches each (surface, route, status)'s counter and histogram:
	// looking them up by label values hashes and locks on every request.
	series sync.Map // seriesKey → *series
}

type seriesKey struct {
	surface, route string
	status         int
}

type series struct {
	requests prometheus.Counter
	latency  prometheus.Observer
}

// NewMetrics registers the request counter and latency histogram plus the Go
// and process collectors.
func NewMetrics() *Metrics {
	reg := prometheus.NewRegistry()
	m := &Metrics{
		Registry: reg,
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "gtmgate_http_requests_total", Help: "HTTP requests by surface, route and status.",
		}, []string{"surface", "route", "status"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "gtmgate_http_request_duration_seconds",
			Help:    "HTTP request latency by surface, route and status.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30},
		}, []string{"surface", "route", "status"}),
	}
	reg.MustRegister(m.requests, m.latency, collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// Handler serves the metrics in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.Registry, promhttp.HandlerOpts{})
}

func (m *Metrics) observe(surface, route string, status int, d time.Duration) {
	k := seriesKey{surface, route, status}
	v, ok := m.series.Load(k)
	if !ok {
		code := strconv.Itoa(status)
		v, _ = m.series.LoadOrStore(k, &series{
			requests: m.requests.WithLabelValues(surface, route, code),
			latency:  m.latency.WithLabelValues(surface, route, code),
		})
	}
	s := v.(*series)
	s.requests.Inc()
	s.latency.Observe(d.Seconds())
}
