package ga4

import (
	"slices"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/googleapi/googleapitest"
	"github.com/gtmgate/gtmgate/provider/providertest"
)

func TestReportFilters(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	const base = `"rationale":"weekly review","dimensions":["sessionDefaultChannelGroup","landingPage"],"metrics":["sessions","keyEvents"],"limit":100`
	tests := []struct {
		name  string
		extra string
		check func(row map[string]any) bool
	}{
		{"EQ dimension", `"filter":{"property":"sessionDefaultChannelGroup","operator":"EQ","value":"Email"}`,
			func(r map[string]any) bool { return r["sessionDefaultChannelGroup"] == "Email" }},
		{"NEQ dimension", `"filter":{"property":"sessionDefaultChannelGroup","operator":"NEQ","value":"Email"}`,
			func(r map[string]any) bool { return r["sessionDefaultChannelGroup"] != "Email" }},
		{"IN dimension", `"filter":{"property":"landingPage","operator":"IN","value":["/pricing","/demo"]}`,
			func(r map[string]any) bool { return r["landingPage"] == "/pricing" || r["landingPage"] == "/demo" }},
		{"NOT_IN dimension", `"filter":{"property":"landingPage","operator":"NOT_IN","value":["/pricing","/demo"]}`,
			func(r map[string]any) bool { return r["landingPage"] != "/pricing" && r["landingPage"] != "/demo" }},
		{"CONTAINS_TOKEN is case-insensitive", `"filter":{"property":"landingPage","operator":"CONTAINS_TOKEN","value":"BLOG"}`,
			func(r map[string]any) bool { return strings.Contains(r["landingPage"].(string), "blog") }},
		{"NOT_CONTAINS_TOKEN", `"filter":{"property":"landingPage","operator":"NOT_CONTAINS_TOKEN","value":"blog"}`,
			func(r map[string]any) bool { return !strings.Contains(r["landingPage"].(string), "blog") }},
		{"NOT_HAS_PROPERTY", `"filter":{"property":"landingPage","operator":"NOT_HAS_PROPERTY"}`,
			func(r map[string]any) bool { return r["landingPage"] == "(not set)" }},
		{"HAS_PROPERTY", `"filter":{"property":"landingPage","operator":"HAS_PROPERTY"}`,
			func(r map[string]any) bool { return r["landingPage"] != "(not set)" }},
		{"GT metric", `"filter":{"property":"sessions","operator":"GT","value":500}`,
			func(r map[string]any) bool { return num(r["sessions"]) > 500 }},
		{"BETWEEN metric", `"filter":{"property":"sessions","operator":"BETWEEN","value":[100,400]}`,
			func(r map[string]any) bool { return num(r["sessions"]) >= 100 && num(r["sessions"]) <= 400 }},
		{"raw dimension_filter", `"dimension_filter":{"orGroup":{"expressions":[
			{"filter":{"fieldName":"landingPage","stringFilter":{"matchType":"BEGINS_WITH","value":"/pri"}}},
			{"filter":{"fieldName":"landingPage","stringFilter":{"matchType":"FULL_REGEXP","value":"/de.o"}}}]}}`,
			func(r map[string]any) bool { return r["landingPage"] == "/pricing" || r["landingPage"] == "/demo" }},
		{"raw filter ANDed with filter", `"dimension_filter":{"filter":{"fieldName":"landingPage","stringFilter":{"value":"/demo"}}},
			"filter":{"property":"sessionDefaultChannelGroup","operator":"EQ","value":"Direct"}`,
			func(r map[string]any) bool {
				return r["landingPage"] == "/demo" && r["sessionDefaultChannelGroup"] == "Direct"
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rows := items(t, f.MustRun(t, "ga4_report", "{"+base+","+tt.extra+"}"))
			if len(rows) == 0 {
				t.Fatal("no rows")
			}
			for _, r := range rows {
				if !tt.check(r) {
					t.Errorf("row %v does not satisfy the filter", r)
				}
			}
		})
	}
}

func TestReportShape(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	res := f.MustRun(t, "ga4_report", `{"rationale":"r","dimensions":["sessionDefaultChannelGroup"],"metrics":["sessions","totalRevenue","engagementRate"]}`)
	rows := items(t, res)
	if len(rows) != len(channels) || num(res["row_count"]) != float64(len(channels)) {
		t.Fatalf("rows = %d row_count = %v, want %d", len(rows), res["row_count"], len(channels))
	}
	if res["currency_code"] != "USD" || res["next_cursor"] != nil {
		t.Errorf("currency_code = %v next_cursor = %v", res["currency_code"], res["next_cursor"])
	}
	wantHeaders := []any{map[string]any{"name": "sessions", "type": "TYPE_INTEGER"},
		map[string]any{"name": "totalRevenue", "type": "TYPE_CURRENCY"}, map[string]any{"name": "engagementRate", "type": "TYPE_FLOAT"}}
	if got := res["metric_headers"].([]any); !slices.EqualFunc(got, wantHeaders, func(a, b any) bool {
		return a.(map[string]any)["name"] == b.(map[string]any)["name"] && a.(map[string]any)["type"] == b.(map[string]any)["type"]
	}) {
		t.Errorf("metric_headers = %v", got)
	}
	if h := googleapitest.Get(res, "dimension_headers", 0); h.(map[string]any)["type"] != "STRING" {
		t.Errorf("dimension header = %v", h)
	}
	var total float64
	for i, r := range rows {
		if i > 0 && num(r["sessions"]) > num(rows[i-1]["sessions"]) {
			t.Errorf("rows not sorted by sessions descending: %v", rows)
		}
		if rate := num(r["engagementRate"]); rate <= 0 || rate >= 1 {
			t.Errorf("engagementRate = %v", rate)
		}
		total += num(r["sessions"])
	}
	all := items(t, f.MustRun(t, "ga4_report", `{"rationale":"r","metrics":["sessions"]}`))
	if len(all) != 1 || num(all[0]["sessions"]) != total {
		t.Errorf("total sessions = %v, sum by channel = %v", all, total)
	}
}

func TestReportPaging(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	var seen []string
	cursor, pages := "", 0
	for {
		in := `{"rationale":"r","dimensions":["country"],"metrics":["sessions"],"limit":3`
		if cursor != "" {
			in += `,"cursor":"` + cursor + `"`
		}
		res := f.MustRun(t, "ga4_report", in+"}")
		for _, r := range items(t, res) {
			seen = append(seen, r["country"].(string))
		}
		pages++
		next, _ := res["next_cursor"].(string)
		if next == "" {
			break
		}
		cursor = next
	}
	if pages != 3 || len(seen) != len(countries) {
		t.Fatalf("pages = %d, countries = %v", pages, seen)
	}
	slices.Sort(seen)
	if len(slices.Compact(seen)) != len(countries) {
		t.Errorf("pages overlap: %v", seen)
	}
}

func TestReportDates(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	res := f.MustRun(t, "ga4_report", `{"rationale":"r","dimensions":["date"],"metrics":["sessions"],"start_date":"6daysAgo","end_date":"today","order_by":[{"field":"date"}]}`)
	rows := items(t, res)
	today := f.sandbox.today
	if len(rows) != 7 || rows[0]["date"] != today.AddDate(0, 0, -6).Format("20060102") || rows[6]["date"] != today.Format("20060102") {
		t.Errorf("rows = %v", rows)
	}
	res = f.MustRun(t, "ga4_report", `{"rationale":"r","metrics":["sessions"],"date_ranges":[
		{"start_date":"13daysAgo","end_date":"7daysAgo","name":"previous"},{"start_date":"6daysAgo","end_date":"today","name":"current"}]}`)
	rows = items(t, res)
	if len(rows) != 2 || rows[0]["dateRange"] == rows[1]["dateRange"] {
		t.Errorf("comparison rows = %v", rows)
	}
}

func TestReportRefusals(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	tests := []struct {
		name, input, code string
	}{
		{"numeric operator on a dimension", `{"rationale":"r","metrics":["sessions"],"filter":{"property":"country","operator":"LT","value":3}}`, gtmgate.EValidation},
		{"BETWEEN without a pair", `{"rationale":"r","metrics":["sessions"],"filter":{"property":"sessions","operator":"BETWEEN","value":3}}`, gtmgate.EValidation},
		{"string operator on a metric", `{"rationale":"r","metrics":["sessions"],"filter":{"property":"sessions","operator":"CONTAINS_TOKEN","value":"3"}}`, gtmgate.EValidation},
		{"bad cursor", `{"rationale":"r","metrics":["sessions"],"cursor":"abc"}`, gtmgate.EValidation},
		{"bad date", `{"rationale":"r","metrics":["sessions"],"start_date":"last week"}`, gtmgate.EValidation},
		{"no metrics", `{"rationale":"r","dimensions":["country"]}`, gtmgate.EValidation},
		{"unknown dimension", `{"rationale":"r","metrics":["sessions"],"dimensions":["city"]}`, gtmgate.EUpstream},
		{"bad raw filter", `{"rationale":"r","metrics":["sessions"],"dimension_filter":{"filter":{"fieldName":"country","regex":"x"}}}`, gtmgate.EUpstream},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := providertest.Run(t, f.Tools["ga4_report"], f.Account, SandboxToken, tt.input)
			if got := googleapitest.Code(err); got != tt.code {
				t.Errorf("code = %s (%v), want %s", got, err, tt.code)
			}
		})
	}
	// The raw filter is passed on as the agent wrote it, and Google refuses
	// its unknown field: the sandbox's spec check is what refused it. (A
	// cleanup: the parallel subtests run after this function returns.)
	t.Cleanup(func() {
		for _, v := range f.sandbox.Spec.TakeViolations() {
			if !strings.Contains(v, "dimensionFilter.filter.regex: unknown field") {
				t.Errorf("unexpected violation: %s", v)
			}
		}
	})
	_, err := providertest.Run(t, f.Tools["ga4_report"], gtmgate.Account{ID: "sc-domain:x"}, SandboxToken, `{"rationale":"r","metrics":["sessions"]}`)
	if googleapitest.Code(err) != gtmgate.EValidation {
		t.Errorf("non-numeric property id: %v", err)
	}
	_, err = providertest.Run(t, f.Tools["ga4_report"], gtmgate.Account{ID: "111"}, SandboxToken, `{"rationale":"r","metrics":["sessions"]}`)
	googleapitest.UpstreamError(t, err, 403)
}

func num(v any) float64 {
	f, _ := v.(float64)
	return f
}
