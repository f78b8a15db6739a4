package hubspot

import (
	"context"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/providertest"
)

// rotatingToken is a TokenSource whose refresh yields another token.
type rotatingToken struct {
	current, fresh string
	refreshed      int
}

func (r *rotatingToken) Token(context.Context) (string, error) { return r.current, nil }

func (r *rotatingToken) Refresh(context.Context, string) (string, error) {
	r.refreshed++
	r.current = r.fresh
	return r.fresh, nil
}

func TestBadToken(t *testing.T) {
	t.Parallel()
	const input = `{"rationale": "read a contact", "action": "get", "id": "1501"}`
	const bad = "pat-na1-0f3c9d2e-stolen-looking-token"

	t.Run("static token cannot refresh", func(t *testing.T) {
		t.Parallel()
		e := newTestEnv(t)
		e.token = bad
		_, err := e.run("crm_contacts", input)
		providertest.WantCode(t, err, gtmgate.EReauthRequired)
	})
	t.Run("refresh still refused", func(t *testing.T) {
		t.Parallel()
		e := newTestEnv(t)
		ts := &rotatingToken{current: bad, fresh: bad + "-2"}
		_, err := e.runWithTokenSource("crm_contacts", ts, input)
		ge := providertest.WantCode(t, err, gtmgate.EUpstream)
		d := upstreamDetail(t, ge)
		if d.Status != 401 || !strings.Contains(d.Body, "INVALID_AUTHENTICATION") {
			t.Fatalf("detail = %+v, want 401 with HubSpot's body", d)
		}
		for _, s := range []string{d.Body, ge.Message, ge.Hint} {
			if strings.Contains(s, bad) {
				t.Fatalf("token leaked into %q", s)
			}
		}
		if ts.refreshed != 1 {
			t.Fatalf("refreshed %d times, want 1", ts.refreshed)
		}
	})
	t.Run("refresh succeeds", func(t *testing.T) {
		t.Parallel()
		e := newTestEnv(t)
		res, err := e.runWithTokenSource("crm_contacts", &rotatingToken{current: bad, fresh: SandboxToken}, input)
		if err != nil {
			t.Fatal(err)
		}
		if it := decodeAs[Item](t, res); it.ID != "1501" {
			t.Fatalf("item = %+v", it)
		}
	})
}

func TestFaults(t *testing.T) {
	t.Parallel()
	const read = `{"rationale": "list deals", "action": "list", "limit": 2}`
	const write = `{"rationale": "log it", "action": "create", "properties": {"dealname": "Retry me"}}`
	tests := []struct {
		name         string
		status       int
		times        int
		input        string
		wantCode     string
		wantStatus   int
		wantRequests int
		retryAfter   int
	}{
		{name: "read retried after 429", status: 429, times: 1, input: read, wantRequests: 2},
		{name: "read retried after 500", status: 500, times: 1, input: read, wantRequests: 2},
		{name: "read retried once only", status: 503, times: 2, input: read, wantCode: gtmgate.EUpstream, wantStatus: 503, wantRequests: 2},
		{name: "mutation not retried on 500", status: 500, times: 1, input: write, wantCode: gtmgate.EUpstream, wantStatus: 500, wantRequests: 1},
		{name: "mutation not retried on 429", status: 429, times: 1, input: write, wantCode: gtmgate.ERateLimited, wantStatus: 429, wantRequests: 1, retryAfter: 1},
		{name: "429 persisting", status: 429, times: 0, input: read, wantCode: gtmgate.ERateLimited, wantStatus: 429, wantRequests: 2, retryAfter: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := newTestEnv(t)
			e.sandbox.Fail(tt.status, tt.times)
			_, err := e.run("crm_deals", tt.input)
			if got := e.sandbox.Requests(); got != tt.wantRequests {
				t.Errorf("sandbox saw %d requests, want %d", got, tt.wantRequests)
			}
			if tt.wantCode == "" {
				if err != nil {
					t.Fatalf("want success after retry, got %v", err)
				}
				return
			}
			ge := providertest.WantCode(t, err, tt.wantCode)
			if d := upstreamDetail(t, ge); d.Status != tt.wantStatus {
				t.Fatalf("status = %d, want %d", d.Status, tt.wantStatus)
			}
			if ge.RetryAfter != tt.retryAfter {
				t.Fatalf("retry_after = %d, want %d", ge.RetryAfter, tt.retryAfter)
			}
			if tt.status == 429 && !strings.Contains(upstreamDetail(t, ge).Body, "RATE_LIMITS") {
				t.Fatalf("body lacks HubSpot's rate-limit category: %s", upstreamDetail(t, ge).Body)
			}
			e.sandbox.ClearFaults()
			if tt.input == write {
				p := mustRun[Page](e, "crm_deals", `{"rationale": "check", "action": "search", "query": "Retry me"}`)
				if len(p.Items) != 0 {
					t.Fatal("failed mutation created a deal")
				}
			}
		})
	}
}
