package console_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/admin"
	"github.com/gtmgate/gtmgate/audit"
	"github.com/gtmgate/gtmgate/console"
	"github.com/gtmgate/gtmgate/federation"
	"github.com/gtmgate/gtmgate/mcpservers"
	"github.com/gtmgate/gtmgate/registry"
	"github.com/gtmgate/gtmgate/store/sqlite"
	"github.com/gtmgate/gtmgate/store/sqlstore"
	"github.com/gtmgate/gtmgate/store/storetest"
	"github.com/gtmgate/gtmgate/toolrun"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// mcpUpstream lists three tools, or fails while down is set.
type mcpUpstream struct {
	mu   sync.Mutex
	down bool
}

func (u *mcpUpstream) ListTools(context.Context, *gtmgate.MCPServer) ([]*mcp.Tool, error) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.down {
		return nil, gtmgate.Errorf(gtmgate.EUpstream, "upstream MCP server answered 503")
	}
	obj := func(prop string) map[string]any {
		return map[string]any{"type": "object", "properties": map[string]any{prop: map[string]any{"type": "string"}}}
	}
	return []*mcp.Tool{
		{Name: "search", Description: "Search messages", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}, InputSchema: obj("q")},
		{Name: "odd", InputSchema: obj("rationale")},
		{Name: "post_message", InputSchema: obj("text")},
	}, nil
}

func (u *mcpUpstream) CallTool(context.Context, *gtmgate.MCPServer, string, json.RawMessage, bool, func(*mcp.ProgressNotificationParams)) (*mcp.CallToolResult, error) {
	return nil, errors.New("not in these tests")
}

func (u *mcpUpstream) Forget(string, string) {}

// TestConsoleMCPServers: the tenant page lists its upstream MCP servers,
// their state and each tool served, refused with the reason, or left out
// by the allow-list; Refresh tools lists them again and says how it went.
func TestConsoleMCPServers(t *testing.T) {
	sq, err := sqlite.Open(t.Context(), filepath.Join(t.TempDir(), "gtmgate.db"), &sqlstore.Options{Sealer: storetest.NewSealer(t)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sq.Close() })
	st := sq
	rec, err := audit.NewWriter(st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(rec.Close)
	up := &mcpUpstream{}
	api := mcpservers.New(mcpservers.Options{Store: st, Catalog: federation.New(federation.Options{Store: st, Upstream: up})})
	sum := sha256.Sum256([]byte(adminKey))
	keyHash := hex.EncodeToString(sum[:])
	reg, err := registry.New()
	if err != nil {
		t.Fatal(err)
	}
	runner := toolrun.New(toolrun.Options{Registry: reg, Store: st, Recorder: rec})
	adm := admin.New(admin.Options{Store: st, Recorder: rec, Runner: runner, KeyHash: keyHash, Extra: []func(gtmgate.Router){api.Mount}})
	c, err := console.New(console.Options{Admin: adm, Sessions: st, Recorder: rec, KeyHash: keyHash, CSRFKey: []byte("mcp-test-csrf-key")})
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/admin/", adm)
	mux.Handle("/console/", c)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	jar, _ := cookiejar.New(nil)
	e := &overviewEnv{t: t, url: srv.URL, recorder: rec, browser: &http.Client{Jar: jar}}
	if status, body := e.admin("PUT", "/admin/tenants/acme", `{"name": "Acme", "status": "active", "providers": {}}`); status >= 300 {
		t.Fatalf("put tenant: %d %s", status, body)
	}
	e.signIn()

	status, page := e.page("/console/tenants/acme")
	if status != 200 || !strings.Contains(page, `id="mcp-servers"`) || !strings.Contains(page, "No MCP servers.") {
		t.Fatalf("tenant page without servers: %d\n%s", status, page)
	}
	if status, body := e.admin("PUT", "/admin/tenants/acme/mcp-servers/slack",
		`{"url":"https://mcp.example.com/mcp","auth":{"kind":"bearer","token":"xoxb-console-secret"},"tools":["search","odd"]}`); status != 201 {
		t.Fatalf("put server: %d %s", status, body)
	}
	_, page = e.page("/console/tenants/acme")
	for _, want := range []string{"<h3>slack</h3>", "https://mcp.example.com/mcp", "auth bearer", "reachable, ", "slack__search", "Search messages",
		"read-only", "served", "refused</span>: its input has a property named rationale", "slack__post_message", "not in the allow-list",
		`action="/console/tenants/acme/mcp-servers/refresh"`, `name="server" value="slack"`, "Refresh tools"} {
		if !strings.Contains(page, want) {
			t.Errorf("tenant page lacks %q", want)
		}
	}
	if strings.Contains(page, "xoxb") {
		t.Errorf("tenant page shows the secret")
	}

	up.mu.Lock()
	up.down = true
	up.mu.Unlock()
	m := csrfField.FindStringSubmatch(page)
	resp, err := e.browser.PostForm(srv.URL+"/console/tenants/acme/mcp-servers/refresh", url.Values{"csrf": {m[1]}, "server": {"slack"}})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.Request.URL.Path != "/console/tenants/acme" {
		t.Fatalf("refresh ended at %s (%d)", resp.Request.URL, resp.StatusCode)
	}
	page = string(b)
	for _, want := range []string{"MCP server slack could not be listed", "unreachable", "answered 503", "slack__search"} {
		if !strings.Contains(page, want) {
			t.Errorf("after a failed refresh the page lacks %q", want)
		}
	}
	// Without a CSRF token the refresh is refused.
	resp, err = e.browser.PostForm(srv.URL+"/console/tenants/acme/mcp-servers/refresh", url.Values{"server": {"slack"}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode < 400 {
		t.Fatalf("a refresh without a CSRF token: %d", resp.StatusCode)
	}
}

// TestConsoleTenantWithoutMCPServers: a gateway without the MCP-server
// routes shows the tenant page without the section, and without an error.
func TestConsoleTenantWithoutMCPServers(t *testing.T) {
	e := startOverview(t)
	status, page := e.page("/console/tenants/acme")
	if status != 200 || strings.Contains(page, `id="mcp-servers"`) || strings.Contains(page, "mcp-servers") {
		t.Fatalf("tenant page: %d\n%s", status, page)
	}
}
