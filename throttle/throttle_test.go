package throttle

import (
	"net/http/httptest"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
)

type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func TestGuard(t *testing.T) {
	c := &clock{t: time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)}
	reg := prometheus.NewRegistry()
	m := NewMetrics(reg)
	g := New(Options{Name: "admin", Burst: 3, Refill: 10 * time.Second, Now: c.now, Metrics: m})
	attacker := httptest.NewRequest("GET", "/", nil)
	attacker.RemoteAddr = "203.0.113.9:5000"
	other := httptest.NewRequest("GET", "/", nil)
	other.RemoteAddr = "198.51.100.1:6000"

	for i := range 3 {
		if err := g.Check(attacker); err != nil {
			t.Fatalf("attempt %d throttled: %v", i+1, err)
		}
		g.Fail(attacker)
	}
	err := g.Check(attacker)
	var e *gtmgate.Error
	if gtmgate.ErrorCode(err) != gtmgate.ERateLimited {
		t.Fatalf("after the budget: %v, want RATE_LIMITED", err)
	}
	if e = gtmgate.AsError(err); e.RetryAfter != 10 {
		t.Fatalf("Retry-After = %d, want 10", e.RetryAfter)
	}
	// Another address is never locked out by the first one's failures.
	if err := g.Check(other); err != nil {
		t.Fatalf("other address throttled: %v", err)
	}
	// The budget refills at the configured rate.
	c.t = c.t.Add(4 * time.Second)
	if e := gtmgate.AsError(g.Check(attacker)); e.RetryAfter != 6 {
		t.Fatalf("Retry-After after 4 s = %d, want 6", e.RetryAfter)
	}
	c.t = c.t.Add(6 * time.Second)
	if err := g.Check(attacker); err != nil {
		t.Fatalf("after refill: %v", err)
	}
	if got := testutil.ToFloat64(m.failures.WithLabelValues("admin")); got != 3 {
		t.Errorf("failures metric = %v, want 3", got)
	}
	if got := testutil.ToFloat64(m.throttles.WithLabelValues("admin")); got != 2 {
		t.Errorf("throttled metric = %v, want 2", got)
	}
}

func TestNilGuardAllows(t *testing.T) {
	var g *Guard
	if err := g.Check(httptest.NewRequest("GET", "/", nil)); err != nil {
		t.Fatal(err)
	}
	g.Fail(httptest.NewRequest("GET", "/", nil))
}
