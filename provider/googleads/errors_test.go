package googleads

import (
	"strings"
	"testing"

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
