package docs

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/internal/nodetools"
	"github.com/gtmgate/gtmgate/registry"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const testDocsURL = "https://docs.test"

func newHandler(t testing.TB) http.Handler {
	t.Helper()
	run := func(context.Context, *gtmgate.Call) (any, error) { return nil, nil }
	reg := registry.MustNew(gtmgate.Tool{Name: "crm_deals", Domain: "crm", Title: "CRM deals", Description: "Deals in HubSpot.", Provider: "hubspot", Run: run,
		Actions: []gtmgate.Action{{Name: "list", Category: gtmgate.CategoryCRMRead, List: true}, {Name: "delete", Category: gtmgate.CategoryCRMWrite, Mutating: true, Destructive: true}}})
	h, err := New(Options{Tree: os.DirFS("testdata/tree"), DocsURL: testDocsURL, GatewayURL: "https://gw.test", Registry: reg})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func fetch(t testing.TB, h http.Handler, path string) (*http.Response, string) {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
	b, _ := io.ReadAll(rec.Result().Body)
	return rec.Result(), string(b)
}

func TestDocsEndpoints(t *testing.T) {
	h := newHandler(t)
	r, llms := fetch(t, h, "/llms.txt")
	if r.StatusCode != 200 || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/markdown") {
		t.Fatalf("llms.txt %d %s", r.StatusCode, r.Header.Get("Content-Type"))
	}
	links := regexp.MustCompile(`\]\((https://docs\.test[^)]*)\)`).FindAllStringSubmatch(llms, -1)
	for _, l := range links {
		if r, _ := fetch(t, h, strings.TrimPrefix(l[1], testDocsURL)); r.StatusCode != 200 {
			t.Errorf("%s: %d", l[1], r.StatusCode)
		}
	}
	for _, want := range []string{"/gateway/authentication.md): Bearer tokens and OAuth.", "/reference/tools/crm.md)", "/reference/tools.md)"} {
		if !strings.Contains(llms, want) {
			t.Errorf("llms.txt lacks %s:\n%s", want, llms)
		}
	}
	_, ref := fetch(t, h, "/reference/tools/crm.md")
	for _, want := range []string{"## crm_deals", "| `delete` | crm_write | yes | yes |", `"rationale"`, `"additionalProperties"`} {
		if !strings.Contains(ref, want) {
			t.Errorf("tool reference lacks %s", want)
		}
	}
	for _, p := range []string{"/sitemap.xml", "/llms-full.txt", "/robots.txt", "/", "/gateway"} {
		if r, _ := fetch(t, h, p); r.StatusCode != 200 {
			t.Errorf("%s: %d", p, r.StatusCode)
		}
	}
}

func TestSearchAPI(t *testing.T) {
	h := newHandler(t)
	tests := []struct {
		query  string
		status int
		first  string
	}{
		{"?q=tokens", 200, "/gateway/authentication"},
		{"?q=%22bearer+tokens%22&section=reference", 200, "/reference/tools/crm"},
		{"?q=crm_deals", 200, "/reference/tools/crm"},
		{"?q=oauth*", 200, "/gateway/authentication"},
		{"?q=", 400, ""},
		{"", 400, ""},
		{"?q=" + strings.Repeat("a", 257), 400, ""},
		{"?q=x&limit=0", 400, ""},
	}
	for _, tc := range tests {
		r, b := fetch(t, h, "/api/search"+tc.query)
		if r.StatusCode != tc.status || r.Header.Get("Content-Type") != "application/json" {
			t.Errorf("%s: %d %s", tc.query, r.StatusCode, r.Header.Get("Content-Type"))
			continue
		}
		if tc.status == 400 {
			var e struct {
				Error struct{ Code, Message string }
			}
			if json.Unmarshal([]byte(b), &e); e.Error.Code != "VALIDATION_ERROR" || e.Error.Message == "" {
				t.Errorf("%s: error body %s", tc.query, b)
			}
			continue
		}
		var res struct {
			Query   string
			Total   int
			Results []struct {
				Title, URL, Snippet, Section string
				Score                        float64
			}
		}
		if err := json.Unmarshal([]byte(b), &res); err != nil {
			t.Fatal(err)
		}
		first := ""
		if len(res.Results) > 0 {
			first = strings.TrimPrefix(res.Results[0].URL, testDocsURL)
			if res.Results[0].Score <= 0 || res.Results[0].Title == "" {
				t.Errorf("%s: hit %+v", tc.query, res.Results[0])
			}
		}
		if first != tc.first {
			t.Errorf("%s: first %q, want %q (%s)", tc.query, first, tc.first, b)
		}
	}
}

func TestDocsMCP(t *testing.T) {
	srv := httptest.NewServer(newHandler(t))
	defer srv.Close()
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: srv.URL + "/mcp"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "list_pages", Arguments: map[string]any{"section": "reference"}})
	if err != nil || res.IsError {
		t.Fatalf("list_pages: %v %+v", err, res)
	}
	if text := res.Content[0].(*mcp.TextContent).Text; !strings.Contains(text, "/reference/tools/crm") || strings.Contains(text, "/gateway/") {
		t.Errorf("list_pages reference: %s", text)
	}
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "search", Arguments: map[string]any{"query": "PKCE"}})
	if err != nil || res.IsError || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, "/gateway/authentication") {
		t.Fatalf("search: %v %+v", err, res)
	}
}

func TestConformance(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: starts Node")
	}
	srv := httptest.NewServer(newHandler(t))
	defer srv.Close()
	nodetools.Conformance(t, srv.URL+"/mcp", "server-initialize", "ping", "tools-list", "resources-list", "dns-rebinding-protection")
}

// TestMCPGetDescribesServer: GET /mcp for a page, markdown or JSON describes
// the server and how to connect (JSON: its server card); a GET for the event
// stream keeps the transport's 405.
func TestMCPGetDescribesServer(t *testing.T) {
	h := newHandler(t)
	get := func(accept string) (*http.Response, string) {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest("GET", "/mcp", nil)
		if accept != "" {
			req.Header.Set("Accept", accept)
		}
		h.ServeHTTP(rec, req)
		b, _ := io.ReadAll(rec.Result().Body)
		return rec.Result(), string(b)
	}
	tests := []struct {
		accept, status, contentType, contains string
	}{
		{"text/event-stream", "405", "", ""},
		{"application/json, text/event-stream", "405", "", ""},
		{"text/html,application/xhtml+xml,*/*;q=0.8", "200", "text/html", "<code>https://docs.test/mcp</code>"},
		{"", "200", "text/html", "tools/list"},
		{"text/markdown", "200", "text/markdown", "Connect an MCP client to `https://docs.test/mcp`"},
		{"application/json", "200", "application/json", `"url": "https://docs.test/mcp"`},
	}
	for _, tt := range tests {
		r, body := get(tt.accept)
		if got := strconv.Itoa(r.StatusCode); got != tt.status {
			t.Errorf("Accept %q: status %s, want %s", tt.accept, got, tt.status)
			continue
		}
		if tt.status != "200" {
			continue
		}
		if !strings.HasPrefix(r.Header.Get("Content-Type"), tt.contentType) || !strings.Contains(body, tt.contains) {
			t.Errorf("Accept %q: %s, want %s containing %q:\n%.600s", tt.accept, r.Header.Get("Content-Type"), tt.contentType, tt.contains, body)
		}
		if r.Header.Get("Content-Signal") == "" || !strings.Contains(r.Header.Get("Vary"), "Accept") {
			t.Errorf("Accept %q: headers %v", tt.accept, r.Header)
		}
	}
	_, card := get("application/json")
	var c struct {
		Schema  string `json:"$schema"`
		Name    string
		Remotes []struct{ Type, URL string }
	}
	if err := json.Unmarshal([]byte(card), &c); err != nil || c.Name != "gtmgate-docs" || len(c.Remotes) != 1 || c.Remotes[0].Type != "streamable-http" {
		t.Fatalf("server card %v: %s", err, card)
	}
}

// TestGatewayAPIMadeOnFirstRequest: the gateway's API description is asked
// of Options.GatewayAPI when first requested, not at load, and served as
// given.
func TestGatewayAPIMadeOnFirstRequest(t *testing.T) {
	doc := `{"openapi":"3.1.0","paths":{}}`
	calls := 0
	h, err := New(Options{Tree: os.DirFS("testdata/tree"), DocsURL: testDocsURL, GatewayURL: "https://gw.test",
		GatewayAPI: func() ([]byte, error) { calls++; return []byte(doc), nil }})
	if err != nil {
		t.Fatal(err)
	}
	if calls != 0 {
		t.Fatalf("GatewayAPI called %d times at load", calls)
	}
	for range 2 {
		if r, body := fetch(t, h, PathOpenAPI); r.StatusCode != 200 || body != doc || r.Header.Get("Content-Type") != "application/json" {
			t.Fatalf("GET %s: %d %q %v", PathOpenAPI, r.StatusCode, body, r.Header)
		}
	}
	if calls != 1 {
		t.Errorf("GatewayAPI called %d times, want once", calls)
	}
	if _, body := fetch(t, h, PathLLMS); !strings.Contains(body, PathOpenAPI) {
		t.Errorf("llms.txt does not name %s:\n%s", PathOpenAPI, body)
	}
}
