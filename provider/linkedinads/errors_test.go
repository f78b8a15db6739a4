package linkedinads

import (
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/providertest"
)

const listInput = `{"rationale":"r","action":"list"}`

func TestBadTokenIsUpstream401WithoutToken(t *testing.T) {
	e := newEnv(t)
	const stale, fresh = "AQV-stale-token-123456", "AQV-fresh-but-revoked"
	ge := providertest.WantCode(t, e.RunWithTokens(t, "linkedin_ads_campaigns", providertest.RefreshingToken{Stale: stale, Fresh: fresh}, listInput), gtmgate.EUpstream)
	d := ge.Detail.(gtmgate.UpstreamDetail)
	if d.Status != 401 || !strings.Contains(d.Body, "INVALID_ACCESS_TOKEN") || !strings.Contains(ge.Message, "Invalid access token") {
		t.Fatalf("error = %v, detail = %+v", ge, d)
	}
	for _, tok := range []string{stale, fresh} {
		if strings.Contains(d.Body+ge.Message, tok) {
			t.Errorf("token %q leaked", tok)
		}
	}
	_, err := providertest.Run(t, e.Tools["linkedin_ads_campaigns"], e.Account, "wrong", listInput)
	providertest.WantCode(t, err, gtmgate.EReauthRequired)
}

func TestProviderErrors(t *testing.T) {
	pause := `{"rationale":"r","action":"update_status","campaign_id":"508123101","status":"PAUSED"}`
	tests := []struct {
		name, input   string
		status, fails int
		code          string
		requests      int
	}{
		{"read retried once on 500", listInput, 500, 1, "", 3},
		{"400 carries message", listInput, 400, 1, gtmgate.EUpstream, 1},
		{"429 is rate limited", listInput, 429, 2, gtmgate.ERateLimited, 2},
		{"mutation not retried", pause, 500, 1, gtmgate.EUpstream, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			e.sb.FailNext(tt.status, tt.fails)
			_, err := e.Run(t, "linkedin_ads_campaigns", tt.input)
			if tt.code == "" && err != nil {
				t.Fatal(err)
			}
			if tt.code != "" {
				ge := providertest.WantCode(t, err, tt.code)
				if tt.status == 400 && !strings.Contains(ge.Message, "Injected failure") {
					t.Errorf("message = %q", ge.Message)
				}
			}
			if e.sb.Requests() != tt.requests {
				t.Errorf("requests = %d, want %d", e.sb.Requests(), tt.requests)
			}
			if tt.name == "mutation not retried" && e.sb.accounts["508123456"].Campaigns[0].Status != "ACTIVE" {
				t.Error("failed mutation changed the campaign")
			}
		})
	}
}
