package metaads

import (
	"net/url"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/providertest"
)

func TestInsights(t *testing.T) {
	tests := []struct {
		name, input string
		check       func(t *testing.T, rows []map[string]any)
	}{
		{"campaign level numbers", `{"rationale":"r","level":"campaign","date_preset":"last_7d"}`, func(t *testing.T, rows []map[string]any) {
			if len(rows) != 3 {
				t.Fatalf("got %d campaigns with delivery, want 3", len(rows))
			}
			for _, r := range rows {
				if _, ok := r["spend"].(float64); !ok {
					t.Errorf("spend is %T, want number", r["spend"])
				}
				if r["date_start"] != "2025-06-11" || r["date_stop"] != "2025-06-17" || r["campaign_name"] == nil {
					t.Errorf("row = %v", r)
				}
				act := r["actions"].([]any)[0].(map[string]any)
				if _, ok := act["value"].(float64); !ok {
					t.Errorf("action value is %T", act["value"])
				}
			}
		}},
		{"time range daily", `{"rationale":"r","since":"2025-06-01","until":"2025-06-03","time_increment":"1"}`, func(t *testing.T, rows []map[string]any) {
			if len(rows) != 3 || rows[2]["date_start"] != "2025-06-03" {
				t.Fatalf("rows = %v", rows)
			}
		}},
		{"breakdown", `{"rationale":"r","breakdowns":["gender"]}`, func(t *testing.T, rows []map[string]any) {
			if len(rows) != 3 || rows[0]["gender"] != "female" {
				t.Fatalf("rows = %v", rows)
			}
		}},
		{"filter maps to filtering", `{"rationale":"r","level":"campaign","filter":{"property":"campaign.name","operator":"CONTAINS_TOKEN","value":"webinar"}}`, func(t *testing.T, rows []map[string]any) {
			if len(rows) != 1 || !strings.Contains(rows[0]["campaign_name"].(string), "Webinar") {
				t.Fatalf("rows = %v", rows)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			out := e.MustRun(t, "meta_ads_insights", tt.input)
			if out["currency"] != "USD" {
				t.Errorf("currency = %v", out["currency"])
			}
			tt.check(t, providertest.Items(t, out))
		})
	}
}

func TestInsightsPaging(t *testing.T) {
	e := newEnv(t)
	seen := map[string]bool{}
	cursor := ""
	for range 10 {
		in := `{"rationale":"r","level":"ad","limit":4`
		if cursor != "" {
			in += `,"cursor":"` + cursor + `"`
		}
		out := e.MustRun(t, "meta_ads_insights", in+"}")
		for _, r := range providertest.Items(t, out) {
			seen[r["ad_id"].(string)] = true
		}
		if cursor, _ = out["next_cursor"].(string); cursor == "" {
			break
		}
	}
	if len(seen) != 14 {
		t.Fatalf("paged through %d ads, want the 14 with delivery in the last 30 days", len(seen))
	}
}

func TestInsightsQuery(t *testing.T) {
	q, err := insightsQuery(insightsInput{Level: "adset", Since: "2025-05-01", Until: "2025-05-31", Breakdowns: []string{"age", "country"}},
		&gtmgate.Call{Limit: 10, Filter: &gtmgate.Filter{Property: "spend", Operator: "GT", Value: 100.0}})
	if err != nil {
		t.Fatal(err)
	}
	want := url.Values{"level": {"adset"}, "limit": {"10"}, "breakdowns": {"age,country"},
		"fields":     {"campaign_name,adset_id,adset_name,impressions,clicks,spend,reach,ctr,cpc,cpm,actions,account_currency"},
		"time_range": {`{"since":"2025-05-01","until":"2025-05-31"}`}, "filtering": {`[{"field":"spend","operator":"GREATER_THAN","value":100}]`}}
	if q.Encode() != want.Encode() {
		t.Fatalf("query\n got %s\nwant %s", q.Encode(), want.Encode())
	}
	for _, tt := range []struct {
		name string
		in   insightsInput
		f    *gtmgate.Filter
	}{
		{"both ranges", insightsInput{DatePreset: "last_7d", Since: "2025-01-01", Until: "2025-01-02"}, nil},
		{"until before since", insightsInput{Since: "2025-02-01", Until: "2025-01-01"}, nil},
		{"has property", insightsInput{}, &gtmgate.Filter{Property: "spend", Operator: "HAS_PROPERTY"}},
		{"bad field", insightsInput{}, &gtmgate.Filter{Property: "spend\"}]", Operator: "EQ", Value: "1"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := insightsQuery(tt.in, &gtmgate.Call{Limit: 1, Filter: tt.f})
			providertest.WantCode(t, err, gtmgate.EValidation)
		})
	}
}
