package site

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/gtmgate/gtmgate/middleware"
)

// discardWriter is the cheapest ResponseWriter, so a benchmark measures the
// handler and not a recorder.
type discardWriter struct {
	h      http.Header
	status int
}

func (d *discardWriter) Header() http.Header         { return d.h }
func (d *discardWriter) Write(b []byte) (int, error) { return len(b), nil }
func (d *discardWriter) WriteHeader(code int)        { d.status = code }

// BenchmarkServe measures the site's own work per request, without the
// network: the content handler alone, and behind the middleware every
// listener has (request id, metrics, access log at warn level, recovery).
func BenchmarkServe(b *testing.B) {
	site := newHandler(b, "")
	logger := slog.New(slog.DiscardHandler)
	chained := middleware.Chain(site, middleware.RequestID(logger), middleware.Observe("site", middleware.NewMetrics()), middleware.Recover)
	for _, h := range []struct {
		name string
		h    http.Handler
	}{{"handler", site}, {"surface", chained}} {
		for _, path := range []string{"/about.md", "/llms-full.txt", "/about"} {
			b.Run(h.name+path, func(b *testing.B) {
				req := httptest.NewRequest("GET", path, nil)
				w := &discardWriter{h: http.Header{}}
				b.ReportAllocs()
				for b.Loop() {
					clear(w.h)
					h.h.ServeHTTP(w, req)
					if w.status != 0 && w.status != http.StatusOK {
						b.Fatal(w.status)
					}
				}
			})
		}
	}
}
