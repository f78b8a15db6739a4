package metaads

import (
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/providertest"
)

func TestCampaignsList(t *testing.T) {
	e := newEnv(t)
	out := e.MustRun(t, "meta_ads_campaigns", `{"rationale":"r","action":"list"}`)
	list := providertest.Items(t, out)
	if len(list) != 4 || out["currency"] != "USD" {
		t.Fatalf("got %d ACTIVE/PAUSED campaigns in %v, want 4 in USD", len(list), out["currency"])
	}
	if list[0]["daily_budget"] != 80.0 || list[0]["raw"].(map[string]any)["daily_budget"] != "8000" {
		t.Errorf("cents not converted: %v", list[0])
	}
	if list[3]["lifetime_budget"] != 3000.0 {
		t.Errorf("lifetime budget = %v", list[3]["lifetime_budget"])
	}
	archived := providertest.Items(t, e.MustRun(t, "meta_ads_campaigns", `{"rationale":"r","action":"list","effective_status":["ARCHIVED"]}`))
	if len(archived) != 1 {
		t.Errorf("archived = %v", archived)
	}
	leads := providertest.Items(t, e.MustRun(t, "meta_ads_campaigns", `{"rationale":"r","action":"list","filter":{"property":"objective","operator":"EQ","value":"OUTCOME_LEADS"}}`))
	if len(leads) != 2 {
		t.Errorf("filter objective EQ OUTCOME_LEADS matched %d, want 2", len(leads))
	}
	page := e.MustRun(t, "meta_ads_campaigns", `{"rationale":"r","action":"list","limit":3}`)
	rest := e.MustRun(t, "meta_ads_campaigns", `{"rationale":"r","action":"list","limit":3,"cursor":"`+page["next_cursor"].(string)+`"}`)
	if len(providertest.Items(t, rest)) != 1 || rest["next_cursor"] != nil {
		t.Errorf("second page = %v", rest)
	}
}

func TestCampaignsUpdateStatus(t *testing.T) {
	e := newEnv(t)
	out := e.MustRun(t, "meta_ads_campaigns", `{"rationale":"r","action":"update_status","campaign_id":"236100000000000","status":"PAUSED"}`)
	if out["status"] != "PAUSED" || out["previous_status"] != "ACTIVE" {
		t.Fatalf("update_status = %v", out)
	}
	if got := e.sb.accounts["1012345678901234"].Campaigns[0].Status; got != "PAUSED" {
		t.Errorf("sandbox status = %s", got)
	}
	_, err := e.Run(t, "meta_ads_campaigns", `{"rationale":"r","action":"update_status","campaign_id":"246100000000000","status":"PAUSED"}`)
	providertest.WantCode(t, err, gtmgate.EForbidden)
}

func TestCampaignsUpdateBudgetConvertsToMinorUnits(t *testing.T) {
	tests := []struct {
		name, account, campaign, input string
		field                          string
		wantMinor                      int64
		wantUnits                      float64
	}{
		{"usd daily to cents", "act_1012345678901234", "236100000000000", `"amount":95.5`, "daily_budget", 9550, 95.5},
		{"usd lifetime by default", "act_1012345678901234", "236100000000003", `"amount":4200`, "lifetime_budget", 420000, 4200},
		{"jpy has no minor unit", "2098765432109876", "246100000000001", `"amount":9000`, "daily_budget", 9000, 9000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			e.Account = gtmgate.Account{ID: tt.account}
			out := e.MustRun(t, "meta_ads_campaigns", `{"rationale":"r","action":"update_budget","campaign_id":"`+tt.campaign+`",`+tt.input+`}`)
			if out[tt.field] != tt.wantUnits || out[tt.field+"_minor"] != float64(tt.wantMinor) {
				t.Fatalf("update_budget = %v", out)
			}
			list := providertest.Items(t, e.MustRun(t, "meta_ads_campaigns", `{"rationale":"r","action":"list","filter":{"property":"id","operator":"EQ","value":"`+tt.campaign+`"}}`))
			if len(list) != 1 || list[0][tt.field] != tt.wantUnits {
				t.Errorf("read back %v", list)
			}
		})
	}
	e := newEnv(t)
	_, err := e.Run(t, "meta_ads_campaigns", `{"rationale":"r","action":"update_budget","campaign_id":"236100000000000","amount":0.5}`)
	if ge := providertest.WantCode(t, err, gtmgate.EUpstream); !strings.Contains(ge.Message, "budget is too low") {
		t.Errorf("message = %q", ge.Message)
	}
}

// TestCampaignsListFilter: the campaigns edge takes no filtering parameter,
// so a filter on effective_status becomes that parameter and any other is
// applied to the items of each page.
func TestCampaignsListFilter(t *testing.T) {
	e := newEnv(t)
	tests := []struct {
		name, filter string
		want         int
	}{
		{"effective_status IN is Meta's parameter", `{"property":"effective_status","operator":"IN","value":["ARCHIVED","PAUSED"]}`, 2},
		{"effective_status EQ", `{"property":"effective_status","operator":"EQ","value":"ARCHIVED"}`, 1},
		{"name token, case-insensitive", `{"property":"name","operator":"CONTAINS_TOKEN","value":"LEAD GEN"}`, 1},
		{"budget in currency units", `{"property":"daily_budget","operator":"GTE","value":60}`, 2},
		{"budget between", `{"property":"daily_budget","operator":"BETWEEN","value":[50,60]}`, 2},
		{"objective not in", `{"property":"objective","operator":"NOT_IN","value":["OUTCOME_LEADS"]}`, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := providertest.Items(t, e.MustRun(t, "meta_ads_campaigns", `{"rationale":"r","action":"list","filter":`+tt.filter+`}`))
			if len(got) != tt.want {
				t.Fatalf("matched %d, want %d: %v", len(got), tt.want, got)
			}
		})
	}
	for _, in := range []string{
		`{"rationale":"r","action":"list","effective_status":["ACTIVE"],"filter":{"property":"effective_status","operator":"EQ","value":"PAUSED"}}`,
		`{"rationale":"r","action":"list","filter":{"property":"effective_status","operator":"EQ","value":"RUNNING"}}`,
		`{"rationale":"r","action":"list","filter":{"property":"spend","operator":"GT","value":1}}`,
		`{"rationale":"r","action":"list","filter":{"property":"name","operator":"HAS_PROPERTY"}}`,
	} {
		_, err := e.Run(t, "meta_ads_campaigns", in)
		providertest.WantCode(t, err, gtmgate.EValidation)
	}
}
