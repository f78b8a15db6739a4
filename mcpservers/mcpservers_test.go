package mcpservers_test

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/admin/admintest"
	"github.com/gtmgate/gtmgate/egress"
	"github.com/gtmgate/gtmgate/federation"
	"github.com/gtmgate/gtmgate/mcpservers"
	"github.com/gtmgate/gtmgate/mcpupstream"
	"github.com/gtmgate/gtmgate/store/storetest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const adminKey = "mcpservers-test-admin-key-0123456789"

// upstream answers tools/list per server URL: tools, or an error.
type upstream struct {
	mu     sync.Mutex
	tools  map[string][]*mcp.Tool
	fail   map[string]error
	auths  []gtmgate.MCPServerAuth // the auth of each listing, to see the secret reach the upstream
	forgot []string
}

func (u *upstream) ListTools(_ context.Context, s *gtmgate.MCPServer) ([]*mcp.Tool, error) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.auths = append(u.auths, s.Auth)
	if err := u.fail[s.URL]; err != nil {
		return nil, err
	}
	return u.tools[s.URL], nil
}

func (u *upstream) CallTool(context.Context, *gtmgate.MCPServer, string, json.RawMessage, bool, func(*mcp.ProgressNotificationParams)) (*mcp.CallToolResult, error) {
	return nil, errors.New("not in these tests")
}

func (u *upstream) Forget(tenantID, name string) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.forgot = append(u.forgot, tenantID+"/"+name)
}

func (u *upstream) lastAuth() gtmgate.MCPServerAuth {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.auths[len(u.auths)-1]
}

type env struct {
	t     *testing.T
	url   string
	audit *storetest.AuditRecorder
	// fedAudit is what the catalogue itself audits (changes a listing finds).
	fedAudit *storetest.AuditRecorder
	store    gtmgate.Store
	up       *upstream
	logs     *strings.Builder
}

var readOnly = &mcp.ToolAnnotations{ReadOnlyHint: true}

// start serves the real admin API with these routes mounted, over tenants
// acme and beta, and an upstream at https://mcp.example.com/mcp with three
// tools: one read-only, one whose input cannot be served, one mutating.
func start(t *testing.T) *env {
	t.Helper()
	st := storetest.TenantWithToken(t)
	if _, err := st.PutTenant(t.Context(), &gtmgate.Tenant{ID: "beta", Name: "Beta", Status: gtmgate.TenantActive}); err != nil {
		t.Fatal(err)
	}
	up := &upstream{fail: map[string]error{}, tools: map[string][]*mcp.Tool{
		"https://mcp.example.com/mcp": {
			{Name: "search", Description: "Search messages", Annotations: readOnly,
				InputSchema: map[string]any{"type": "object", "properties": map[string]any{"q": map[string]any{"type": "string"}}}},
			{Name: "odd", Description: "Takes a rationale of its own",
				InputSchema: map[string]any{"type": "object", "properties": map[string]any{"rationale": map[string]any{"type": "string"}}}},
			{Name: "post_message", Description: "Post a message",
				InputSchema: map[string]any{"type": "object", "properties": map[string]any{"text": map[string]any{"type": "string"}}}},
		},
	}}
	logs := &strings.Builder{}
	var logMu sync.Mutex
	logger := slog.New(slog.NewTextHandler(writerFunc(func(p []byte) (int, error) {
		logMu.Lock()
		defer logMu.Unlock()
		return logs.Write(p)
	}), &slog.HandlerOptions{Level: slog.LevelDebug}))
	fedAudit := &storetest.AuditRecorder{}
	cat := federation.New(federation.Options{Store: st, Upstream: up, Logger: logger, Recorder: fedAudit})
	api := mcpservers.New(mcpservers.Options{Store: st, Catalog: cat, Logger: logger,
		AllowedRanges: []netip.Prefix{netip.MustParsePrefix("10.20.0.0/16")}})
	h, rec := admintest.Handler(st, api.Mount)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return &env{t: t, url: srv.URL, audit: rec, fedAudit: fedAudit, store: st, up: up, logs: logs}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

func (e *env) do(method, path, body string) admintest.Answer {
	e.t.Helper()
	a := admintest.Do(e.t, e.url, method, path, body)
	return a
}

func viewOf(t *testing.T, a admintest.Answer) mcpservers.View {
	t.Helper()
	var v mcpservers.View
	if err := json.Unmarshal([]byte(a.Body), &v); err != nil || v.Name == "" {
		t.Fatalf("answer is not a server: %v: %d %s", err, a.Status, a.Body)
	}
	return v
}

const slack = "/admin/tenants/acme/mcp-servers/slack"

// TestMCPServerLifecycle: PUT creates (201) and lists the tools at once,
// GET and the list show them served, refused or left out by the
// allow-list; a replace keeps the secret; DELETE answers 204 and forgets.
func TestMCPServerLifecycle(t *testing.T) {
	e := start(t)
	a := e.do("PUT", slack, `{"url":"https://mcp.example.com/mcp","auth":{"kind":"bearer","token":"xoxb-very-secret"},
		"tools":["search","odd"],"overrides":{"search":{"category":"search_query"}}}`)
	if a.Status != http.StatusCreated {
		t.Fatalf("create: %d %s", a.Status, a.Body)
	}
	v := viewOf(t, a)
	if v.TenantID != "acme" || v.Auth.Kind != "bearer" || !v.Auth.SecretSet || !v.State.Reachable || v.State.ToolsRefreshedAt == nil ||
		v.State.CheckedAt == nil || len(v.ServedTools) != 3 || strings.Contains(a.Body, "xoxb") {
		t.Fatalf("created view: %s", a.Body)
	}
	if got := e.up.lastAuth(); got.Secret != "xoxb-very-secret" {
		t.Fatalf("the upstream was listed with auth %+v", got)
	}
	byName := map[string]federation.ToolView{}
	for _, tv := range v.ServedTools {
		byName[tv.Upstream] = tv
	}
	if s := byName["search"]; !s.Served || s.Name != "slack__search" || s.Category != gtmgate.CategorySearchQuery || s.Mutating {
		t.Errorf("search: %+v", s)
	}
	if o := byName["odd"]; o.Served || !strings.Contains(o.Refused, "rationale") {
		t.Errorf("odd: %+v", o)
	}
	if p := byName["post_message"]; p.Served || p.Refused != "" || !p.Mutating {
		t.Errorf("post_message (not in the allow-list): %+v", p)
	}
	if strings.Contains(a.Body, `"tools":[{`) || strings.Contains(a.Body, "inputSchema") {
		t.Errorf("the raw tool list is shown: %s", a.Body)
	}

	// A replace without the token keeps it, the allow-list now empty (all).
	a = e.do("PUT", slack, `{"url":"https://mcp.example.com/mcp","auth":{"kind":"bearer"}}`)
	if a.Status != http.StatusOK {
		t.Fatalf("replace: %d %s", a.Status, a.Body)
	}
	v = viewOf(t, a)
	if !v.Auth.SecretSet || len(v.Tools) != 0 || v.CreatedAt.IsZero() || !v.UpdatedAt.After(v.CreatedAt) && !v.UpdatedAt.Equal(v.CreatedAt) {
		t.Fatalf("replaced view: %s", a.Body)
	}
	if got := e.up.lastAuth(); got.Secret != "xoxb-very-secret" {
		t.Fatalf("after a replace the upstream was listed with auth %+v", got)
	}
	served := 0
	for _, tv := range v.ServedTools {
		if tv.Served {
			served++
		}
	}
	if served != 2 {
		t.Fatalf("with every tool allowed, %d served: %s", served, a.Body)
	}

	a = e.do("GET", slack, "")
	var found mcpservers.Found
	if err := json.Unmarshal([]byte(a.Body), &found); a.Status != 200 || err != nil || found.Server.Name != "slack" || len(found.Server.ServedTools) != 3 {
		t.Fatalf("get: %d %s", a.Status, a.Body)
	}
	a = e.do("GET", "/admin/tenants/acme/mcp-servers", "")
	var list mcpservers.List
	if err := json.Unmarshal([]byte(a.Body), &list); a.Status != 200 || err != nil || len(list.Servers) != 1 || list.Servers[0].Name != "slack" {
		t.Fatalf("list: %d %s", a.Status, a.Body)
	}

	a = e.do("DELETE", slack, "")
	if a.Status != http.StatusNoContent || a.Body != "" {
		t.Fatalf("delete: %d %q", a.Status, a.Body)
	}
	if a = e.do("GET", slack, ""); a.Status != 404 {
		t.Fatalf("get after delete: %d %s", a.Status, a.Body)
	}
	if code, msg := a.Error(t); code != gtmgate.ENotFound || !strings.Contains(msg, "slack") {
		t.Fatalf("get after delete: %s %s", code, msg)
	}
	if a = e.do("DELETE", slack, ""); a.Status != 404 {
		t.Fatalf("delete again: %d %s", a.Status, a.Body)
	}
	if !strings.Contains(strings.Join(e.up.forgot, ","), "acme/slack") {
		t.Errorf("the upstream session was never forgotten: %v", e.up.forgot)
	}

	// The audit names what changed, never the secret.
	var details []string
	for _, en := range e.audit.Entries() {
		details = append(details, en.Action+": "+en.Detail)
		if strings.Contains(en.Detail, "xoxb") {
			t.Errorf("audit detail holds the secret: %s", en.Detail)
		}
	}
	joined := strings.Join(details, "\n")
	for _, want := range []string{"tenants.mcp-servers.put: MCP server slack created, host mcp.example.com, auth bearer; 3 tools listed, 1 served",
		"MCP server slack replaced, secret kept", "tenants.mcp-servers.delete: MCP server slack deleted"} {
		if !strings.Contains(joined, want) {
			t.Errorf("audit lacks %q:\n%s", want, joined)
		}
	}
	if strings.Contains(e.logs.String(), "xoxb") {
		t.Errorf("logs hold the secret:\n%s", e.logs.String())
	}
}

// TestMCPServerUnreachable: a PUT whose upstream cannot be listed is saved
// (201) with the failure in its state; refresh answers 200 the same way,
// and once the upstream answers, it is reachable again.
func TestMCPServerUnreachable(t *testing.T) {
	e := start(t)
	e.up.fail["https://down.example.com/mcp"] = gtmgate.Errorf(gtmgate.EUpstream, "upstream MCP server answered 503")
	a := e.do("PUT", "/admin/tenants/acme/mcp-servers/down", `{"url":"https://down.example.com/mcp"}`)
	if a.Status != http.StatusCreated {
		t.Fatalf("create: %d %s", a.Status, a.Body)
	}
	v := viewOf(t, a)
	if v.State.Reachable || !strings.Contains(v.State.Error, "503") || v.State.CheckedAt == nil || v.State.ToolsRefreshedAt != nil ||
		v.Auth.Kind != "none" || v.Auth.SecretSet || len(v.ServedTools) != 0 {
		t.Fatalf("unreachable view: %s", a.Body)
	}
	a = e.do("POST", "/admin/tenants/acme/mcp-servers/down/refresh", "")
	if a.Status != 200 || viewOf(t, a).State.Reachable {
		t.Fatalf("refresh of an unreachable server: %d %s", a.Status, a.Body)
	}
	delete(e.up.fail, "https://down.example.com/mcp")
	e.up.tools["https://down.example.com/mcp"] = []*mcp.Tool{{Name: "ping", Annotations: readOnly, InputSchema: map[string]any{"type": "object"}}}
	a = e.do("POST", "/admin/tenants/acme/mcp-servers/down/refresh", "")
	// The PUT listed nothing, so nothing was accepted: the tool a refresh
	// finds waits for a person's acceptance before it is served.
	if v := viewOf(t, a); a.Status != 200 || !v.State.Reachable || v.State.Error != "" || len(v.ServedTools) != 1 || v.ServedTools[0].Served ||
		v.ChangesWaiting != 1 {
		t.Fatalf("refresh once up: %d %s", a.Status, a.Body)
	}
	a = e.do("POST", "/admin/tenants/acme/mcp-servers/down/changes/accept", `{"all":true}`)
	var acc mcpservers.AcceptAnswer
	if err := json.Unmarshal([]byte(a.Body), &acc); err != nil || a.Status != 200 || len(acc.Server.ServedTools) != 1 || !acc.Server.ServedTools[0].Served {
		t.Fatalf("accept once up: %d %s", a.Status, a.Body)
	}
	// Down again: the failure shows at once, on refresh, GET and the list,
	// and the last good tools stay served.
	e.up.fail["https://down.example.com/mcp"] = gtmgate.Errorf(gtmgate.EUpstream, "upstream MCP server answered 502")
	a = e.do("POST", "/admin/tenants/acme/mcp-servers/down/refresh", "")
	if v := viewOf(t, a); a.Status != 200 || v.State.Reachable || !strings.Contains(v.State.Error, "502") || len(v.ServedTools) != 1 || !v.ServedTools[0].Served {
		t.Fatalf("refresh once down again: %d %s", a.Status, a.Body)
	}
	a = e.do("GET", "/admin/tenants/acme/mcp-servers/down", "")
	var found mcpservers.Found
	if err := json.Unmarshal([]byte(a.Body), &found); err != nil || found.Server.State.Reachable || !strings.Contains(found.Server.State.Error, "502") {
		t.Fatalf("GET once down again: %d %s", a.Status, a.Body)
	}
	a = e.do("GET", "/admin/tenants/acme/mcp-servers", "")
	var list mcpservers.List
	if err := json.Unmarshal([]byte(a.Body), &list); err != nil || len(list.Servers) != 1 || list.Servers[0].State.Reachable || len(list.Servers[0].ServedTools) != 1 {
		t.Fatalf("list once down again: %d %s", a.Status, a.Body)
	}
	if a = e.do("POST", "/admin/tenants/acme/mcp-servers/nope/refresh", ""); a.Status != 404 {
		t.Fatalf("refresh of no server: %d %s", a.Status, a.Body)
	}
	var details []string
	for _, en := range e.audit.Entries() {
		details = append(details, en.Detail)
	}
	if joined := strings.Join(details, "\n"); !strings.Contains(joined, "tool listing failed (UPSTREAM_ERROR), the last good list kept") ||
		!strings.Contains(joined, "MCP server down: 1 tools listed, 0 served") ||
		!strings.Contains(joined, "MCP server down: 1 tool changes accepted: ping new ") {
		t.Errorf("audit details:\n%s", joined)
	}
}

// TestMCPServerTenants: an unknown tenant gets TENANT_NOT_FOUND on every
// route, and one tenant's servers never show under another.
func TestMCPServerTenants(t *testing.T) {
	e := start(t)
	if a := e.do("PUT", slack, `{"url":"https://mcp.example.com/mcp","auth":{"kind":"header","header":"X-Api-Key","value":"k-123456"}}`); a.Status != 201 {
		t.Fatalf("create: %d %s", a.Status, a.Body)
	}
	for _, r := range []struct{ method, path, body string }{
		{"GET", "/admin/tenants/ghost/mcp-servers", ""},
		{"GET", "/admin/tenants/ghost/mcp-servers/slack", ""},
		{"PUT", "/admin/tenants/ghost/mcp-servers/slack", `{"url":"https://mcp.example.com/mcp"}`},
		{"DELETE", "/admin/tenants/ghost/mcp-servers/slack", ""},
		{"POST", "/admin/tenants/ghost/mcp-servers/slack/refresh", ""},
	} {
		a := e.do(r.method, r.path, r.body)
		if code, _ := a.Error(t); a.Status != 404 || code != gtmgate.ETenantNotFound {
			t.Errorf("%s %s: %d %s", r.method, r.path, a.Status, a.Body)
		}
	}
	a := e.do("GET", "/admin/tenants/beta/mcp-servers", "")
	if a.Status != 200 || strings.TrimSpace(a.Body) != `{"servers":[]}` {
		t.Fatalf("beta's list: %d %s", a.Status, a.Body)
	}
	for _, r := range []struct{ method, path string }{
		{"GET", "/admin/tenants/beta/mcp-servers/slack"},
		{"POST", "/admin/tenants/beta/mcp-servers/slack/refresh"},
		{"DELETE", "/admin/tenants/beta/mcp-servers/slack"},
	} {
		if a := e.do(r.method, r.path, ""); a.Status != 404 {
			t.Errorf("%s %s: %d %s", r.method, r.path, a.Status, a.Body)
		}
	}
	if a := e.do("GET", slack, ""); a.Status != 200 {
		t.Fatalf("acme's server after beta's delete: %d %s", a.Status, a.Body)
	}
	// beta may use the same name and URL with its own credential.
	if a := e.do("PUT", "/admin/tenants/beta/mcp-servers/slack", `{"url":"https://mcp.example.com/mcp","auth":{"kind":"bearer","token":"beta-token"}}`); a.Status != 201 {
		t.Fatalf("beta's own slack: %d %s", a.Status, a.Body)
	}
	if got := e.up.lastAuth(); got.Secret != "beta-token" {
		t.Fatalf("beta's server listed with %+v", got)
	}
	if s, _ := e.store.GetMCPServer(t.Context(), "acme", "slack"); s.Auth.Secret != "k-123456" || s.Auth.Header != "X-Api-Key" {
		t.Fatalf("acme's server changed: %+v", s.Auth)
	}
}

// TestMCPServerValidation: each refusal is a VALIDATION_ERROR naming the
// field, never quoting a secret.
func TestMCPServerValidation(t *testing.T) {
	e := start(t)
	long := strings.Repeat("x", 4097)
	cases := []struct{ name, path, body, want string }{
		{"underscore in name", "/admin/tenants/acme/mcp-servers/my__server", `{"url":"https://a.example.com"}`, "cannot hold '_'"},
		{"upper case name", "/admin/tenants/acme/mcp-servers/Slack", `{"url":"https://a.example.com"}`, "lowercase"},
		{"name too long", "/admin/tenants/acme/mcp-servers/" + strings.Repeat("a", 33), `{"url":"https://a.example.com"}`, "1 to 32"},
		{"trailing dash", "/admin/tenants/acme/mcp-servers/slack-", `{"url":"https://a.example.com"}`, "server name"},
		{"no url", slack, `{}`, "url is required"},
		{"unknown field", slack, `{"url":"https://a.example.com","secret":"s3cr3t-value"}`, "unknown field"},
		{"relative url", slack, `{"url":"/mcp"}`, "absolute"},
		{"ftp url", slack, `{"url":"ftp://a.example.com/mcp"}`, "http or https"},
		{"user info", slack, `{"url":"https://user:pw-secret@a.example.com/mcp"}`, "user name or password"},
		{"fragment", slack, `{"url":"https://a.example.com/mcp#x"}`, "fragment"},
		{"plain http", slack, `{"url":"http://a.example.com/mcp"}`, "must use https"},
		{"plain http to a private IP not allowed", slack, `{"url":"http://10.1.2.3/mcp"}`, "must use https"},
		{"private IP not allowed", slack, `{"url":"https://192.168.1.9/mcp"}`, "not allowed"},
		{"unknown kind", slack, `{"url":"https://a.example.com","auth":{"kind":"basic"}}`, "auth.kind"},
		{"oauth secret without client", slack, `{"url":"https://a.example.com","auth":{"kind":"oauth","client_secret":"cs-secret"}}`, "auth.client_secret needs auth.client_id"},
		{"oauth token url", slack, `{"url":"https://a.example.com","auth":{"kind":"oauth","token_url":"https://id.example.com/token"}}`, "auth.token_url does not belong"},
		{"oauth bad scope", slack, `{"url":"https://a.example.com","auth":{"kind":"oauth","scopes":["a\"b"]}}`, "auth.scopes[0]"},
		{"oauth bad grant", slack, `{"url":"https://a.example.com","auth":{"kind":"oauth","grant":"team"}}`, "auth.grant \"team\" is not one of tenant, person"},
		{"grant without oauth", slack, `{"url":"https://a.example.com","auth":{"kind":"bearer","token":"tk-secret","grant":"person"}}`, "auth.grant does not belong"},
		{"oauth bad client registration", slack, `{"url":"https://a.example.com","auth":{"kind":"oauth","client_registration":"manual"}}`,
			"auth.client_registration \"manual\" is not one of auto, metadata_document, dynamic"},
		{"client registration with a static client", slack, `{"url":"https://a.example.com","auth":{"kind":"oauth","client_id":"cid","client_registration":"dynamic"}}`,
			"auth.client_registration dynamic needs no auth.client_id"},
		{"client registration without oauth", slack, `{"url":"https://a.example.com","auth":{"kind":"none","client_registration":"dynamic"}}`,
			"auth.client_registration does not belong"},
		{"bearer without token", slack, `{"url":"https://a.example.com","auth":{"kind":"bearer"}}`, "auth.token is required"},
		{"token for header kind", slack, `{"url":"https://a.example.com","auth":{"kind":"header","header":"X-K","token":"tok-secret"}}`, "auth.token does not belong"},
		{"header without name", slack, `{"url":"https://a.example.com","auth":{"kind":"header","value":"v-secret"}}`, "auth.header is required"},
		{"bad header name", slack, `{"url":"https://a.example.com","auth":{"kind":"header","header":"X Key","value":"v-secret"}}`, "not an HTTP header name"},
		{"reserved header", slack, `{"url":"https://a.example.com","auth":{"kind":"header","header":"Mcp-Session-Id","value":"v-secret"}}`, "set by the MCP client"},
		{"control in secret", slack, `{"url":"https://a.example.com","auth":{"kind":"bearer","token":"abc\r\nX-Evil: 1"}}`, "control characters"},
		{"secret too long", slack, `{"url":"https://a.example.com","auth":{"kind":"bearer","token":"` + long + `"}}`, "longer than 4096"},
		{"cc without token url", slack, `{"url":"https://a.example.com","auth":{"kind":"client_credentials","client_id":"c","client_secret":"cs-secret"}}`, "auth.token_url is required"},
		{"cc http token url", slack, `{"url":"https://a.example.com","auth":{"kind":"client_credentials","token_url":"http://id.example.com/token","client_id":"c","client_secret":"cs-secret"}}`, "auth.token_url must use https"},
		{"cc without client id", slack, `{"url":"https://a.example.com","auth":{"kind":"client_credentials","token_url":"https://id.example.com/token","client_secret":"cs-secret"}}`, "auth.client_id is required"},
		{"cc bad scope", slack, `{"url":"https://a.example.com","auth":{"kind":"client_credentials","token_url":"https://id.example.com/token","client_id":"c","client_secret":"cs-secret","scopes":["a b"]}}`, "auth.scopes[0]"},
		{"empty tool name", slack, `{"url":"https://a.example.com","tools":["a",""]}`, "tools[1]"},
		{"long tool name", slack, `{"url":"https://a.example.com","tools":["` + strings.Repeat("t", 129) + `"]}`, "tools[0]"},
		{"bad category", slack, `{"url":"https://a.example.com","overrides":{"search":{"category":"gossip"}}}`, `overrides["search"].category "gossip" is not one of crm_read`},
		{"empty override name", slack, `{"url":"https://a.example.com","overrides":{"":{"mutating":true}}}`, "overrides key"},
		{"destructive read", slack, `{"url":"https://a.example.com","overrides":{"search":{"mutating":false,"destructive":true}}}`, "cannot be destructive"},
	}
	for _, c := range cases {
		a := e.do("PUT", c.path, c.body)
		code, msg := a.Error(t)
		if a.Status != 400 || code != gtmgate.EValidation || !strings.Contains(msg, c.want) {
			t.Errorf("%s: %d %s %q, want %q", c.name, a.Status, code, msg, c.want)
		}
		if strings.Contains(a.Body, "-secret") || strings.Contains(a.Body, "X-Evil") || strings.Contains(a.Body, long[:64]) {
			t.Errorf("%s: the answer quotes a secret: %s", c.name, a.Body)
		}
	}
	if a := e.do("GET", "/admin/tenants/acme/mcp-servers", ""); !strings.Contains(a.Body, `"servers":[]`) {
		t.Fatalf("a refused PUT stored something: %s", a.Body)
	}
}

// TestMCPServerPlainHTTP: http is accepted for loopback and the operator's
// allowed ranges.
func TestMCPServerPlainHTTP(t *testing.T) {
	e := start(t)
	for i, u := range []string{"http://127.0.0.1:9999/mcp", "http://localhost:8080/mcp", "http://[::1]:1/mcp", "http://10.20.3.4/mcp", "https://10.20.3.4/mcp"} {
		name := "s" + string(rune('a'+i))
		if a := e.do("PUT", "/admin/tenants/acme/mcp-servers/"+name, `{"url":"`+u+`"}`); a.Status != 201 {
			t.Errorf("%s: %d %s", u, a.Status, a.Body)
		}
	}
}

// TestMCPServerSecretKept: a replace keeps the stored secret only for the
// same kind and origin.
func TestMCPServerSecretKept(t *testing.T) {
	e := start(t)
	put := func(body string) admintest.Answer { return e.do("PUT", slack, body) }
	if a := put(`{"url":"https://mcp.example.com/mcp","auth":{"kind":"client_credentials","token_url":"https://id.example.com/token","client_id":"c1","client_secret":"cs-1","scopes":["read","read","write"]}}`); a.Status != 201 {
		t.Fatalf("create: %d %s", a.Status, a.Body)
	} else if v := viewOf(t, a); v.Auth.ClientID != "c1" || len(v.Auth.Scopes) != 2 || v.Auth.TokenURL != "https://id.example.com/token" || !v.Auth.SecretSet {
		t.Fatalf("created auth: %s", a.Body)
	}
	// Same kind, same token endpoint: kept.
	if a := put(`{"url":"https://mcp.example.com/other","auth":{"kind":"client_credentials","token_url":"https://id.example.com/token2","client_id":"c2"}}`); a.Status != 200 {
		t.Fatalf("replace keeping the secret: %d %s", a.Status, a.Body)
	}
	if s, _ := e.store.GetMCPServer(t.Context(), "acme", "slack"); s.Auth.Secret != "cs-1" || s.Auth.ClientID != "c2" {
		t.Fatalf("stored auth %+v", s.Auth)
	}
	// Another token endpoint origin: the secret must come again.
	a := put(`{"url":"https://mcp.example.com/mcp","auth":{"kind":"client_credentials","token_url":"https://evil.example.net/token","client_id":"c2"}}`)
	if code, msg := a.Error(t); a.Status != 400 || code != gtmgate.EValidation || !strings.Contains(msg, "auth.client_secret is required") {
		t.Fatalf("another origin: %d %s", a.Status, a.Body)
	}
	// Another kind: no secret to keep.
	a = put(`{"url":"https://mcp.example.com/mcp","auth":{"kind":"bearer"}}`)
	if _, msg := a.Error(t); a.Status != 400 || !strings.Contains(msg, "auth.token is required") {
		t.Fatalf("another kind: %d %s", a.Status, a.Body)
	}
	// Switching to none drops the secret.
	if a := put(`{"url":"https://mcp.example.com/mcp"}`); a.Status != 200 || viewOf(t, a).Auth.SecretSet {
		t.Fatalf("to none: %d %s", a.Status, a.Body)
	}
	if s, _ := e.store.GetMCPServer(t.Context(), "acme", "slack"); s.Auth.Secret != "" {
		t.Fatalf("the secret outlived kind none: %+v", s.Auth)
	}
}

// TestMCPServerLimit: a tenant holds at most MaxServers; a replace still works.
func TestMCPServerLimit(t *testing.T) {
	e := start(t)
	for i := range mcpservers.MaxServers {
		s := gtmgate.MCPServer{TenantID: "acme", Name: "s" + strings.Repeat("x", i%5) + string(rune('a'+i%26)) + string(rune('a'+i/26)), URL: "https://a.example.com"}
		if _, err := e.store.PutMCPServer(t.Context(), &s); err != nil {
			t.Fatal(err)
		}
	}
	a := e.do("PUT", slack, `{"url":"https://mcp.example.com/mcp"}`)
	if code, msg := a.Error(t); a.Status != 400 || code != gtmgate.EValidation || !strings.Contains(msg, "64 MCP servers") {
		t.Fatalf("the 65th: %d %s", a.Status, a.Body)
	}
	if a := e.do("PUT", "/admin/tenants/acme/mcp-servers/saa", `{"url":"https://mcp.example.com/mcp"}`); a.Status != 200 {
		t.Fatalf("a replace at the limit: %d %s", a.Status, a.Body)
	}
	if a := e.do("PUT", "/admin/tenants/beta/mcp-servers/slack", `{"url":"https://mcp.example.com/mcp"}`); a.Status != 201 {
		t.Fatalf("another tenant at acme's limit: %d %s", a.Status, a.Body)
	}
}

// TestMCPServerHealth: the health source lists every tenant's servers with
// the host of the URL only and the served tool count.
func TestMCPServerHealth(t *testing.T) {
	e := start(t)
	e.up.fail["https://down.example.com/mcp?key=k-secret"] = gtmgate.Errorf(gtmgate.EUpstream, "upstream MCP server answered 503")
	for _, r := range []struct{ path, body string }{
		{slack, `{"url":"https://mcp.example.com/mcp"}`},
		{"/admin/tenants/beta/mcp-servers/down", `{"url":"https://down.example.com/mcp?key=k-secret"}`},
	} {
		if a := e.do("PUT", r.path, r.body); a.Status != 201 {
			t.Fatalf("PUT %s: %d %s", r.path, a.Status, a.Body)
		}
	}
	list, err := mcpservers.Health(e.store, federation.New(federation.Options{Store: e.store, Upstream: e.up}))(t.Context())
	if err != nil || len(list) != 2 {
		t.Fatalf("health: %v %+v", err, list)
	}
	byName := map[string]int{}
	for i, s := range list {
		byName[s.TenantID+"/"+s.Name] = i
	}
	up, down := list[byName["acme/slack"]], list[byName["beta/down"]]
	if !up.Reachable || up.Host != "mcp.example.com" || up.ServedTools != 2 || up.CheckedAt == nil || up.ToolsRefreshedAt == nil {
		t.Errorf("acme/slack: %+v", up)
	}
	if down.Reachable || down.Host != "down.example.com" || down.ServedTools != 0 || !strings.Contains(down.Error, "503") || down.CheckedAt == nil {
		t.Errorf("beta/down: %+v", down)
	}
}

func testResultOf(t *testing.T, a admintest.Answer) mcpservers.TestResult {
	t.Helper()
	var v mcpservers.TestResult
	if err := json.Unmarshal([]byte(a.Body), &v); err != nil || v.Name == "" {
		t.Fatalf("answer is not a test result: %v: %d %s", err, a.Status, a.Body)
	}
	return v
}

// TestMCPServerTest: POST …/test lists the tools of PUT's body as the
// server's view would show them, stores nothing, keeps a left-out secret
// under PUT's rules, answers 200 with a readable error when the upstream
// cannot be reached, and never shows a secret.
func TestMCPServerTest(t *testing.T) {
	e := start(t)
	test := func(name, body string) admintest.Answer {
		return e.do("POST", "/admin/tenants/acme/mcp-servers/"+name+"/test", body)
	}

	// A new server: the tools as the allow-list and overrides make them.
	a := test("slack", `{"url":"https://mcp.example.com/mcp","auth":{"kind":"bearer","token":"xoxb-typed-secret"},
		"tools":["search","post_message"],"overrides":{"post_message":{"destructive":true,"category":"email_send"}}}`)
	if a.Status != 200 {
		t.Fatalf("test: %d %s", a.Status, a.Body)
	}
	v := testResultOf(t, a)
	byName := map[string]federation.ToolView{}
	for _, tv := range v.ServedTools {
		byName[tv.Upstream] = tv
	}
	if !v.Reachable || v.Error != "" || len(v.ServedTools) != 3 || !v.Auth.SecretSet || v.SecretKept || v.Auth.Kind != "bearer" ||
		!byName["search"].Served || byName["search"].Mutating || byName["search"].Description != "Search messages" ||
		byName["odd"].Served || byName["odd"].Refused != "" ||
		!byName["post_message"].Served || !byName["post_message"].Destructive || byName["post_message"].Category != "email_send" {
		t.Fatalf("test result: %s", a.Body)
	}
	if strings.Contains(a.Body, "xoxb-typed-secret") {
		t.Fatalf("the answer shows the secret: %s", a.Body)
	}
	if got := e.up.lastAuth(); got.Secret != "xoxb-typed-secret" {
		t.Fatalf("the upstream got secret %q", got.Secret)
	}
	// Nothing stored: no server, no catalogue entry, no state.
	if _, err := e.store.GetMCPServer(t.Context(), "acme", "slack"); !errors.Is(err, gtmgate.ErrNotFound) {
		t.Fatalf("a test stored the server: %v", err)
	}
	if a := e.do("GET", "/admin/tenants/acme/mcp-servers", ""); !strings.Contains(a.Body, `"servers":[]`) {
		t.Fatalf("list after a test: %s", a.Body)
	}
	// Its session is closed, and it was never the stored server's.
	e.up.mu.Lock()
	forgot := strings.Join(e.up.forgot, ",")
	e.up.mu.Unlock()
	if !strings.HasPrefix(forgot, "acme/test-connection/") || !strings.HasSuffix(forgot, "/slack") {
		t.Fatalf("forgotten sessions: %q", forgot)
	}

	// A new server without its secret is refused as PUT refuses it.
	a = test("slack", `{"url":"https://mcp.example.com/mcp","auth":{"kind":"bearer"}}`)
	if _, msg := a.Error(t); a.Status != 400 || !strings.Contains(msg, "auth.token is required") {
		t.Fatalf("no secret for a new server: %d %s", a.Status, a.Body)
	}
	// Validation as PUT's.
	if a = test("slack", `{"url":"ftp://mcp.example.com/mcp"}`); a.Status != 400 {
		t.Fatalf("bad URL: %d %s", a.Status, a.Body)
	}
	if a = test("Bad_Name", `{"url":"https://mcp.example.com/mcp"}`); a.Status != 400 {
		t.Fatalf("bad name: %d %s", a.Status, a.Body)
	}
	if a = e.do("POST", "/admin/tenants/nope/mcp-servers/slack/test", `{"url":"https://mcp.example.com/mcp"}`); a.Status != 404 {
		t.Fatalf("unknown tenant: %d %s", a.Status, a.Body)
	}

	// An edit: the stored secret is used when left out (same kind, same
	// origin), and the stored server is unchanged by the test.
	if a = e.do("PUT", slack, `{"url":"https://mcp.example.com/mcp","auth":{"kind":"bearer","token":"xoxb-stored-secret"},"tools":["search"]}`); a.Status != 201 {
		t.Fatalf("create: %d %s", a.Status, a.Body)
	}
	before, _ := e.store.GetMCPServer(t.Context(), "acme", "slack")
	a = test("slack", `{"url":"https://mcp.example.com/mcp","auth":{"kind":"bearer"}}`)
	if v := testResultOf(t, a); a.Status != 200 || !v.Reachable || !v.SecretKept || !v.Auth.SecretSet || len(v.Tools) != 0 ||
		v.ServedTools[0].Served || v.ServedTools[0].Refused == "" || !v.ServedTools[1].Served || !v.ServedTools[2].Served || strings.Contains(a.Body, "xoxb-stored-secret") {
		t.Fatalf("edit keeping the secret: %d %s", a.Status, a.Body)
	}
	if got := e.up.lastAuth(); got.Secret != "xoxb-stored-secret" {
		t.Fatalf("the upstream got secret %q, want the stored one", got.Secret)
	}
	after, _ := e.store.GetMCPServer(t.Context(), "acme", "slack")
	if !after.UpdatedAt.Equal(before.UpdatedAt) || len(after.Tools) != 1 || *after.State.CheckedAt != *before.State.CheckedAt {
		t.Fatalf("a test changed the stored server: %+v", after)
	}
	// Another origin: the secret must come again.
	a = test("slack", `{"url":"https://other.example.com/mcp","auth":{"kind":"bearer"}}`)
	if _, msg := a.Error(t); a.Status != 400 || !strings.Contains(msg, "auth.token is required") {
		t.Fatalf("another origin: %d %s", a.Status, a.Body)
	}

	// Unreachable: 200, reachable false, a readable error that never
	// carries the secret even when the upstream's words quote it.
	e.up.fail["https://down.example.com/mcp"] = gtmgate.Errorf(gtmgate.EUnavailable, `upstream MCP server "down" is unreachable: token xoxb-down-secret refused`)
	a = test("down", `{"url":"https://down.example.com/mcp","auth":{"kind":"bearer","token":"xoxb-down-secret"}}`)
	if v := testResultOf(t, a); a.Status != 200 || v.Reachable || !strings.Contains(v.Error, "is unreachable") || len(v.ServedTools) != 0 ||
		strings.Contains(a.Body, "xoxb-down-secret") {
		t.Fatalf("unreachable: %d %s", a.Status, a.Body)
	}
	if _, err := e.store.GetMCPServer(t.Context(), "acme", "down"); !errors.Is(err, gtmgate.ErrNotFound) {
		t.Fatalf("an unreachable test stored the server: %v", err)
	}
	var details []string
	for _, en := range e.audit.Entries() {
		details = append(details, en.Detail)
	}
	joined := strings.Join(details, "\n")
	if !strings.Contains(joined, "MCP server slack tested (nothing saved), host mcp.example.com, auth bearer; 3 tools listed") ||
		!strings.Contains(joined, "MCP server down tested (nothing saved), host down.example.com, auth bearer; unreachable") ||
		strings.Contains(joined, "secret-") || strings.Contains(e.logs.String(), "xoxb-") {
		t.Errorf("audit details:\n%s", joined)
	}
}

// TestMCPServerTestRealUpstream: the test route reaches a real MCP server
// through the real upstream client, and a URL nobody listens on answers
// 200 with reachable false.
func TestMCPServerTestRealUpstream(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "real-upstream", Version: "1"}, nil)
	type in struct {
		Q string `json:"q"`
	}
	mcp.AddTool(srv, &mcp.Tool{Name: "lookup", Description: "Look something up", Annotations: readOnly},
		func(context.Context, *mcp.CallToolRequest, in) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{}, nil, nil
		})
	mcp.AddTool(srv, &mcp.Tool{Name: "wipe", Description: "Wipe everything"},
		func(context.Context, *mcp.CallToolRequest, in) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{}, nil, nil
		})
	var gotAuth []string
	var mu sync.Mutex
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		gotAuth = append(gotAuth, r.Header.Get("Authorization"))
		mu.Unlock()
		if r.Header.Get("Authorization") != "Bearer real-secret" {
			http.Error(w, "bad token", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(up.Close)
	closed := httptest.NewServer(http.NotFoundHandler())
	closedURL := closed.URL + "/mcp"
	closed.Close()

	st := storetest.TenantWithToken(t)
	pool := mcpupstream.NewPool(mcpupstream.Options{Policy: egress.Policy{AllowLoopback: true}, DialTimeout: 3 * time.Second})
	t.Cleanup(func() { pool.Close() })
	cat := federation.New(federation.Options{Store: st, Upstream: pool})
	api := mcpservers.New(mcpservers.Options{Store: st, Catalog: cat})
	hd, _ := admintest.Handler(st, api.Mount)
	ts := httptest.NewServer(hd)
	t.Cleanup(ts.Close)

	a := admintest.Do(t, ts.URL, "POST", "/admin/tenants/acme/mcp-servers/real/test",
		`{"url":"`+up.URL+`","auth":{"kind":"bearer","token":"real-secret"},"tools":["lookup"],"overrides":{"lookup":{"category":"search_query"}}}`)
	v := testResultOf(t, a)
	if a.Status != 200 || !v.Reachable || len(v.ServedTools) != 2 || !v.ServedTools[0].Served || v.ServedTools[0].Category != "search_query" ||
		v.ServedTools[1].Served || !v.ServedTools[1].Destructive || strings.Contains(a.Body, "real-secret") {
		t.Fatalf("test of a real upstream: %d %s", a.Status, a.Body)
	}
	a = admintest.Do(t, ts.URL, "POST", "/admin/tenants/acme/mcp-servers/real/test", `{"url":"`+up.URL+`","auth":{"kind":"bearer","token":"wrong-secret"}}`)
	if v := testResultOf(t, a); a.Status != 200 || v.Reachable || !strings.Contains(v.Error, "rejected gtmgate's credential (HTTP 401)") ||
		strings.Contains(a.Body, "wrong-secret") {
		t.Fatalf("a wrong secret: %d %s", a.Status, a.Body)
	}
	a = admintest.Do(t, ts.URL, "POST", "/admin/tenants/acme/mcp-servers/gone/test", `{"url":"`+closedURL+`"}`)
	if v := testResultOf(t, a); a.Status != 200 || v.Reachable || !strings.Contains(v.Error, `upstream MCP server "gone" is unreachable`) {
		t.Fatalf("a closed port: %d %s", a.Status, a.Body)
	}
	if all, err := st.ListMCPServers(t.Context(), "acme"); err != nil || len(all) != 0 {
		t.Fatalf("tests stored servers: %v %v", all, err)
	}
}
