package linkedinads

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/apispec"
	"github.com/gtmgate/gtmgate/provider/providertest"
)

// TestEveryActionIsChecked walks each action of the package's tools against
// the enforced sandbox, once succeeding and once refused by LinkedIn, and
// logs the spec operations each was checked against.
func TestEveryActionIsChecked(t *testing.T) {
	e := newEnv(t)
	providertest.Walk(t, e.Kit, e.sb.Spec, []providertest.ActionWalk{
		{Tool: "linkedin_ads_analytics", Action: "report", Steps: []providertest.Step{
			{Input: `{"rationale":"r","start_date":"2025-06-01","end_date":"2025-06-10","time_granularity":"DAILY","pivot":"CREATIVE","campaign_ids":["508123101"],"metrics":["impressions","clicks","videoViews"]}`},
			{Input: `{"rationale":"r"}`, Before: func() { e.sb.FailNext(403, 1) }, WantCode: gtmgate.EUpstream}}},
		{Tool: "linkedin_ads_campaigns", Action: "list", Steps: []providertest.Step{
			{Input: `{"rationale":"r","action":"list","limit":2,"filter":{"property":"status","operator":"IN","value":["ACTIVE","PAUSED"]}}`},
			{Input: `{"rationale":"r","action":"list"}`, Before: func() { e.sb.FailNext(400, 1) }, WantCode: gtmgate.EUpstream}}},
		{Tool: "linkedin_ads_campaigns", Action: "update_status", Steps: []providertest.Step{
			{Input: `{"rationale":"r","action":"update_status","campaign_id":"508123102","status":"PAUSED"}`},
			{Input: `{"rationale":"r","action":"update_status","campaign_id":"508123106","status":"ACTIVE"}`, WantCode: gtmgate.EUpstream},
			{Input: `{"rationale":"r","action":"update_status","campaign_id":"999","status":"PAUSED"}`, WantCode: gtmgate.EUpstream}}},
	})
}

// TestLinkedInErrorBodies: every error the sandbox answers, its own or the
// spec's refusal, has LinkedIn's error body.
func TestLinkedInErrorBodies(t *testing.T) {
	e := newEnv(t)
	for _, tc := range []struct {
		tool, input string
		fault       func()
	}{
		{"linkedin_ads_analytics", `{"rationale":"r"}`, func() { e.sb.FailNext(403, 1) }},
		{"linkedin_ads_campaigns", `{"rationale":"r","action":"list"}`, func() { e.sb.FailNext(429, 2) }},
		{"linkedin_ads_campaigns", `{"rationale":"r","action":"update_status","campaign_id":"508123106","status":"ACTIVE"}`, nil},
		{"linkedin_ads_campaigns", `{"rationale":"r","action":"update_status","campaign_id":"999","status":"PAUSED"}`, nil},
	} {
		if tc.fault != nil {
			tc.fault()
		}
		_, err := e.Run(t, tc.tool, tc.input)
		var ge *gtmgate.Error
		if !errors.As(err, &ge) {
			t.Fatalf("%s: %v", tc.input, err)
		}
		d, _ := ge.Detail.(gtmgate.UpstreamDetail)
		if p := errorBodyProblems(d.Body); len(p) > 0 {
			t.Errorf("%s: error body %s is not LinkedIn's: %v", tc.input, d.Body, p)
		}
	}
}

// errorBodyProblems checks an error body against the spec's Error schema.
func errorBodyProblems(body string) []string {
	var v any
	dec := json.NewDecoder(strings.NewReader(body))
	dec.UseNumber() // as apispec.CheckValue reads numbers
	if err := dec.Decode(&v); err != nil {
		return []string{err.Error()}
	}
	return liSpec().CheckValue(liSpec().Schemas["Error"], v, apispec.Response)
}

// TestSpecRefusals: a request the reference pages do not describe is
// refused with LinkedIn's PARAM_INVALID body, and recorded; the version
// headers are the sandbox's to refuse first, as LinkedIn does.
func TestSpecRefusals(t *testing.T) {
	psb := NewSandbox()
	sb := psb.Handler.(*Sandbox)
	sb.now = func() time.Time { return dayOfReview }
	srv := httptest.NewServer(sb)
	t.Cleanup(srv.Close)
	const analytics = "/rest/adAnalytics?q=analytics&dateRange=(start:(year:2026,month:10,day:1))&accounts=List(urn%3Ali%3AsponsoredAccount%3A508123456)"
	tests := []struct {
		name, method, path, body string
		status                   int
		problem                  string
	}{
		{"unknown finder", "GET", "/rest/adAccounts/508123456/adCampaigns?q=name", "", 400, `query parameter "q": "name" is not one of search`},
		{"offset paging on the search finder", "GET", "/rest/adAccounts/508123456/adCampaigns?q=search&start=10", "", 400, `query parameter "start": unknown`},
		{"granularity outside its enum", "GET", analytics + "&pivot=CAMPAIGN&timeGranularity=WEEKLY", "", 400, `query parameter "timeGranularity": "WEEKLY" is not one of ALL, DAILY, MONTHLY, YEARLY`},
		{"pivot outside its enum", "GET", analytics + "&timeGranularity=ALL&pivot=DEVICE", "", 400, `query parameter "pivot": "DEVICE" is not one of`},
		{"update without the Rest.li method", "POST", "/rest/adAccounts/508123456/adCampaigns/508123101", `{"patch":{"$set":{"status":"PAUSED"}}}`, 400, `header parameter "X-RestLi-Method": required, missing`},
		{"update to a status LinkedIn does not have", "POST", "/rest/adAccounts/508123456/adCampaigns/508123101", `{"patch":{"$set":{"status":"STOPPED"}}}`, 400, `patch.$set.status: "STOPPED" is not one of`},
		{"resource the adapter does not call", "GET", "/rest/adCampaignGroups/1", "", 404, "no operation of the LinkedIn Marketing API serves GET"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, _ := http.NewRequest(tt.method, srv.URL+tt.path, strings.NewReader(tt.body))
			req.Header.Set("Authorization", "Bearer "+SandboxToken)
			req.Header.Set("LinkedIn-Version", "202606")
			req.Header.Set("X-Restli-Protocol-Version", "2.0.0")
			if tt.body != "" {
				req.Header.Set("Content-Type", "application/json")
				if !strings.Contains(tt.name, "without the Rest.li method") {
					req.Header.Set("X-RestLi-Method", "PARTIAL_UPDATE")
				}
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			v := sb.Spec.TakeViolations()
			if resp.StatusCode != tt.status || len(errorBodyProblems(string(b))) > 0 {
				t.Errorf("got %d %s", resp.StatusCode, b)
			}
			if len(v) != 1 || !strings.Contains(v[0], tt.problem) {
				t.Errorf("violations %q, want one with %q", v, tt.problem)
			}
		})
	}
}

// TestSandboxValidButUnmodelled: values the reference pages allow that the
// sandbox has no data for get its own message, never LinkedIn's "invalid";
// a metric it does not compute is left out, and YEARLY buckets by year.
func TestSandboxValidButUnmodelled(t *testing.T) {
	psb := NewSandbox()
	sb := psb.Handler.(*Sandbox)
	sb.now = func() time.Time { return time.Date(2026, 2, 10, 12, 0, 0, 0, time.UTC) }
	srv := httptest.NewServer(sb)
	t.Cleanup(srv.Close)
	get := func(query string) (int, string) {
		req, _ := http.NewRequest(http.MethodGet, srv.URL+"/rest/adAnalytics?"+query, nil)
		req.Header.Set("Authorization", "Bearer "+SandboxToken)
		req.Header.Set("LinkedIn-Version", "202601")
		req.Header.Set("X-Restli-Protocol-Version", "2.0.0")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	const rest = "&dateRange=(start:(year:2025,month:12,day:20),end:(year:2026,month:1,day:10))&accounts=List(urn%3Ali%3AsponsoredAccount%3A508123456)"
	if status, body := get("q=analytics&pivot=MEMBER_SENIORITY&timeGranularity=ALL" + rest); status != 400 || !strings.Contains(body, "The sandbox does not model pivot MEMBER_SENIORITY") {
		t.Errorf("unmodelled pivot: %d %s", status, body)
	}
	status, body := get("q=analytics&pivot=ACCOUNT&timeGranularity=YEARLY&fields=dateRange,impressions,videoViews" + rest)
	var out struct {
		Elements []map[string]any `json:"elements"`
	}
	if err := json.Unmarshal([]byte(body), &out); status != 200 || err != nil || len(out.Elements) != 2 {
		t.Fatalf("yearly: %d %s", status, body)
	}
	if _, ok := out.Elements[0]["videoViews"]; ok {
		t.Errorf("a metric the sandbox does not compute was answered: %v", out.Elements[0])
	}
	if v := sb.Spec.TakeViolations(); len(v) != 0 {
		t.Errorf("violations %q", v)
	}
}
