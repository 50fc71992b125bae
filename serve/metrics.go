package serve

import (
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// metrics are the server's Prometheus series, on a registry of its own.
type metrics struct {
	reg         *prometheus.Registry
	requests    *prometheus.CounterVec   // route, code
	latency     *prometheus.HistogramVec // route
	rejections  *prometheus.CounterVec   // reason
	submissions *prometheus.CounterVec   // competition
}

func newMetrics() *metrics {
	m := &metrics{
		reg: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "labelinf_http_requests_total", Help: "HTTP requests by route pattern and status code.",
		}, []string{"route", "code"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "labelinf_http_request_duration_seconds", Help: "HTTP request latency by route pattern.",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
		}, []string{"route"}),
		rejections: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "labelinf_rejections_total", Help: "Rejected requests by reason.",
		}, []string{"reason"}),
		submissions: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "labelinf_submissions_total", Help: "Accepted (charged) submissions by competition.",
		}, []string{"competition"}),
	}
	m.reg.MustRegister(m.requests, m.latency, m.rejections, m.submissions,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

func (m *metrics) handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg})
}

// statusWriter records the status a handler wrote.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func (m *metrics) observe(route string, start time.Time, status int) {
	m.latency.WithLabelValues(route).Observe(time.Since(start).Seconds())
	m.requests.WithLabelValues(route, strconv.Itoa(status)).Inc()
}
