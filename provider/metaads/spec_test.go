package metaads

import (
	"encoding/json"
	"errors"
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

// TestEveryActionIsChecked walks each action of the package's tools against
// the enforced sandbox, once succeeding and once refused by Meta, and logs
// the spec operations each was checked against.
func TestEveryActionIsChecked(t *testing.T) {
	e := newEnv(t)
	const (
		active   = "236100000000000"
		archived = "236100000000004"
	)
	providertest.Walk(t, e.Kit, e.sb.Spec, []providertest.ActionWalk{
		{Tool: "meta_ads_insights", Action: "report", Steps: []providertest.Step{
			{Input: `{"rationale":"r","level":"ad","breakdowns":["age"],"time_increment":"1","date_preset":"last_7d","filter":{"property":"spend","operator":"GT","value":1}}`},
			{Input: `{"rationale":"r","fields":["bogus_metric"]}`, WantCode: gtmgate.EUpstream},
			{Input: `{"rationale":"r"}`, Before: func() { e.sb.ThrottleNext(1) }, WantCode: gtmgate.ERateLimited}}},
		{Tool: "meta_ads_campaigns", Action: "list", Steps: []providertest.Step{
			{Input: `{"rationale":"r","action":"list","limit":2,"filter":{"property":"name","operator":"CONTAINS_TOKEN","value":"lead"}}`},
			{Input: `{"rationale":"r","action":"list","filter":{"property":"effective_status","operator":"IN","value":["ACTIVE","ARCHIVED"]}}`},
			{Input: `{"rationale":"r","action":"list"}`, Before: func() { e.sb.FailNext(400, 1) }, WantCode: gtmgate.EUpstream}}},
		{Tool: "meta_ads_campaigns", Action: "update_status", Steps: []providertest.Step{
			{Input: `{"rationale":"r","action":"update_status","campaign_id":"` + active + `","status":"PAUSED"}`},
			{Input: `{"rationale":"r","action":"update_status","campaign_id":"` + archived + `","status":"ACTIVE"}`, WantCode: gtmgate.EUpstream}}},
		{Tool: "meta_ads_campaigns", Action: "update_budget", Steps: []providertest.Step{
			{Input: `{"rationale":"r","action":"update_budget","campaign_id":"` + active + `","amount":120.5}`},
			{Input: `{"rationale":"r","action":"update_budget","campaign_id":"` + active + `","amount":0.5}`, WantCode: gtmgate.EUpstream}}},
	})
}

// TestGraphErrorBodies: every error the sandbox answers, its own or the
// spec's refusal, has Graph's error envelope.
func TestGraphErrorBodies(t *testing.T) {
	e := newEnv(t)
	for _, tc := range []struct {
		input string
		fault func()
	}{
		{`{"rationale":"r","fields":["bogus_metric"]}`, nil},
		{`{"rationale":"r"}`, func() { e.sb.ThrottleNext(1) }},
		{`{"rationale":"r"}`, func() { e.sb.FailNext(503, 2) }},
		{`{"rationale":"r","action":"update_budget","campaign_id":"236100000000000","amount":0.5}`, nil},
	} {
		if tc.fault != nil {
			tc.fault()
		}
		tool := "meta_ads_insights"
		if strings.Contains(tc.input, "action") {
			tool = "meta_ads_campaigns"
		}
		_, err := e.Run(t, tool, tc.input)
		var ge *gtmgate.Error
		if !errors.As(err, &ge) {
			t.Fatalf("%s: %v", tc.input, err)
		}
		d, _ := ge.Detail.(gtmgate.UpstreamDetail)
		var body any
		dec := json.NewDecoder(strings.NewReader(d.Body))
		dec.UseNumber() // as apispec.CheckValue reads numbers
		if err := dec.Decode(&body); err != nil {
			t.Fatalf("%s: error body %q: %v", tc.input, d.Body, err)
		}
		if p := graphSpec.CheckValue(graphSpec.Schemas["GraphError"], body, apispec.Response); len(p) > 0 {
			t.Errorf("%s: error body %s is not Graph's envelope: %v", tc.input, d.Body, p)
		}
	}
	sb := newSandbox(func() time.Time { return dayOfReview })
	srv := httptest.NewServer(sb)
	t.Cleanup(srv.Close)
	var body any
	sandboxGet(t, srv.URL+"/v26.0/act_1012345678901234/campaigns?filtering=%5B%5D", &body)
	sb.Spec.TakeViolations()
	if p := graphSpec.CheckValue(graphSpec.Schemas["GraphError"], numbers(body), apispec.Response); len(p) > 0 {
		t.Errorf("the spec's refusal %v is not Graph's envelope: %v", body, p)
	}
}

// numbers re-encodes v's numbers as apispec.CheckValue reads them.
func numbers(v any) any {
	b, _ := json.Marshal(v)
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.UseNumber()
	var out any
	_ = dec.Decode(&out)
	return out
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
			var body graphErrorBody
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
