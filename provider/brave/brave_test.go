package brave

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/providertest"
	"github.com/gtmgate/gtmgate/provider/upstream"
)

// setup starts a sandbox and returns it with the tools wired to it. The
// client holds a call for less than the sandbox's one-second
// X-RateLimit-Reset, so a 429 is answered at once, with retry_after.
func setup(t *testing.T) (*Sandbox, map[string]gtmgate.Tool) {
	t.Helper()
	sb := NewSandbox()
	opts := Options(providertest.Serve(t, sb.ProviderSandbox))
	opts.Backoff = time.Millisecond
	opts.MaxRetryAfter = 500 * time.Millisecond
	tools := map[string]gtmgate.Tool{}
	for _, tool := range Tools(upstream.MustNew(opts)) {
		tools[tool.Name] = tool
	}
	return sb, tools
}

func run(t *testing.T, sb *Sandbox, tool gtmgate.Tool, token, input string) (map[string]any, error) {
	t.Helper()
	out, err := providertest.Run(t, tool, sb.Accounts[0], token, input)
	if err != nil {
		return nil, err
	}
	return out.(map[string]any), nil
}

func TestSearch(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, tool, input string
		wantURL           string
		wantCursor        string
	}{
		{"web by terms", "web_search", `{"rationale":"r","query":"pipeline stages"}`, "https://blog.pipelinecraft.io/pipeline-stages", ""},
		{"web with options", "web_search", `{"rationale":"r","query":"bigquery marketing","country":"US","search_lang":"en","freshness":"pm","safesearch":"strict"}`, "https://cloud.google.com/bigquery/docs/marketing-analytics", ""},
		{"web first page of many", "web_search", `{"rationale":"r","query":"b2b saas sales","limit":2}`, "", "1"},
		{"news", "news_search", `{"rationale":"r","query":"hubspot ai agents"}`, "https://www.techdaily.example/hubspot-ai-agents-crm", ""},
		{"no hits", "web_search", `{"rationale":"r","query":"zzzqqq"}`, "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			sb, tools := setup(t)
			out, err := run(t, sb, tools[tc.tool], SandboxToken, tc.input)
			if err != nil {
				t.Fatalf("run: %v", err)
			}
			items := out["items"].([]any)
			if tc.wantURL != "" {
				first := items[0].(map[string]any)
				if first["url"] != tc.wantURL || first["source"] == "" || first["title"] == "" || first["age"] == "" {
					t.Errorf("first item = %v, want url %s with title, source and age", first, tc.wantURL)
				}
			}
			if got, _ := out["next_cursor"].(string); got != tc.wantCursor {
				t.Errorf("next_cursor = %q, want %q", got, tc.wantCursor)
			}
		})
	}
}

func TestPaging(t *testing.T) {
	t.Parallel()
	sb, tools := setup(t)
	pages, seen := pageThrough(t, sb, tools["web_search"], "b2b saas sales marketing", 3, nil)
	if pages < 2 || len(seen) < 4 {
		t.Errorf("pages = %d, distinct results = %d; want several pages", pages, len(seen))
	}
}

// pageThrough follows a search's next_cursor to its end, failing on a
// result seen twice; check, when set, sees each page. It returns the pages
// read and the distinct result URLs.
func pageThrough(t *testing.T, sb *Sandbox, tool gtmgate.Tool, query string, limit int,
	check func(page int, items []any, cursor string)) (int, map[string]bool) {
	t.Helper()
	seen := map[string]bool{}
	cursor, pages := "", 0
	for {
		in := fmt.Sprintf(`{"rationale":"r","query":%q,"limit":%d`, query, limit)
		if cursor != "" {
			in += `,"cursor":"` + cursor + `"`
		}
		out, err := run(t, sb, tool, SandboxToken, in+"}")
		if err != nil {
			t.Fatalf("page %d: %v", pages, err)
		}
		items := out["items"].([]any)
		for _, it := range items {
			u := it.(map[string]any)["url"].(string)
			if seen[u] {
				t.Fatalf("page %d repeats %s", pages, u)
			}
			seen[u] = true
		}
		pages++
		cursor, _ = out["next_cursor"].(string)
		if check != nil {
			check(pages, items, cursor)
		}
		if cursor == "" {
			return pages, seen
		}
	}
}

func TestErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		fail, times int
		token       string
		input       string
		wantCode    string
		wantStatus  int
		wantMessage string
	}{
		{"bad static token", 0, 0, "wrong-token-123456", `{"rationale":"r","query":"crm"}`, gtmgate.EReauthRequired, 0, "no OAuth refresh"},
		{"validation 422", http.StatusUnprocessableEntity, 1, SandboxToken, `{"rationale":"r","query":"crm"}`, gtmgate.EUpstream, 422, "Injected fault"},
		{"rate limited twice", http.StatusTooManyRequests, 2, SandboxToken, `{"rationale":"r","query":"crm"}`, gtmgate.ERateLimited, 429, "rate-limited"},
		{"server error twice", http.StatusInternalServerError, 2, SandboxToken, `{"rationale":"r","query":"crm"}`, gtmgate.EUpstream, 500, "HTTP 500"},
		{"bad cursor", 0, 0, SandboxToken, `{"rationale":"r","query":"crm","cursor":"x"}`, gtmgate.EValidation, 0, "cursor"},
		{"limit over Brave's cap", 0, 0, SandboxToken, `{"rationale":"r","query":"crm","limit":21}`, gtmgate.EValidation, 0, "limit"},
		{"query required", 0, 0, SandboxToken, `{"rationale":"r"}`, gtmgate.EValidation, 0, "query"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			sb, tools := setup(t)
			if tc.fail != 0 {
				sb.FailNext(tc.fail, tc.times)
			}
			_, err := run(t, sb, tools["web_search"], tc.token, tc.input)
			var e *gtmgate.Error
			if !errors.As(err, &e) || e.Code != tc.wantCode {
				t.Fatalf("err = %v, want code %s", err, tc.wantCode)
			}
			if !strings.Contains(e.Message, tc.wantMessage) {
				t.Errorf("message = %q, want it to contain %q", e.Message, tc.wantMessage)
			}
			if tc.wantStatus == 0 {
				return
			}
			d, ok := e.Detail.(gtmgate.UpstreamDetail)
			if !ok || d.Status != tc.wantStatus || d.Provider != Provider {
				t.Fatalf("detail = %#v, want status %d", e.Detail, tc.wantStatus)
			}
			if strings.Contains(d.Body, tc.token) || strings.Contains(e.Message, tc.token) {
				t.Errorf("token leaked into error: %q / %q", e.Message, d.Body)
			}
		})
	}
}

func TestBadTokenIsUpstream401(t *testing.T) {
	t.Parallel()
	sb, tools := setup(t)
	const bad = "bad-subscription-token-42"
	_, err := runWithSource(t, tools["web_search"], sb.Accounts[0], refreshedBadToken(bad), `{"rationale":"r","query":"crm"}`)
	var e *gtmgate.Error
	if !errors.As(err, &e) || e.Code != gtmgate.EUpstream {
		t.Fatalf("err = %v, want UPSTREAM_ERROR", err)
	}
	d, _ := e.Detail.(gtmgate.UpstreamDetail)
	if d.Status != http.StatusUnauthorized || !strings.Contains(d.Body, "SUBSCRIPTION_TOKEN_INVALID") {
		t.Errorf("detail = %#v, want status 401 with Brave's body", d)
	}
	if !strings.Contains(e.Message, "subscription token is invalid") {
		t.Errorf("message = %q, want Brave's detail", e.Message)
	}
	if strings.Contains(d.Body+e.Message, bad) {
		t.Errorf("token leaked: %q %q", e.Message, d.Body)
	}
}

func TestReadRetriedOnceAfter500(t *testing.T) {
	t.Parallel()
	sb, tools := setup(t)
	sb.FailNext(http.StatusInternalServerError, 1)
	out, err := run(t, sb, tools["news_search"], SandboxToken, `{"rationale":"r","query":"gmail bulk sender"}`)
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	if len(out["items"].([]any)) == 0 {
		t.Error("no items after retry")
	}
}
