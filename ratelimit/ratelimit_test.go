package ratelimit_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/ratelimit"
)

type tenants map[string]*gtmgate.Tenant

func (t tenants) GetTenant(_ context.Context, id string) (*gtmgate.Tenant, error) {
	if v, ok := t[id]; ok {
		return v, nil
	}
	return nil, gtmgate.ErrNotFound
}
func (tenants) PutTenant(context.Context, *gtmgate.Tenant) (bool, error) { return false, nil }
func (tenants) ListTenants(context.Context) ([]*gtmgate.Tenant, error)   { return nil, nil }

func TestLimiterWithAControlledClock(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	ts := tenants{"acme": {ID: "acme", RateLimits: &gtmgate.RateLimits{
		Tenant:   &gtmgate.RateLimit{RequestsPerSecond: 2, Burst: 3},
		PerToken: &gtmgate.RateLimit{RequestsPerSecond: 1, Burst: 2}}}}
	replicas := 1
	l := ratelimit.New(ratelimit.Options{Tenants: ts, Now: func() time.Time { return now }, Replicas: func() int { return replicas }})
	a := &gtmgate.Principal{TenantID: "acme", KeyID: "a"}
	b := &gtmgate.Principal{TenantID: "acme", KeyID: "b"}
	admit := func(p *gtmgate.Principal) (error, http.Header) {
		w := httptest.NewRecorder()
		err := l.Admit(w, httptest.NewRequest("GET", "/", nil), p)
		return err, w.Header()
	}
	type step struct {
		advance time.Duration
		who     *gtmgate.Principal
		ok      bool
		retry   int
	}
	for i, s := range []step{
		{0, a, true, 0},
		{0, a, true, 0},
		{0, a, false, 1},                     // a's own burst of 2 is spent
		{0, b, true, 0},                      // the tenant's third
		{0, b, false, 1},                     // the tenant's burst of 3 is spent
		{500 * time.Millisecond, b, true, 0}, // the tenant refilled one (2/s), b has one
		{0, b, false, 1},
		{2 * time.Second, a, true, 0},
	} {
		now = now.Add(s.advance)
		err, h := admit(s.who)
		if (err == nil) != s.ok {
			t.Fatalf("step %d: err %v, want ok=%v", i, err, s.ok)
		}
		if err != nil {
			e := err.(*gtmgate.Error)
			if e.Code != gtmgate.ERateLimited || e.RetryAfter != s.retry {
				t.Errorf("step %d: %s retry %d, want RATE_LIMITED retry %d", i, e.Code, e.RetryAfter, s.retry)
			}
		}
		if h.Get("RateLimit-Policy") != `"tenant";q=3;w=2, "token";q=2;w=2` || h.Get("RateLimit") == "" {
			t.Errorf("step %d: headers %q / %q", i, h.Get("RateLimit-Policy"), h.Get("RateLimit"))
		}
	}
	// A refused request consumes nothing: the tenant bucket is not drained by
	// a token that was over its own limit.
	now = now.Add(10 * time.Second)
	for range 2 {
		if err, _ := admit(a); err != nil {
			t.Fatal(err)
		}
	}
	if err, _ := admit(a); err == nil {
		t.Fatal("a's third within its burst")
	}
	if err, h := admit(b); err != nil || h.Get("RateLimit") != `"tenant";r=0;t=2, "token";r=1;t=1` {
		t.Errorf("b after a was refused: %v %q", err, h.Get("RateLimit"))
	}

	// Two replicas: each enforces half the rate and half the burst.
	replicas = 2
	now = now.Add(time.Minute)
	_, h := admit(&gtmgate.Principal{TenantID: "acme", KeyID: "c"})
	if got := h.Get("RateLimit-Policy"); got != `"tenant";q=2;w=2, "token";q=1;w=2` {
		t.Errorf("policy at 2 replicas: %q", got)
	}
}

func TestTenantsWithoutLimits(t *testing.T) {
	l := ratelimit.New(ratelimit.Options{Tenants: tenants{"free": {ID: "free"}}})
	w := httptest.NewRecorder()
	for range 100 {
		if err := l.Admit(w, httptest.NewRequest("GET", "/", nil), &gtmgate.Principal{TenantID: "free", KeyID: "k"}); err != nil {
			t.Fatal(err)
		}
	}
	if w.Header().Get("RateLimit") != "" {
		t.Error("headers without a limit")
	}
}

func TestValidate(t *testing.T) {
	for _, tc := range []struct {
		l     gtmgate.RateLimits
		field string
	}{
		{gtmgate.RateLimits{Tenant: &gtmgate.RateLimit{RequestsPerSecond: -1}}, "rate_limits.tenant.requests_per_second"},
		{gtmgate.RateLimits{PerToken: &gtmgate.RateLimit{RequestsPerSecond: 1, Burst: -2}}, "rate_limits.per_token.burst"},
	} {
		err := ratelimit.Validate(&tc.l)
		if gtmgate.ErrorCode(err) != gtmgate.EValidation || err.(*gtmgate.Error).Message[:len(tc.field)] != tc.field {
			t.Errorf("Validate = %v, want an error naming %s", err, tc.field)
		}
	}
	l := gtmgate.RateLimits{Tenant: &gtmgate.RateLimit{RequestsPerSecond: 2.5}}
	if err := ratelimit.Validate(&l); err != nil || l.Tenant.Burst != 3 {
		t.Errorf("default burst: %v %+v", err, l.Tenant)
	}
}
