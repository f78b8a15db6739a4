package googleads

import (
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/providertest"
)

func TestKeywordsList(t *testing.T) {
	e := newEnv(t)
	out := e.MustRun(t, "google_ads_keywords", `{"rationale":"r","action":"list","campaign_id":"21000100002","date_range":"LAST_30_DAYS"}`)
	list := providertest.Items(t, out)
	if len(list) != 5 {
		t.Fatalf("got %d keywords, want 5", len(list))
	}
	for _, k := range list {
		if k["campaign_id"] != "21000100002" || k["text"] == nil || k["currency"] != "USD" {
			t.Errorf("keyword = %v", k)
		}
		if c, ok := k["cost"].(float64); !ok || c <= 0 {
			t.Errorf("cost = %v", k["cost"])
		}
	}
	exact := providertest.Items(t, e.MustRun(t, "google_ads_keywords", `{"rationale":"r","action":"list","filter":{"property":"keyword.match_type","operator":"EQ","value":"EXACT"}}`))
	for _, k := range exact {
		if k["match_type"] != "EXACT" {
			t.Errorf("filter EXACT returned %v", k)
		}
	}
	if len(exact) == 0 {
		t.Error("no EXACT keywords")
	}
}

func TestKeywordsAddNegative(t *testing.T) {
	e := newEnv(t)
	out := e.MustRun(t, "google_ads_keywords", `{"rationale":"block job seekers","action":"add_negative","campaign_id":"21000100003","keyword_text":" analytics  careers ","match_type":"PHRASE"}`)
	rn, _ := out["resource_name"].(string)
	if !strings.HasPrefix(rn, "customers/1234567890/campaignCriteria/21000100003~") || out["text"] != "analytics careers" || out["criterion_id"] == "" {
		t.Fatalf("add_negative = %v", out)
	}
	rows := providertest.Items(t, e.MustRun(t, "google_ads_report", `{"rationale":"r","query":"SELECT campaign_criterion.keyword.text FROM campaign_criterion WHERE campaign_criterion.keyword.match_type = 'PHRASE'"}`))
	if len(rows) != 1 || rows[0]["campaign_criterion.keyword.text"] != "analytics careers" {
		t.Fatalf("negatives = %v", rows)
	}
	_, err := e.Run(t, "google_ads_keywords", `{"rationale":"r","action":"add_negative","campaign_id":"21000100003","keyword_text":"analytics careers","match_type":"PHRASE"}`)
	if ge := providertest.WantCode(t, err, gtmgate.EUpstream); !strings.Contains(ge.Message, "already exists") {
		t.Errorf("duplicate message = %q", ge.Message)
	}
}
