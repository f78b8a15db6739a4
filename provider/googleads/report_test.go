package googleads

import (
	"math"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/providertest"
)

func TestReportStructuredConvertsMicros(t *testing.T) {
	e := newEnv(t)
	out := e.MustRun(t, "google_ads_report", `{"rationale":"weekly spend review","resource":"campaign","fields":["name"],
		"metrics":["clicks","cost_micros","average_cpc"],"date_range":"LAST_7_DAYS","order_by":"metrics.cost_micros","descending":true}`)
	if out["currency"] != "USD" {
		t.Fatalf("currency = %v, want USD", out["currency"])
	}
	rows := providertest.Items(t, out)
	if len(rows) == 0 {
		t.Fatal("no rows")
	}
	for _, r := range rows {
		micros, cost := r["metrics.cost_micros"].(float64), r["metrics.cost"].(float64)
		if math.Abs(micros/1e6-cost) > 1e-9 {
			t.Errorf("%v: cost %v is not cost_micros %v / 1e6", r["campaign.name"], cost, micros)
		}
		cpc, cpcMicros := r["metrics.average_cpc"].(float64), r["metrics.average_cpc_micros"].(float64)
		if math.Abs(cpcMicros/1e6-cpc) > 1e-6 {
			t.Errorf("average_cpc %v is not average_cpc_micros %v / 1e6", cpc, cpcMicros)
		}
	}
	if first, last := rows[0]["metrics.cost"].(float64), rows[len(rows)-1]["metrics.cost"].(float64); first < last {
		t.Errorf("not ordered by cost descending: %v … %v", first, last)
	}
}

func TestReportRawQueryAndCurrencyLookup(t *testing.T) {
	e := newEnv(t)
	out := e.MustRun(t, "google_ads_report", `{"rationale":"daily trend","query":"SELECT segments.date, metrics.impressions FROM customer WHERE segments.date BETWEEN '2025-06-01' AND '2025-06-03' ORDER BY segments.date"}`)
	rows := providertest.Items(t, out)
	if len(rows) != 3 || rows[0]["segments.date"] != "2025-06-01" || out["currency"] != "USD" {
		t.Fatalf("rows = %v, currency = %v", rows, out["currency"])
	}
	if _, ok := rows[0]["metrics.impressions"].(float64); !ok {
		t.Errorf("impressions is %T, want a number", rows[0]["metrics.impressions"])
	}
}

func TestReportRefusals(t *testing.T) {
	tests := []struct{ name, input, want string }{
		{"non-select", `{"rationale":"r","query":"UPDATE campaign SET campaign.status = 'PAUSED'"}`, "SELECT"},
		{"two statements", `{"rationale":"r","query":"SELECT campaign.id FROM campaign; SELECT customer.id FROM customer"}`, "GAQL"},
		{"field injection", `{"rationale":"r","resource":"campaign","fields":["name FROM customer --"]}`, "fields"},
		{"date injection", `{"rationale":"r","resource":"campaign","metrics":["clicks"],"start_date":"2025-01-01' OR '1'='1","end_date":"2025-01-02"}`, "start_date"},
		{"filter on raw query", `{"rationale":"r","query":"SELECT campaign.id FROM campaign","filter":{"property":"status","operator":"EQ","value":"ENABLED"}}`, "filter is not supported"},
		{"filter quote injection", `{"rationale":"r","resource":"campaign","fields":["id"],"filter":{"property":"name","operator":"EQ","value":"a' OR \"b\"=\"b"}}`, "quote"},
		{"neither form", `{"rationale":"r"}`, "required"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			_, err := e.Run(t, "google_ads_report", tt.input)
			ge := providertest.WantCode(t, err, gtmgate.EValidation)
			if !strings.Contains(ge.Message, tt.want) {
				t.Errorf("message %q does not mention %q", ge.Message, tt.want)
			}
			if e.sb.Requests() != 0 {
				t.Errorf("a refused query reached Google (%d requests)", e.sb.Requests())
			}
		})
	}
}

func TestReportFilterMapsToWhere(t *testing.T) {
	e := newEnv(t)
	out := e.MustRun(t, "google_ads_report", `{"rationale":"paused campaigns","resource":"campaign","fields":["name","status"],
		"filter":{"property":"status","operator":"EQ","value":"PAUSED"}}`)
	if !strings.Contains(out["query"].(string), "WHERE campaign.status = 'PAUSED'") {
		t.Errorf("query = %v", out["query"])
	}
	rows := providertest.Items(t, out)
	if len(rows) != 2 {
		t.Fatalf("got %d paused campaigns, want 2", len(rows))
	}
	for _, r := range rows {
		if r["campaign.status"] != "PAUSED" {
			t.Errorf("row %v is not paused", r)
		}
	}
}

func TestReportPaging(t *testing.T) {
	tests := []struct {
		name     string
		pageSize int // Google's page size in the sandbox
	}{
		{"within one Google page", 10000},
		{"across Google pages", 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			e.sb.PageSize = tt.pageSize
			const q = `"query":"SELECT campaign.id FROM campaign ORDER BY campaign.id"`
			var ids []any
			cursor := ""
			for range 10 {
				in := `{"rationale":"r",` + q + `,"limit":2`
				if cursor != "" {
					in += `,"cursor":"` + cursor + `"`
				}
				out := e.MustRun(t, "google_ads_report", in+"}")
				for _, r := range providertest.Items(t, out) {
					ids = append(ids, r["campaign.id"])
				}
				cursor, _ = out["next_cursor"].(string)
				if cursor == "" {
					break
				}
			}
			if len(ids) != 7 || ids[0] == ids[1] {
				t.Fatalf("paged ids = %v, want the 7 campaigns once each", ids)
			}
		})
	}
}

func TestReportCursorBoundToQuery(t *testing.T) {
	e := newEnv(t)
	out := e.MustRun(t, "google_ads_report", `{"rationale":"r","query":"SELECT campaign.id FROM campaign","limit":1}`)
	_, err := e.Run(t, "google_ads_report", `{"rationale":"r","query":"SELECT campaign.name FROM campaign","cursor":"`+out["next_cursor"].(string)+`"}`)
	providertest.WantCode(t, err, gtmgate.EValidation)
}

func TestReportUnknownFieldShowsGoogleMessage(t *testing.T) {
	e := newEnv(t)
	_, err := e.Run(t, "google_ads_report", `{"rationale":"r","query":"SELECT campaign.colour FROM campaign"}`)
	ge := providertest.WantCode(t, err, gtmgate.EUpstream)
	if d := ge.Detail.(gtmgate.UpstreamDetail); d.Status != 400 || !strings.Contains(ge.Message, "Unrecognized field in the query: 'campaign.colour'") {
		t.Fatalf("status %d, message %q", d.Status, ge.Message)
	}
}

func TestReportVideoAndActiveViewCostsConverted(t *testing.T) {
	e := newEnv(t)
	// The YouTube and Display campaigns stopped 45 and 18 days before testNow; April 2025 has both.
	out := e.MustRun(t, "google_ads_report", `{"rationale":"video costs","resource":"campaign","fields":["name","advertising_channel_type"],
		"metrics":["cost_micros","active_view_cpm","trueview_average_cpv","video_trueview_views"],"start_date":"2025-04-01","end_date":"2025-04-30"}`)
	seen := map[string]bool{}
	for _, r := range providertest.Items(t, out) {
		for _, m := range []string{"metrics.active_view_cpm", "metrics.trueview_average_cpv"} {
			v, raw := r[m].(float64), r[m+"_micros"].(float64)
			if math.Abs(raw/1e6-v) > 1e-6 {
				t.Errorf("%v: %s = %v is not %s_micros %v / 1e6", r["campaign.name"], m, v, m, raw)
			}
			if v > 0 {
				seen[m] = true
				if v > 1000 {
					t.Errorf("%v: %s = %v looks like raw micros", r["campaign.name"], m, v)
				}
			}
		}
	}
	if !seen["metrics.active_view_cpm"] || !seen["metrics.trueview_average_cpv"] {
		t.Fatalf("no row with both costs: %v", providertest.Items(t, out))
	}
}

func TestReportAverageCPVIsGone(t *testing.T) {
	e := newEnv(t)
	_, err := e.Run(t, "google_ads_report", `{"rationale":"r","query":"SELECT metrics.average_cpv FROM campaign WHERE segments.date DURING LAST_7_DAYS"}`)
	ge := providertest.WantCode(t, err, gtmgate.EUpstream)
	if !strings.Contains(ge.Message, "Unrecognized field in the query: 'metrics.average_cpv'") {
		t.Fatalf("message %q", ge.Message)
	}
}

func TestReportCurrencyOnlyFromResourcesWithCustomer(t *testing.T) {
	e := newEnv(t)
	out := e.MustRun(t, "google_ads_report", `{"rationale":"locations","resource":"geo_target_constant","fields":["name","country_code"],"order_by":"name"}`)
	if q := out["query"].(string); strings.Contains(q, "customer.") {
		t.Errorf("query %q selects customer fields from a constant", q)
	}
	if rows := providertest.Items(t, out); len(rows) != 3 || out["currency"] != "USD" {
		t.Errorf("rows = %v, currency = %v (from a second request)", rows, out["currency"])
	}
	// Google refuses customer fields from a resource that is not attributed to customer.
	_, err := e.Run(t, "google_ads_report", `{"rationale":"r","query":"SELECT geo_target_constant.name, customer.currency_code FROM geo_target_constant"}`)
	ge := providertest.WantCode(t, err, gtmgate.EUpstream)
	if d := ge.Detail.(gtmgate.UpstreamDetail); d.Status != 400 || !strings.Contains(d.Body, "PROHIBITED_RESOURCE_TYPE_IN_SELECT_CLAUSE") {
		t.Fatalf("status %d, body %s", d.Status, d.Body)
	}
}
