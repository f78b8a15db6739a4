package metaads

import (
	"encoding/json"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/apispec"
	"github.com/gtmgate/gtmgate/provider/providertest"
)

// TestEveryActionIsChecked runs each action of the package's tools against
// the enforced sandbox, once succeeding and once refused by Meta, and logs
// the spec operations each was checked against. An action that reached no
// operation would be one the facts do not cover. Every error Meta's sandbox
// answers has Graph's error envelope.
func TestEveryActionIsChecked(t *testing.T) {
	const (
		active   = "236100000000000"
		archived = "236100000000004"
	)
	type run struct {
		input   string
		fault   func(*Sandbox)
		errCode string
	}
	actions := []struct {
		tool, action string
		runs         []run
	}{
		{"meta_ads_insights", "report", []run{
			{input: `{"rationale":"r","level":"ad","breakdowns":["age"],"time_increment":"1","date_preset":"last_7d","filter":{"property":"spend","operator":"GT","value":1}}`},
			{input: `{"rationale":"r","fields":["bogus_metric"]}`, errCode: gtmgate.EUpstream},
			{input: `{"rationale":"r"}`, fault: func(s *Sandbox) { s.ThrottleNext(1) }, errCode: gtmgate.ERateLimited},
		}},
		{"meta_ads_campaigns", "list", []run{
			{input: `{"rationale":"r","action":"list","limit":2,"filter":{"property":"name","operator":"CONTAINS_TOKEN","value":"lead"}}`},
			{input: `{"rationale":"r","action":"list","filter":{"property":"effective_status","operator":"IN","value":["ACTIVE","ARCHIVED"]}}`},
			{input: `{"rationale":"r","action":"list"}`, fault: func(s *Sandbox) { s.FailNext(400, 2) }, errCode: gtmgate.EUpstream},
		}},
		{"meta_ads_campaigns", "update_status", []run{
			{input: `{"rationale":"r","action":"update_status","campaign_id":"` + active + `","status":"PAUSED"}`},
			{input: `{"rationale":"r","action":"update_status","campaign_id":"` + archived + `","status":"ACTIVE"}`, errCode: gtmgate.EUpstream},
		}},
		{"meta_ads_campaigns", "update_budget", []run{
			{input: `{"rationale":"r","action":"update_budget","campaign_id":"` + active + `","amount":120.5}`},
			{input: `{"rationale":"r","action":"update_budget","campaign_id":"` + active + `","amount":0.5}`, errCode: gtmgate.EUpstream},
		}},
	}
	for _, a := range actions {
		t.Run(a.tool+"."+a.action, func(t *testing.T) {
			e := newEnv(t)
			before := e.sb.Spec.Checked()
			for _, r := range a.runs {
				if r.fault != nil {
					r.fault(e.sb)
				}
				_, err := e.Run(t, a.tool, r.input)
				if r.errCode == "" {
					if err != nil {
						t.Fatalf("%s: %v", r.input, err)
					}
					continue
				}
				ge := providertest.WantCode(t, err, r.errCode)
				var body any
				d, _ := ge.Detail.(gtmgate.UpstreamDetail)
				dec := json.NewDecoder(strings.NewReader(d.Body))
				dec.UseNumber() // as apispec.CheckValue reads numbers
				if err := dec.Decode(&body); err != nil {
					t.Fatalf("%s: error body %q: %v", r.input, d.Body, err)
				}
				if p := graphSpec.CheckValue(graphSpec.Schemas["GraphError"], body, apispec.Response); len(p) > 0 {
					t.Errorf("%s: error body %s is not Graph's envelope: %v", r.input, d.Body, p)
				}
			}
			ops := checkedSince(before, e.sb.Spec.Checked())
			t.Logf("%s.%s checked against %v", a.tool, a.action, ops)
			if len(ops) == 0 {
				t.Errorf("%s.%s reached no operation of the spec", a.tool, a.action)
			}
		})
	}
}

// checkedSince lists the operations counted in after and not in before.
func checkedSince(before, after map[string]int) []string {
	var ops []string
	for _, id := range slices.Sorted(maps.Keys(after)) {
		if after[id] > before[id] {
			ops = append(ops, id)
		}
	}
	return ops
}

// TestSpecRefusals: a request the v26.0 SDK does not describe is refused the
// way Graph refuses a parameter, and recorded.
func TestSpecRefusals(t *testing.T) {
	sb := newSandbox(func() time.Time { return dayOfReview })
	srv := httptest.NewServer(sb)
	t.Cleanup(srv.Close)
	tests := []struct {
		name, path, problem string
	}{
		{"filtering on the campaigns edge", "/v26.0/act_1012345678901234/campaigns?fields=id&filtering=%5B%5D", `query parameter "filtering": unknown`},
		{"level outside its enum", "/v26.0/act_1012345678901234/insights?fields=impressions&level=creative", `query parameter "level": "creative" is not one of`},
		{"date_preset outside its enum", "/v26.0/act_1012345678901234/insights?fields=impressions&date_preset=last_45d", `query parameter "date_preset": "last_45d" is not one of`},
		{"limit not an integer", "/v26.0/act_1012345678901234/insights?fields=impressions&limit=ten", `query parameter "limit": "ten" is not an integer`},
		{"edge the adapter does not call", "/v26.0/act_1012345678901234/ads?fields=id", "no operation of the Meta Marketing API serves GET"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var body struct {
				Error struct {
					Message string `json:"message"`
					Type    string `json:"type"`
					Code    int    `json:"code"`
				} `json:"error"`
			}
			status := sandboxGet(t, srv.URL+tt.path, &body)
			v := sb.Spec.TakeViolations()
			if status != 400 || body.Error.Type != "OAuthException" || !strings.Contains(body.Error.Message, tt.problem) {
				t.Errorf("got %d %+v", status, body.Error)
			}
			if len(v) != 1 || !strings.Contains(v[0], tt.problem) {
				t.Errorf("violations %q", v)
			}
		})
	}
}

// TestListParamElements: the elements of a list parameter are checked
// against the SDK's enum with Graph's messages.
func TestListParamElements(t *testing.T) {
	sb := newSandbox(func() time.Time { return dayOfReview })
	srv := httptest.NewServer(sb)
	t.Cleanup(srv.Close)
	for _, tc := range []struct{ path, message string }{
		{"/v26.0/act_1012345678901234/campaigns?fields=id&effective_status=%5B%22ACTIVE%22,%22RUNNING%22%5D",
			"(#100) Param effective_status[1] must be one of {ACTIVE, ARCHIVED, DELETED, IN_PROCESS, PAUSED, WITH_ISSUES}"},
		{"/v26.0/act_1012345678901234/insights?fields=impressions&breakdowns=age,creative_fingerprint",
			"(#100) creative_fingerprint is not valid for breakdowns param. please check https://developers.facebook.com/docs/marketing-api/insights/breakdowns/ for all valid values"},
		{"/v26.0/act_1012345678901234/insights?fields=impressions&breakdowns=dma",
			"(#100) the sandbox does not model breakdown dma (it models age, country, device_platform, gender, impression_device, platform_position, publisher_platform, region)"},
	} {
		var body struct {
			Error struct{ Message string } `json:"error"`
		}
		if status := sandboxGet(t, srv.URL+tc.path, &body); status != http.StatusBadRequest || body.Error.Message != tc.message {
			t.Errorf("%s: got %d %q", tc.path, status, body.Error.Message)
		}
	}
	if v := sb.Spec.TakeViolations(); len(v) != 0 {
		t.Errorf("violations %q", v)
	}
}

// TestSpecFieldLists: the requestable insights fields are the SDK's
// AdsInsights fields less its breakdown columns, and every field the
// adapter asks for is one of them.
func TestSpecFieldLists(t *testing.T) {
	if n := len(graphInsightsFields); n != 219 {
		t.Errorf("%d requestable insights fields, the v26.0.0 Node SDK exports 219", n)
	}
	for _, f := range []string{"age", "country", "publisher_platform"} {
		if slices.Contains(graphInsightsFields, f) || graphSpec.Schemas["AdsInsights"].Properties[f] == nil {
			t.Errorf("breakdown column %s: requestable or not in rows", f)
		}
	}
}
