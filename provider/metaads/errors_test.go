package metaads

import (
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/providertest"
)

const campaignReport = `{"rationale":"r","level":"campaign"}`

func TestBadTokenIsUpstream401WithoutToken(t *testing.T) {
	e := newEnv(t)
	const stale, fresh = "EAAB-stale-token-123456", "EAAB-fresh-but-revoked"
	ge := providertest.WantCode(t, e.RunWithTokens(t, "meta_ads_insights", providertest.RefreshingToken{Stale: stale, Fresh: fresh}, campaignReport), gtmgate.EUpstream)
	d := ge.Detail.(gtmgate.UpstreamDetail)
	if d.Status != 401 || !strings.Contains(d.Body, `"code":190`) {
		t.Fatalf("detail = %+v", d)
	}
	for _, tok := range []string{stale, fresh} {
		if strings.Contains(d.Body+ge.Message, tok) {
			t.Errorf("token %q leaked", tok)
		}
	}
	_, err := providertest.Run(t, e.Tools["meta_ads_insights"], e.Account, "wrong", campaignReport)
	providertest.WantCode(t, err, gtmgate.EReauthRequired)
}

func TestProviderErrors(t *testing.T) {
	pause := `{"rationale":"r","action":"update_status","campaign_id":"236100000000000","status":"PAUSED"}`
	tests := []struct {
		name, tool, input string
		fault             func(*Sandbox)
		code              string
		requests          int
	}{
		{"read retried once on 500", "meta_ads_insights", campaignReport, func(s *Sandbox) { s.FailNext(500, 1) }, "", 2},
		{"400 carries message", "meta_ads_insights", `{"rationale":"r","fields":["bogus_metric"]}`, func(*Sandbox) {}, gtmgate.EUpstream, 1},
		{"throttling is rate limited", "meta_ads_insights", campaignReport, func(s *Sandbox) { s.ThrottleNext(1) }, gtmgate.ERateLimited, 1},
		// The ownership read succeeds; the POST fails once and is not repeated.
		{"mutation not retried", "meta_ads_campaigns", pause, func(s *Sandbox) { s.FailNextPost(500, 1) }, gtmgate.EUpstream, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			tt.fault(e.sb)
			_, err := e.Run(t, tt.tool, tt.input)
			if tt.code == "" && err != nil {
				t.Fatal(err)
			}
			if tt.code != "" {
				ge := providertest.WantCode(t, err, tt.code)
				if tt.name == "400 carries message" && !strings.Contains(ge.Message, "bogus_metric is not valid for fields param") {
					t.Errorf("message = %q", ge.Message)
				}
			}
			if e.sb.Requests() != tt.requests {
				t.Errorf("requests = %d, want %d", e.sb.Requests(), tt.requests)
			}
		})
	}
}

func TestFailedMutationLeavesState(t *testing.T) {
	e := newEnv(t)
	e.sb.FailNextPost(500, 1)
	_, err := e.Run(t, "meta_ads_campaigns", `{"rationale":"r","action":"update_budget","campaign_id":"236100000000000","amount":10}`)
	providertest.WantCode(t, err, gtmgate.EUpstream)
	if got := e.sb.accounts["1012345678901234"].Campaigns[0].DailyBudget; got != 8000 {
		t.Errorf("budget = %d after a failed change", got)
	}
}
