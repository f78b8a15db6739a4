package googleads

import (
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/providertest"
	"github.com/gtmgate/gtmgate/provider/upstream"
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

func TestDeveloperTokenRequired(t *testing.T) {
	e := newEnv(t)
	opts := Options(e.url, "", "123-456-7890")
	if opts.Header.Get("login-customer-id") != "1234567890" {
		t.Errorf("login-customer-id = %q", opts.Header.Get("login-customer-id"))
	}
	tool := Tools(upstream.MustNew(opts))[1]
	_, err := providertest.Run(t, tool, e.Account, SandboxToken, listInput)
	if ge := providertest.WantCode(t, err, gtmgate.EReauthRequired); ge == nil {
		t.Fatal("missing developer token accepted")
	}
}
