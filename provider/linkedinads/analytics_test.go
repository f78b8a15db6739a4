package linkedinads

import (
	"strings"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/providertest"
)

func TestAnalyticsQueryEncoding(t *testing.T) {
	q, err := analyticsQuery(analyticsInput{StartDate: "2025-05-01", EndDate: "2025-05-31", Granularity: "DAILY", CampaignIDs: []string{"508123101"},
		Metrics: []string{"impressions", "costInLocalCurrency"}}, "508123456", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	want := "q=analytics&pivot=CAMPAIGN&timeGranularity=DAILY&dateRange=(start:(year:2025,month:5,day:1),end:(year:2025,month:5,day:31))" +
		"&accounts=List(urn%3Ali%3AsponsoredAccount%3A508123456)&campaigns=List(urn%3Ali%3AsponsoredCampaign%3A508123101)" +
		"&fields=dateRange,pivotValues,impressions,costInLocalCurrency"
	if q != want {
		t.Fatalf("query\n got %s\nwant %s", q, want)
	}
}

func TestAnalyticsReport(t *testing.T) {
	tests := []struct {
		name, input string
		rows        int
		check       func(t *testing.T, r map[string]any)
	}{
		{"total per campaign", `{"rationale":"r","start_date":"2025-06-01","end_date":"2025-06-14"}`, 3, func(t *testing.T, r map[string]any) {
			if r["date_start"] != "2025-06-01" || r["date_end"] != "2025-06-14" || !strings.HasPrefix(r["pivot_value"].(string), "urn:li:sponsoredCampaign:") {
				t.Errorf("row = %v", r)
			}
			if c, ok := r["cost"].(float64); !ok || c <= 0 || r["costInLocalCurrency"] != c || r["currency"] != "USD" {
				t.Errorf("cost = %v %v", r["cost"], r["currency"])
			}
		}},
		{"daily one campaign", `{"rationale":"r","start_date":"2025-06-02","end_date":"2025-06-06","time_granularity":"DAILY","campaign_ids":["508123101"]}`, 5, func(t *testing.T, r map[string]any) {
			if r["date_start"] != r["date_end"] || r["pivot_id"] != "508123101" {
				t.Errorf("row = %v", r)
			}
		}},
		{"account pivot monthly", `{"rationale":"r","start_date":"2025-04-15","end_date":"2025-06-10","time_granularity":"MONTHLY","pivot":"ACCOUNT"}`, 3, func(t *testing.T, r map[string]any) {
			if _, ok := r["impressions"].(float64); !ok {
				t.Errorf("impressions = %v", r["impressions"])
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			rows := providertest.Items(t, e.MustRun(t, "linkedin_ads_analytics", tt.input))
			if len(rows) != tt.rows {
				t.Fatalf("got %d rows, want %d: %v", len(rows), tt.rows, rows)
			}
			for _, r := range rows {
				tt.check(t, r)
			}
		})
	}
}

func TestAnalyticsPagingAndFilter(t *testing.T) {
	e := newEnv(t)
	in := `{"rationale":"r","start_date":"2025-06-01","end_date":"2025-06-10","time_granularity":"DAILY","limit":25`
	first := e.MustRun(t, "linkedin_ads_analytics", in+"}")
	second := e.MustRun(t, "linkedin_ads_analytics", in+`,"cursor":"`+first["next_cursor"].(string)+`"}`)
	if n := len(providertest.Items(t, first)) + len(providertest.Items(t, second)); n != 30 || second["next_cursor"] != nil {
		t.Fatalf("paged %d rows, want 30 (3 campaigns × 10 days)", n)
	}
	_, err := e.Run(t, "linkedin_ads_analytics", `{"rationale":"r","filter":{"property":"clicks","operator":"GT","value":1}}`)
	if ge := providertest.WantCode(t, err, gtmgate.EValidation); ge.Message != "filter is not supported for linkedin_ads_analytics.report" {
		t.Errorf("message = %q", ge.Message)
	}
}
