package linkedinads

import (
	"testing"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/providertest"
)

func TestCampaignsList(t *testing.T) {
	e := newEnv(t)
	out := e.MustRun(t, "linkedin_ads_campaigns", `{"rationale":"r","action":"list"}`)
	list := providertest.Items(t, out)
	if len(list) != 6 || out["currency"] != "USD" {
		t.Fatalf("got %d campaigns in %v", len(list), out["currency"])
	}
	if list[0]["daily_budget"] != 150.0 || list[0]["urn"] != "urn:li:sponsoredCampaign:508123101" || list[0]["start_date"] != "2025-01-06" {
		t.Errorf("first = %v", list[0])
	}
	tests := []struct {
		name, filter string
		want         int
	}{
		{"status EQ", `{"property":"status","operator":"EQ","value":"PAUSED"}`, 2},
		{"status IN", `{"property":"status","operator":"IN","value":["ACTIVE","ARCHIVED"]}`, 4},
		{"name with reserved characters", `{"property":"name","operator":"EQ","value":"Sponsored Content | Q1 Launch (archived)"}`, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := providertest.Items(t, e.MustRun(t, "linkedin_ads_campaigns", `{"rationale":"r","action":"list","filter":`+tt.filter+`}`))
			if len(got) != tt.want {
				t.Fatalf("matched %d, want %d", len(got), tt.want)
			}
		})
	}
	_, err := e.Run(t, "linkedin_ads_campaigns", `{"rationale":"r","action":"list","filter":{"property":"costType","operator":"EQ","value":"CPM"}}`)
	providertest.WantCode(t, err, gtmgate.EValidation)
	page := e.MustRun(t, "linkedin_ads_campaigns", `{"rationale":"r","action":"list","limit":4}`)
	rest := e.MustRun(t, "linkedin_ads_campaigns", `{"rationale":"r","action":"list","limit":4,"cursor":"`+page["next_cursor"].(string)+`"}`)
	if len(providertest.Items(t, page)) != 4 || len(providertest.Items(t, rest)) != 2 || rest["next_cursor"] != nil {
		t.Errorf("pages: %d then %d", len(providertest.Items(t, page)), len(providertest.Items(t, rest)))
	}
}

func TestCampaignsUpdateStatus(t *testing.T) {
	e := newEnv(t)
	out := e.MustRun(t, "linkedin_ads_campaigns", `{"rationale":"r","action":"update_status","campaign_id":"508123102","status":"PAUSED"}`)
	if out["status"] != "PAUSED" || out["urn"] != "urn:li:sponsoredCampaign:508123102" {
		t.Fatalf("update_status = %v", out)
	}
	paused := providertest.Items(t, e.MustRun(t, "linkedin_ads_campaigns", `{"rationale":"r","action":"list","filter":{"property":"status","operator":"EQ","value":"PAUSED"}}`))
	if len(paused) != 3 {
		t.Errorf("paused campaigns after update = %d, want 3", len(paused))
	}
	_, err := e.Run(t, "linkedin_ads_campaigns", `{"rationale":"r","action":"update_status","campaign_id":"999","status":"PAUSED"}`)
	if ge := providertest.WantCode(t, err, gtmgate.EUpstream); ge.Detail.(gtmgate.UpstreamDetail).Status != 404 {
		t.Errorf("detail = %+v", ge.Detail)
	}
}
