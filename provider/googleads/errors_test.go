package googleads

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/providertest"
)

const listInput = `{"rationale":"r","action":"list"}`

func TestBadTokenIsUpstream401WithoutToken(t *testing.T) {
	e := newEnv(t)
	const stale, fresh = "ya29.stale-token-value", "ya29.fresh-but-revoked"
	err := e.RunWithTokens(t, "google_ads_campaigns", providertest.RefreshingToken{Stale: stale, Fresh: fresh}, listInput)
	ge := providertest.WantCode(t, err, gtmgate.EUpstream)
	d := ge.Detail.(gtmgate.UpstreamDetail)
	if d.Status != 401 || d.Provider != Provider {
		t.Fatalf("detail = %+v", d)
	}
	for _, tok := range []string{stale, fresh} {
		if strings.Contains(d.Body, tok) || strings.Contains(ge.Message, tok) {
			t.Errorf("token %q leaked into the error", tok)
		}
	}
	if e.sb.Requests() != 2 {
		t.Errorf("requests = %d, want 2 (one refresh)", e.sb.Requests())
	}
	// A token that cannot be refreshed asks for re-authorisation instead.
	_, err = providertest.Run(t, e.Tools["google_ads_campaigns"], e.Account, "wrong-static-token", listInput)
	providertest.WantCode(t, err, gtmgate.EReauthRequired)
}

func TestProviderErrors(t *testing.T) {
	tests := []struct {
		name     string
		status   int
		failures int
		input    string
		code     string
		requests int
	}{
		{"read retried once on 500", 500, 1, `{"rationale":"r","action":"get","campaign_id":"21000100001"}`, "", 2},
		{"read fails after second 500", 500, 2, `{"rationale":"r","action":"get","campaign_id":"21000100001"}`, gtmgate.EUpstream, 2},
		{"mutation not retried", 500, 1, `{"rationale":"r","action":"update_status","campaign_id":"21000100001","status":"PAUSED"}`, gtmgate.EUpstream, 1},
		{"400 carries message", 400, 1, `{"rationale":"r","action":"get","campaign_id":"21000100001"}`, gtmgate.EUpstream, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			e.sb.FailNext(tt.status, tt.failures)
			_, err := e.Run(t, "google_ads_campaigns", tt.input)
			if tt.code == "" {
				if err != nil {
					t.Fatal(err)
				}
			} else {
				ge := providertest.WantCode(t, err, tt.code)
				if tt.status == 400 && !strings.Contains(ge.Message, "Injected failure") {
					t.Errorf("message %q lacks the GoogleAdsFailure message", ge.Message)
				}
			}
			if e.sb.Requests() != tt.requests {
				t.Errorf("requests = %d, want %d", e.sb.Requests(), tt.requests)
			}
		})
	}
	e := newEnv(t)
	e.sb.FailNext(500, 1)
	e.Run(t, "google_ads_campaigns", `{"rationale":"r","action":"update_status","campaign_id":"21000100001","status":"PAUSED"}`)
	if got := e.MustRun(t, "google_ads_campaigns", `{"rationale":"r","action":"get","campaign_id":"21000100001"}`); got["status"] != "ENABLED" {
		t.Errorf("failed mutation changed status to %v", got["status"])
	}
}

func TestDeveloperToken(t *testing.T) {
	tests := []struct {
		name     string
		now      bool // true: after Google's developer-token sunset
		token    string
		wantSent string
		refused  bool
	}{
		{"required before its sunset", false, "none", "", true},
		{"sent when configured", false, "", "sandbox-dev-token", false},
		{"optional after its sunset", true, "none", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := envOptions{devToken: tt.token}
			if tt.now {
				o.now = lateNow
			}
			e := newEnvWith(t, o)
			_, err := e.Run(t, "google_ads_campaigns", listInput)
			if tt.refused {
				ge := providertest.WantCode(t, err, gtmgate.EUpstream)
				d := ge.Detail.(gtmgate.UpstreamDetail)
				if d.Status != 400 || !strings.Contains(d.Body, "DEVELOPER_TOKEN_PARAMETER_MISSING") || !strings.Contains(ge.Message, "developer-token parameter is missing") {
					t.Fatalf("status %d, message %q, body %s", d.Status, ge.Message, d.Body)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			for _, got := range e.log.devToks {
				if got != tt.wantSent {
					t.Errorf("developer-token = %q, want %q", got, tt.wantSent)
				}
			}
		})
	}
}

// TestRetrySignal: Google Ads says how long to wait in a quota error's
// quotaErrorDetails.retryDelay and a google.rpc.RetryInfo (errors.proto and
// google/rpc/error_details.proto, googleapis/googleapis at
// f8291d2b89f0017ab078a4c7378069bae5686f6f). A read waits that long when the
// client holds a call that long, else it is RATE_LIMITED with retry_after;
// a mutation is never sent again.
func TestRetrySignal(t *testing.T) {
	get := `{"rationale":"r","action":"get","campaign_id":"21000100001"}`
	pause := `{"rationale":"r","action":"update_status","campaign_id":"21000100001","status":"PAUSED"}`
	tests := []struct {
		name       string
		delay      time.Duration
		input      string
		code       string
		retryAfter int
		requests   int
	}{
		{"longer than the client waits", 30 * time.Second, get, gtmgate.ERateLimited, 30, 1},
		{"short wait is waited", 20 * time.Millisecond, get, "", 0, 2},
		{"mutation not sent again", 20 * time.Millisecond, pause, gtmgate.ERateLimited, 1, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			e.sb.QuotaExhaustedNext(tt.delay, 1)
			_, err := e.Run(t, "google_ads_campaigns", tt.input)
			if e.sb.Requests() != tt.requests {
				t.Errorf("requests = %d, want %d", e.sb.Requests(), tt.requests)
			}
			if tt.code == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			ge := providertest.WantCode(t, err, tt.code)
			if ge.RetryAfter != tt.retryAfter || ge.Hint != hintQuota {
				t.Errorf("retry_after = %d, hint %q; want %d, %q", ge.RetryAfter, ge.Hint, tt.retryAfter, hintQuota)
			}
		})
	}
}

// TestOperatorCredentialErrors: DEVELOPER_TOKEN_NOT_APPROVED and
// CLOUD_PROJECT_NOT_APPROVED_FOR_PRODUCTION (authorization_error.proto,
// googleapis/googleapis at f8291d2b89f0017ab078a4c7378069bae5686f6f) concern
// the operator's developer token or Cloud project: the error says so, and
// the tenant's token is neither blamed nor refreshed.
func TestOperatorCredentialErrors(t *testing.T) {
	tests := []struct {
		code     string
		hintHas  []string
		googleIs string
	}{
		{"DEVELOPER_TOKEN_NOT_APPROVED", []string{"developer token", "GTMGATE_GOOGLE_ADS_DEVELOPER_TOKEN", "not the tenant's", "Basic or Standard access"},
			"The developer token is only approved for use with test accounts"},
		{"CLOUD_PROJECT_NOT_APPROVED_FOR_PRODUCTION", []string{"Google Cloud project", "PUT /admin/oauth-apps/google", "not the tenant's", "Explorer, Basic or Standard"},
			"The Google Cloud project is only approved for use with test accounts"},
	}
	for _, tt := range tests {
		t.Run(tt.code, func(t *testing.T) {
			e := newEnv(t)
			e.sb.DenyNext(tt.code, 1)
			ts := &countingToken{token: SandboxToken}
			ge := providertest.WantCode(t, e.RunWithTokens(t, "google_ads_campaigns", ts, listInput), gtmgate.EUpstream)
			for _, s := range tt.hintHas {
				if !strings.Contains(ge.Hint, s) {
					t.Errorf("hint %q lacks %q", ge.Hint, s)
				}
			}
			if strings.Contains(ge.Hint, "provider token was refused") {
				t.Errorf("hint blames the tenant's token: %q", ge.Hint)
			}
			if !strings.Contains(ge.Message, tt.googleIs) {
				t.Errorf("message %q lacks Google's %q", ge.Message, tt.googleIs)
			}
			if d := ge.Detail.(gtmgate.UpstreamDetail); d.Status != 403 || !strings.Contains(d.Body, tt.code) {
				t.Errorf("detail = %+v", d)
			}
			if ts.refreshes != 0 || e.sb.Requests() != 1 {
				t.Errorf("refreshes = %d, requests = %d; want 0 and 1", ts.refreshes, e.sb.Requests())
			}
		})
	}
}

// countingToken counts refreshes of a token the sandbox accepts.
type countingToken struct {
	token     string
	refreshes int
}

func (c *countingToken) Token(context.Context) (string, error) { return c.token, nil }

func (c *countingToken) Refresh(context.Context, string) (string, error) {
	c.refreshes++
	return c.token, nil
}
