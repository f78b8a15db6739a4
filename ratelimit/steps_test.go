package ratelimit_test

import (
	"net/http/httptest"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/ratelimit"
)

// TestStepsShareTheTenantBucket: run steps take from the tenant's request
// bucket (the one its REST calls take from) and from its steps bucket; a
// step held by one takes from neither, and names the limit.
func TestStepsShareTheTenantBucket(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	acme := &gtmgate.Tenant{ID: "acme", RateLimits: &gtmgate.RateLimits{Tenant: &gtmgate.RateLimit{RequestsPerSecond: 1, Burst: 2}}}
	plain := &gtmgate.Tenant{ID: "plain"}
	l := ratelimit.New(ratelimit.Options{Tenants: tenants{"acme": acme, "plain": plain}, Now: func() time.Time { return now }})
	for _, tc := range []struct {
		name      string
		tenant    *gtmgate.Tenant
		perMinute int
		advance   time.Duration
		wantWait  bool
		wantLimit string
	}{
		{"first step", acme, 600, 0, false, ""},
		{"second step: the burst", acme, 600, 0, false, ""},
		{"third step: the tenant bucket is empty", acme, 600, 0, true, "rate_limits.tenant (1 requests per second)"},
		{"a second later", acme, 600, time.Second, false, ""},
		{"steps: a sixth of a minute's worth at once", plain, 12, 0, false, ""},
		{"steps: second of the burst", plain, 12, 0, false, ""},
		{"steps: held", plain, 12, 0, true, "steps_per_minute (12)"},
		{"steps: five seconds refill one", plain, 12, 5 * time.Second, false, ""},
		{"no steps limit, no tenant limit", plain, 0, 0, false, ""},
	} {
		now = now.Add(tc.advance)
		wait, limit := l.Step(t.Context(), tc.tenant, tc.perMinute)
		if (wait > 0) != tc.wantWait || limit != tc.wantLimit {
			t.Errorf("%s: wait %v, limit %q; want waiting %v, limit %q", tc.name, wait, limit, tc.wantWait, tc.wantLimit)
		}
	}
	// The REST request of the same tenant now finds the bucket steps took from.
	now = now.Add(time.Second)
	l.Step(t.Context(), acme, 0)
	w := httptest.NewRecorder()
	if err := l.Admit(w, httptest.NewRequest("GET", "/", nil), &gtmgate.Principal{TenantID: "acme", KeyID: "k"}); err != nil {
		t.Fatalf("one token left for REST: %v", err)
	}
	if err := l.Admit(w, httptest.NewRequest("GET", "/", nil), &gtmgate.Principal{TenantID: "acme", KeyID: "k"}); gtmgate.ErrorCode(err) != gtmgate.ERateLimited {
		t.Errorf("REST after steps emptied the tenant bucket: %v, want RATE_LIMITED", err)
	}
}
