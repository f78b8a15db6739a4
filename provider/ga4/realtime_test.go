package ga4

import (
	"testing"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/googleapi/googleapitest"
	"github.com/gtmgate/gtmgate/provider/providertest"
)

func TestRealtime(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	all := items(t, f.MustRun(t, "ga4_realtime", `{"rationale":"who is on the site"}`))
	if len(all) != 1 || num(all[0]["activeUsers"]) <= 0 {
		t.Fatalf("active users = %v", all)
	}
	last5 := items(t, f.MustRun(t, "ga4_realtime", `{"rationale":"r","minute_ranges":[{"start_minutes_ago":4,"end_minutes_ago":0}]}`))
	if num(last5[0]["activeUsers"]) >= num(all[0]["activeUsers"]) {
		t.Errorf("last 5 minutes (%v) not fewer than last 30 (%v)", last5, all)
	}
	byCountry := items(t, f.MustRun(t, "ga4_realtime", `{"rationale":"r","dimensions":["country","deviceCategory"],"metrics":["activeUsers","screenPageViews"],
		"filter":{"property":"deviceCategory","operator":"EQ","value":"mobile"},"limit":5}`))
	if len(byCountry) == 0 || len(byCountry) > 5 {
		t.Fatalf("rows = %v", byCountry)
	}
	for _, r := range byCountry {
		if r["deviceCategory"] != "mobile" || r["country"] == nil {
			t.Errorf("row = %v", r)
		}
	}
	_, err := providertest.Run(t, f.Tools["ga4_realtime"], f.Account, SandboxToken, `{"rationale":"r","cursor":"5"}`)
	if googleapitest.Code(err) != gtmgate.EValidation {
		t.Errorf("cursor on realtime: %v", err)
	}
}

func TestMetadata(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	res := f.MustRun(t, "ga4_metadata", `{"rationale":"which metrics exist"}`)
	types := map[string]any{}
	for _, m := range res["metrics"].([]any) {
		m := m.(map[string]any)
		types[m["apiName"].(string)] = m["type"]
		if m["uiName"] == "" || m["description"] == "" {
			t.Errorf("metric without names: %v", m)
		}
	}
	if types["sessions"] != "TYPE_INTEGER" || types["totalRevenue"] != "TYPE_CURRENCY" || types["averageSessionDuration"] != "TYPE_SECONDS" {
		t.Errorf("metric types = %v", types)
	}
	if d := googleapitest.Get(res, "dimensions", 0, "apiName"); d != "date" {
		t.Errorf("first dimension = %v", d)
	}
}
