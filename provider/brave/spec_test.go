package brave

import (
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/apispec/spectest"
	"github.com/gtmgate/gtmgate/provider/providertest"
)

func TestMain(m *testing.M) { spectest.Main(m) }

// TestEveryActionIsChecked walks both search tools against the sandbox that
// enforces Brave's reference: once answered, once refused by Brave (a 429
// rate limit whose reset is longer than the client waits, a 422 validation
// error), logging the operations each reached.
func TestEveryActionIsChecked(t *testing.T) {
	sb, tools := setup(t)
	kit := providertest.NewKit([]gtmgate.Tool{tools["web_search"], tools["news_search"]}, sb.Accounts[0], SandboxToken)
	fail := func(status, times int) func() { return func() { sb.FailNext(status, times) } }
	providertest.Walk(t, kit, sb.Spec, []providertest.ActionWalk{
		{Tool: "web_search", Action: "search", Steps: []providertest.Step{
			{Input: `{"rationale":"r","query":"b2b saas sales","country":"GB","search_lang":"en-gb","freshness":"2025-01-01to2025-12-31","safesearch":"off","limit":2,"cursor":"1"}`},
			{Input: `{"rationale":"r","query":"crm"}`, Before: fail(http.StatusTooManyRequests, 2), WantCode: gtmgate.ERateLimited},
			{Input: `{"rationale":"r","query":"crm"}`, Before: fail(http.StatusUnprocessableEntity, 1), WantCode: gtmgate.EUpstream}}},
		{Tool: "news_search", Action: "search", Steps: []providertest.Step{
			{Input: `{"rationale":"r","query":"hubspot crm","country":"ALL","search_lang":"en","freshness":"pw","safesearch":"strict","limit":50}`},
			{Input: `{"rationale":"r","query":"crm"}`, Before: fail(http.StatusTooManyRequests, 2), WantCode: gtmgate.ERateLimited},
			{Input: `{"rationale":"r","query":"crm"}`, Before: fail(http.StatusUnprocessableEntity, 1), WantCode: gtmgate.EUpstream}}},
	})
}

// TestSpecRefusals: a request Brave's reference does not allow gets Brave's
// 422 VALIDATION naming each parameter at fault (404 for a path Brave does
// not serve), and is recorded as a violation.
func TestSpecRefusals(t *testing.T) {
	t.Parallel()
	sb := NewSandbox()
	base := providertest.Serve(t, sb.ProviderSandbox)
	const web, news = "/res/v1/web/search", "/res/v1/news/search"
	tests := []struct {
		name, path string
		query      url.Values
		status     int
		errType    string
		loc, input string
		problem    string
	}{
		{"undocumented country", web, url.Values{"q": {"crm"}, "country": {"SG"}}, 422, "enum", "query.country", "SG", `query parameter "country": "SG" is not one of ALL, AR`},
		{"lower-case country", news, url.Values{"q": {"crm"}, "country": {"uk"}}, 422, "enum", "query.country", "uk", `"uk" is not one of`},
		{"ISO language code", news, url.Values{"q": {"crm"}, "search_lang": {"ja"}}, 422, "enum", "query.search_lang", "ja", `"ja" is not one of`},
		{"market code", web, url.Values{"q": {"crm"}, "ui_lang": {"en-FR"}}, 422, "enum", "query.ui_lang", "en-FR", `"en-FR" is not one of`},
		{"web count over 20", web, url.Values{"q": {"crm"}, "count": {"21"}}, 422, "value_error", "query.count", "21", `query parameter "count": "21" does not match`},
		{"news count 50", news, url.Values{"q": {"crm"}, "count": {"50"}}, 200, "", "", "", ""},
		{"news count over 50", news, url.Values{"q": {"crm"}, "count": {"51"}}, 422, "value_error", "query.count", "51", `query parameter "count": "51" does not match`},
		{"offset over 9", web, url.Values{"q": {"crm"}, "offset": {"10"}}, 422, "value_error", "query.offset", "10", `query parameter "offset": "10" does not match`},
		{"freshness", news, url.Values{"q": {"crm"}, "freshness": {"pq"}}, 422, "value_error", "query.freshness", "pq", `query parameter "freshness": "pq" does not match`},
		{"query over 400 characters", web, url.Values{"q": {strings.Repeat("a", 401)}}, 422, "value_error", "query.q", strings.Repeat("a", 401), `query parameter "q"`},
		{"query missing", web, url.Values{"count": {"5"}}, 422, "missing", "query.q", "", `query parameter "q": required, missing`},
		{"web parameter on news", news, url.Values{"q": {"crm"}, "result_filter": {"web"}}, 422, "extra_forbidden", "query.result_filter", "web", `query parameter "result_filter": unknown`},
		{"result_filter values", web, url.Values{"q": {"crm"}, "result_filter": {"web,query"}}, 200, "", "", "", ""},
		{"another version", "/res/v2/web/search", url.Values{"q": {"crm"}}, 404, "", "", "", "no operation of the Brave Search API serves GET /res/v2/web/search"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest(http.MethodGet, base+tc.path+"?"+tc.query.Encode(), nil)
			req.Header.Set("X-Subscription-Token", SandboxToken)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			var body braveError
			err = json.NewDecoder(resp.Body).Decode(&body)
			resp.Body.Close()
			v := sb.Spec.TakeViolations()
			if err != nil || resp.StatusCode != tc.status {
				t.Fatalf("status %d (%v), want %d", resp.StatusCode, err, tc.status)
			}
			if tc.status == http.StatusOK {
				if len(v) != 0 {
					t.Errorf("violations %q", v)
				}
				return
			}
			if len(v) != 1 || !strings.Contains(v[0], tc.problem) {
				t.Errorf("violations %q, want one with %q", v, tc.problem)
			}
			if body.Type != "ErrorResponse" || body.Error.Status != tc.status {
				t.Fatalf("body %+v, want Brave's ErrorResponse with status %d", body, tc.status)
			}
			if tc.status == http.StatusNotFound {
				return
			}
			errs, _ := body.Error.Meta["errors"].([]any)
			first, _ := errs[0].(map[string]any)
			loc, _ := json.Marshal(first["loc"])
			if body.Error.Code != "VALIDATION" || len(errs) != 1 || first["type"] != tc.errType ||
				string(loc) != `["`+strings.ReplaceAll(tc.loc, ".", `","`)+`"]` || first["input"] != tc.input {
				t.Errorf("error %s %v, want one VALIDATION %s error at %s with input %q", body.Error.Code, errs, tc.errType, tc.loc, tc.input)
			}
		})
	}
}

// TestToolSchemasFollowSpec: the tools' bounds are the spec's, so the
// adapter cannot send a request Brave refuses.
func TestToolSchemasFollowSpec(t *testing.T) {
	t.Parallel()
	for _, e := range []endpoint{webEndpoint, newsEndpoint} {
		props := properties(e)
		if max := *props["limit"].Maximum; int(max) != e.maxCount {
			t.Errorf("%s: limit max %v, spec count max %d", e.op.ID, max, e.maxCount)
		}
		q := specParam(e.op, "q")
		if n := *props["query"].MaxLength; !matches(q.Pattern, strings.Repeat("é", n)) || matches(q.Pattern, strings.Repeat("é", n+1)) || matches(q.Pattern, "") {
			t.Errorf("%s: query maxLength %d does not match the spec's q pattern %s", e.op.ID, n, q.Pattern)
		}
	}
	if webEndpoint.maxCount != 20 || newsEndpoint.maxCount != 50 || webEndpoint.defaultCount != 20 || newsEndpoint.defaultCount != 20 {
		t.Errorf("count bounds %d/%d defaults %d/%d, Brave documents max 20 (web) and 50 (news), default 20",
			webEndpoint.maxCount, newsEndpoint.maxCount, webEndpoint.defaultCount, newsEndpoint.defaultCount)
	}
}

func matches(pattern, s string) bool {
	return regexp.MustCompile("^(?:" + pattern + ")$").MatchString(s)
}
