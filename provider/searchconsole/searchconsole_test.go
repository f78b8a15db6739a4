package searchconsole

import (
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate/provider/apispec/spectest"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/googleapi/googleapitest"
	"github.com/gtmgate/gtmgate/provider/providertest"
	"github.com/gtmgate/gtmgate/provider/upstream"
)

type fixture struct {
	tool     gtmgate.Tool
	sandbox  *Sandbox
	accounts []gtmgate.Account
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	sb := NewSandbox()
	url := providertest.Serve(t, sb)
	return &fixture{tool: Tools(upstream.MustNew(Options(url)))[0],
		sandbox: sb.Handler.(*Sandbox), accounts: sb.Accounts}
}

func (f *fixture) run(t *testing.T, acct gtmgate.Account, input string) (map[string]any, []map[string]any) {
	t.Helper()
	res, err := providertest.Run(t, f.tool, acct, SandboxToken, input)
	if err != nil {
		t.Fatalf("%s: %v", input, err)
	}
	m := res.(map[string]any)
	var rows []map[string]any
	for _, r := range m["items"].([]any) {
		rows = append(rows, r.(map[string]any))
	}
	return m, rows
}

func TestQuery(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	tests := []struct {
		name  string
		input string
		check func(r map[string]any) bool
	}{
		{"by query", `"dimensions":["query"]`, func(r map[string]any) bool { return r["query"] != nil && r["page"] == nil }},
		{"EQ", `"dimensions":["query","device"],"filter":{"property":"device","operator":"EQ","value":"MOBILE"}`,
			func(r map[string]any) bool { return r["device"] == "MOBILE" }},
		{"NEQ", `"dimensions":["country"],"filter":{"property":"country","operator":"NEQ","value":"usa"}`,
			func(r map[string]any) bool { return r["country"] != "usa" }},
		{"CONTAINS_TOKEN", `"dimensions":["query"],"filter":{"property":"query","operator":"CONTAINS_TOKEN","value":"Ledgerly"}`,
			func(r map[string]any) bool { return strings.Contains(r["query"].(string), "ledgerly") }},
		{"NOT_CONTAINS_TOKEN", `"dimensions":["page"],"filter":{"property":"page","operator":"NOT_CONTAINS_TOKEN","value":"/blog/"}`,
			func(r map[string]any) bool { return !strings.Contains(r["page"].(string), "/blog/") }},
		{"includingRegex via groups", `"dimensions":["query"],"dimension_filter_groups":[{"filters":[{"dimension":"query","operator":"includingRegex","expression":"alternative$"}]}]`,
			func(r map[string]any) bool { return strings.HasSuffix(r["query"].(string), "alternative") }},
		{"groups ANDed with filter", `"dimensions":["query","country"],"dimension_filter_groups":[{"filters":[{"dimension":"query","operator":"excludingRegex","expression":"^ledgerly"}]}],
			"filter":{"property":"country","operator":"EQ","value":"gbr"}`,
			func(r map[string]any) bool {
				return r["country"] == "gbr" && !strings.HasPrefix(r["query"].(string), "ledgerly")
			}},
		{"search appearance", `"dimensions":["searchAppearance"]`,
			func(r map[string]any) bool {
				return r["searchAppearance"] == "FAQ_RICH_RESULT" || r["searchAppearance"] == "REVIEW_SNIPPET"
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, rows := f.run(t, f.accounts[0], `{"rationale":"seo review","limit":100,`+tt.input+`}`)
			if len(rows) == 0 {
				t.Fatal("no rows")
			}
			for _, r := range rows {
				if !tt.check(r) {
					t.Errorf("row %v fails the check", r)
				}
				clicks, impr, ctr := r["clicks"].(float64), r["impressions"].(float64), r["ctr"].(float64)
				if impr <= 0 || clicks > impr || ctr < 0 || ctr > 1 || r["position"].(float64) < 1 {
					t.Errorf("implausible metrics %v", r)
				}
			}
		})
	}
}

func TestQueryPagingAndDates(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	acct := f.accounts[1] // the URL-prefix property: its slashes must be escaped into one path segment
	var all []string
	cursor := ""
	for range 10 {
		in := `{"rationale":"r","dimensions":["query"],"limit":5`
		if cursor != "" {
			in += `,"cursor":"` + cursor + `"`
		}
		res, rows := f.run(t, acct, in+"}")
		for _, r := range rows {
			all = append(all, r["query"].(string))
		}
		cursor, _ = res["next_cursor"].(string)
		if cursor == "" {
			break
		}
	}
	if len(all) != len(seedQueries) {
		t.Errorf("paged %d queries, want %d: %v", len(all), len(seedQueries), all)
	}
	res, rows := f.run(t, acct, `{"rationale":"r","dimensions":["date"],"start_date":"2000-01-01","end_date":"2100-01-01","limit":100}`)
	if len(rows) != sandboxDays || rows[0]["date"].(string) >= rows[1]["date"].(string) {
		t.Errorf("by date: %d rows, first %v", len(rows), rows[0])
	}
	if res["response_aggregation_type"] != "byProperty" {
		t.Errorf("aggregation = %v", res["response_aggregation_type"])
	}
}

func TestQueryRefusals(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	tests := []struct{ name, input, code string }{
		{"LT operator", `{"rationale":"r","filter":{"property":"query","operator":"LT","value":"a"}}`, gtmgate.EValidation},
		{"filter on a metric", `{"rationale":"r","filter":{"property":"clicks","operator":"EQ","value":"3"}}`, gtmgate.EValidation},
		{"bad date", `{"rationale":"r","start_date":"yesterday"}`, gtmgate.EValidation},
		{"bad dimension", `{"rationale":"r","dimensions":["keyword"]}`, gtmgate.EValidation},
		{"bad cursor", `{"rationale":"r","cursor":"-1"}`, gtmgate.EValidation},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := providertest.Run(t, f.tool, f.accounts[0], SandboxToken, tt.input)
			if googleapitest.Code(err) != tt.code {
				t.Errorf("code = %s (%v), want %s", googleapitest.Code(err), err, tt.code)
			}
		})
	}
	_, err := providertest.Run(t, f.tool, gtmgate.Account{ID: "www.example.com"}, SandboxToken, `{"rationale":"r"}`)
	if googleapitest.Code(err) != gtmgate.EValidation {
		t.Errorf("bare host account: %v", err)
	}
	_, err = providertest.Run(t, f.tool, gtmgate.Account{ID: "sc-domain:other.example"}, SandboxToken, `{"rationale":"r"}`)
	googleapitest.UpstreamError(t, err, 403)
}

// TestUsageLimits: Search Console's usage limits sent as 403 are
// RATE_LIMITED, not a refused token.
func TestUsageLimits(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	googleapitest.CheckUsageLimits(t, f.sandbox, f.tool, f.accounts[0], SandboxToken, `{"rationale":"r","dimensions":["query"]}`)
}

func TestUpstreamFaults(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	const in = `{"rationale":"r","dimensions":["query"]}`
	googleapitest.CheckBadToken(t, f.tool, f.accounts[0], in)
	googleapitest.CheckReadRetried(t, f.sandbox, f.tool, f.accounts[0], SandboxToken, in)
	googleapitest.CheckBadRequest(t, f.tool, f.accounts[0], SandboxToken,
		`{"rationale":"r","start_date":"2025-02-30"}`, "must be dates in YYYY-MM-DD format")
	googleapitest.CheckBadRequest(t, f.tool, f.accounts[0], SandboxToken,
		`{"rationale":"r","dimension_filter_groups":[{"filters":[{"dimension":"query","operator":"includingRegex","expression":"("}]}]}`, "Invalid regular expression")
}

func TestMain(m *testing.M) { spectest.Main(m) }
