package ratelimit_test

import (
	"net/http/httptest"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/ratelimit"
)

// BenchmarkAdmit is one request of a tenant with a tenant and a per-token
// limit that it stays under: both buckets and the RateLimit headers.
func BenchmarkAdmit(b *testing.B) {
	ts := tenants{"acme": {ID: "acme", RateLimits: &gtmgate.RateLimits{
		Tenant:   &gtmgate.RateLimit{RequestsPerSecond: 1e6, Burst: 1e6},
		PerToken: &gtmgate.RateLimit{RequestsPerSecond: 1e6, Burst: 1e6}}}}
	// The clock moves a millisecond a request, so the buckets never run dry.
	now := time.Now()
	l := ratelimit.New(ratelimit.Options{Tenants: ts, Now: func() time.Time { now = now.Add(time.Millisecond); return now }})
	p := &gtmgate.Principal{TenantID: "acme", KeyID: "tok_1"}
	r := httptest.NewRequest("POST", "/api/v1/acme/crm", nil)
	w := httptest.NewRecorder()
	b.ReportAllocs()
	for b.Loop() {
		if err := l.Admit(w, r, p); err != nil {
			b.Fatal(err)
		}
	}
}
