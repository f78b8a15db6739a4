package googleads

import (
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/providertest"
)

func TestCampaignsListAndGet(t *testing.T) {
	e := newEnv(t)
	out := e.MustRun(t, "google_ads_campaigns", `{"rationale":"r","action":"list","limit":100}`)
	list := providertest.Items(t, out)
	if len(list) != 6 || out["currency"] != "USD" {
		t.Fatalf("got %d campaigns in %v, want the 6 not removed in USD", len(list), out["currency"])
	}
	if list[0]["daily_budget"] != 50.0 || list[0]["currency"] != "USD" || list[0]["raw"] == nil {
		t.Errorf("first campaign = %v", list[0])
	}
	got := e.MustRun(t, "google_ads_campaigns", `{"rationale":"r","action":"get","campaign_id":"21000100002"}`)
	if got["name"] != "Search | Competitors" || got["daily_budget"] != 120.0 {
		t.Errorf("get = %v", got)
	}
	_, err := e.Run(t, "google_ads_campaigns", `{"rationale":"r","action":"get","campaign_id":"999"}`)
	providertest.WantCode(t, err, gtmgate.ENotFound)
	filtered := providertest.Items(t, e.MustRun(t, "google_ads_campaigns", `{"rationale":"r","action":"list","filter":{"property":"name","operator":"CONTAINS_TOKEN","value":"Search"}}`))
	if len(filtered) != 3 {
		t.Errorf("CONTAINS_TOKEN Search matched %d campaigns, want 3", len(filtered))
	}
}

func TestCampaignsUpdateStatusPersists(t *testing.T) {
	e := newEnv(t)
	out := e.MustRun(t, "google_ads_campaigns", `{"rationale":"pause overspending campaign","action":"update_status","campaign_id":"21000100003","status":"PAUSED"}`)
	if out["resource_name"] != "customers/1234567890/campaigns/21000100003" || out["status"] != "PAUSED" {
		t.Fatalf("update_status = %v", out)
	}
	got := e.MustRun(t, "google_ads_campaigns", `{"rationale":"r","action":"get","campaign_id":"21000100003"}`)
	if got["status"] != "PAUSED" {
		t.Errorf("status after update = %v", got["status"])
	}
}

func TestCampaignsUpdateBudgetConvertsToMicros(t *testing.T) {
	tests := []struct {
		name       string
		campaign   string
		amount     string
		wantMicros float64
		wantBudget float64
		shared     bool
	}{
		{"whole units", "21000100001", "75", 75_000_000, 75, false},
		{"cents", "21000100002", "175.5", 175_500_000, 175.5, false},
		{"rounded to a cent", "21000100003", "10.006", 10_010_000, 10.01, false},
		{"shared budget noted", "21000100004", "90", 90_000_000, 90, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			out := e.MustRun(t, "google_ads_campaigns", `{"rationale":"r","action":"update_budget","campaign_id":"`+tt.campaign+`","amount":`+tt.amount+`}`)
			if out["amount_micros"] != tt.wantMicros || out["daily_budget"] != tt.wantBudget || out["currency"] != "USD" {
				t.Fatalf("update_budget = %v", out)
			}
			if !strings.Contains(out["resource_name"].(string), "/campaignBudgets/") {
				t.Errorf("resource_name = %v", out["resource_name"])
			}
			if _, noted := out["note"]; noted != tt.shared {
				t.Errorf("shared-budget note present = %v, want %v", noted, tt.shared)
			}
			got := e.MustRun(t, "google_ads_campaigns", `{"rationale":"r","action":"get","campaign_id":"`+tt.campaign+`"}`)
			if got["daily_budget"] != tt.wantBudget {
				t.Errorf("budget read back = %v, want %v", got["daily_budget"], tt.wantBudget)
			}
		})
	}
}
