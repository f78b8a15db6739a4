package admincli_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/gtmgate/gtmgate/admincli"
	"github.com/gtmgate/gtmgate/app/apptest"
)

// fakeMCPGateway answers the mcp-servers routes with one server, slack, of
// tenant acme, and records the requests.
type fakeMCPGateway struct {
	mu   sync.Mutex
	reqs []string
	body []map[string]any
}

const slackView = `{"tenant_id":"acme","name":"slack","url":"https://mcp.example.com/mcp",
 "auth":{"kind":"bearer","secret_set":true},"tools":["search","odd"],"overrides":{},
 "created_at":"2026-11-26T00:00:00Z","updated_at":"2026-11-26T00:10:00Z",
 "state":{"tools_refreshed_at":"2026-11-26T00:10:00Z","checked_at":"2026-11-26T00:11:00Z","reachable":false,"latency_ms":12.5,
  "error":"upstream MCP server \"slack\" answered 503"},
 "served_tools":[
  {"name":"slack__search","upstream":"search","category":"search_query","mutating":false,"destructive":false,"served":true},
  {"name":"slack__odd","upstream":"odd","category":"data_query","mutating":true,"destructive":true,"served":false,
   "refused":"its input has a property named rationale, which gtmgate reserves"},
  {"name":"slack__post_message","upstream":"post_message","category":"data_query","mutating":true,"destructive":false,"served":false},
  {"name":"slack__fresh","upstream":"fresh","category":"data_query","mutating":false,"destructive":false,"served":false,"pending":"new: waiting for acceptance"}]}`

func (f *fakeMCPGateway) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	var body map[string]any
	_ = json.Unmarshal(b, &body)
	f.mu.Lock()
	f.reqs = append(f.reqs, r.Method+" "+r.URL.Path)
	f.body = append(f.body, body)
	f.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	switch r.Method + " " + r.URL.Path {
	case "GET /admin/tenants/acme/mcp-servers":
		w.Write([]byte(`{"servers":[` + slackView + `]}`))
	case "GET /admin/tenants/acme/mcp-servers/slack":
		w.Write([]byte(`{"server":` + slackView + `}`))
	case "PUT /admin/tenants/acme/mcp-servers/slack":
		w.WriteHeader(http.StatusCreated)
		w.Write([]byte(slackView))
	case "POST /admin/tenants/acme/mcp-servers/slack/refresh":
		w.Write([]byte(slackView))
	case "DELETE /admin/tenants/acme/mcp-servers/slack":
		w.WriteHeader(http.StatusNoContent)
	case "GET /admin/tenants/acme/mcp-servers/slack/changes":
		w.Write([]byte(`{"server":"slack","changes":[{"tool":"post_message","kind":"changed","hash":"sha256:abc","lifts_gate":true,
		 "flags":[{"kind":"instruction","text":"Ignore previous"}]}]}`))
	case "POST /admin/tenants/acme/mcp-servers/slack/changes/accept":
		w.Write([]byte(`{"accepted":[{"tool":"post_message","kind":"changed","gate_kept":true}],"server":` + slackView + `}`))
	default:
		w.WriteHeader(http.StatusNotFound)
		w.Write([]byte(`{"error":{"code":"NOT_FOUND","message":"tenant \"acme\" has no MCP server \"x\""}}`))
	}
}

func (f *fakeMCPGateway) last() (string, map[string]any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.reqs[len(f.reqs)-1], f.body[len(f.body)-1]
}

// TestMCPServersCLI: list and get show the state and each tool served,
// left out or refused; put reads secrets from files or stdin only and
// builds the body from the flags; delete and refresh call their routes.
func TestMCPServersCLI(t *testing.T) {
	t.Parallel()
	gw, c := newMCPGatewayCLI(t)

	out := c.ok("mcp-servers", "list", "--tenant", "acme")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "NAME") || !strings.Contains(lines[0], "REACHABLE") ||
		!strings.Contains(lines[1], "slack") || !strings.Contains(lines[1], "no") || !strings.Contains(lines[1], "1/4 served") ||
		!strings.Contains(lines[1], "2026-11-26 00:10") || !strings.Contains(lines[1], "upstream MCP server") {
		t.Fatalf("list:\n%s", out)
	}

	out = c.ok("mcp-servers", "get", "slack", "--tenant", "acme")
	for _, want := range []string{"server      slack (tenant acme)", "auth        bearer, secret sealed", "allow-list  search, odd",
		"state       reachable no, checked 2026-11-26 00:11", "tools       1/4 served, last listed 2026-11-26 00:10",
		`error       upstream MCP server "slack" answered 503`, "slack__search", "refused", "its input has a property named rationale",
		"not in the allow-list", "destroys", "reads", "new: waiting for"} {
		if !strings.Contains(out, want) {
			t.Errorf("get lacks %q:\n%s", want, out)
		}
	}
	if out := c.ok("mcp-servers", "get", "slack", "--tenant", "acme", "--output", "json"); !strings.Contains(out, `"served_tools"`) {
		t.Errorf("get --output json:\n%s", out)
	}

	// put: a bearer token from a file, tools and overrides.
	tokenFile := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(tokenFile, []byte("xoxb-file-token\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out = c.ok("mcp-servers", "put", "slack", "--tenant", "acme", "--url", "https://mcp.example.com/mcp", "--bearer-token-file", tokenFile,
		"--tool", "search", "--tool", "odd", "--override", "search:mutating=false,category=search_query", "--override", "odd:destructive=false")
	req, body := gw.last()
	want := `{"auth":{"kind":"bearer","token":"xoxb-file-token"},"overrides":{"odd":{"destructive":false},` +
		`"search":{"category":"search_query","mutating":false}},"tools":["search","odd"],"url":"https://mcp.example.com/mcp"}`
	if got, _ := json.Marshal(body); req != "PUT /admin/tenants/acme/mcp-servers/slack" || string(got) != want {
		t.Fatalf("put sent %s %s\nwant %s", req, got, want)
	}
	if !strings.Contains(out, "server      slack") || strings.Contains(out, "xoxb") {
		t.Fatalf("put printed:\n%s", out)
	}

	// A header value from stdin; client credentials with scopes.
	code, _, errs := c.run("hv-stdin\n", "mcp-servers", "put", "slack", "--tenant", "acme", "--url", "https://mcp.example.com/mcp",
		"--header", "X-Api-Key", "--header-value-file", "-")
	if _, body = gw.last(); code != admincli.ExitOK || body["auth"].(map[string]any)["value"] != "hv-stdin" || body["auth"].(map[string]any)["header"] != "X-Api-Key" {
		t.Fatalf("header from stdin: exit %d %s: sent %v", code, errs, body)
	}
	code, _, errs = c.run("cs-stdin", "mcp-servers", "put", "slack", "--tenant", "acme", "--url", "https://mcp.example.com/mcp",
		"--token-url", "https://id.example.com/token", "--client-id", "cid", "--client-secret-file", "-", "--scope", "read write", "--scope", "admin")
	auth := map[string]any{}
	if _, body = gw.last(); body != nil {
		auth, _ = body["auth"].(map[string]any)
	}
	if got, _ := json.Marshal(auth); code != admincli.ExitOK ||
		string(got) != `{"client_id":"cid","client_secret":"cs-stdin","kind":"client_credentials","scopes":["read","write","admin"],"token_url":"https://id.example.com/token"}` {
		t.Fatalf("client credentials: exit %d %s: sent %s", code, errs, got)
	}
	// --auth bearer without a file keeps the stored token: none is sent.
	c.ok("mcp-servers", "put", "slack", "--tenant", "acme", "--url", "https://mcp.example.com/mcp", "--auth", "bearer")
	if _, body = gw.last(); len(body["auth"].(map[string]any)) != 1 || body["auth"].(map[string]any)["kind"] != "bearer" {
		t.Fatalf("keep the token: sent %v", body)
	}

	// Refusals: secrets on the command line, mixed kinds, bad overrides.
	n := len(gw.reqs)
	for _, args := range [][]string{
		{"--bearer-token", "xoxb-argv"},
		{"--client-secret", "cs-argv"},
		{"--header-value", "hv-argv"},
		{"--bearer-token-file", tokenFile, "--header", "X-K"},
		{"--auth", "header", "--bearer-token-file", tokenFile},
		{"--override", "search"},
		{"--override", "search:mutating=maybe"},
		{"--override", "search:colour=red"},
	} {
		code, out, errs := c.run("", append([]string{"mcp-servers", "put", "slack", "--tenant", "acme", "--url", "https://mcp.example.com/mcp"}, args...)...)
		if code != admincli.ExitUsage || strings.Contains(out+errs, "-argv") {
			t.Errorf("put %v: exit %d\n%s%s", args, code, out, errs)
		}
	}
	if code, _, _ := c.run("", "mcp-servers", "list"); code != admincli.ExitUsage {
		t.Errorf("list without --tenant: exit %d", code)
	}
	if len(gw.reqs) != n {
		t.Errorf("refused command lines reached the gateway: %v", gw.reqs[n:])
	}

	out = c.ok("mcp-servers", "refresh", "slack", "--tenant", "acme")
	if req, _ := gw.last(); req != "POST /admin/tenants/acme/mcp-servers/slack/refresh" || !strings.Contains(out, "slack__search") {
		t.Fatalf("refresh: %s\n%s", req, out)
	}
	out = c.ok("mcp-servers", "delete", "slack", "--tenant", "acme")
	if req, _ := gw.last(); req != "DELETE /admin/tenants/acme/mcp-servers/slack" || !strings.Contains(out, "deleted") {
		t.Fatalf("delete: %s\n%s", req, out)
	}
	if code, _, errs := c.run("", "mcp-servers", "get", "x", "--tenant", "acme"); code != admincli.ExitRefused || !strings.Contains(errs, "NOT_FOUND") {
		t.Fatalf("get of no server: exit %d %s", code, errs)
	}
}

// TestMCPServersCLIOAuthFlags: --grant and --client-registration go into
// the oauth auth body as given; with another kind, or a grant that is
// neither tenant nor person, the command line is refused before the
// gateway is asked.
func TestMCPServersCLIOAuthFlags(t *testing.T) {
	t.Parallel()
	gw, c := newMCPGatewayCLI(t)
	put := []string{"mcp-servers", "put", "slack", "--tenant", "acme", "--url", "https://mcp.example.com/mcp"}
	for _, tc := range []struct {
		name string
		args []string
		// auth is the auth body sent, "" when the command line is refused.
		auth string
	}{
		{"oauth, per person", []string{"--auth", "oauth", "--grant", "person"}, `{"grant":"person","kind":"oauth"}`},
		{"oauth, the tenant's grant", []string{"--auth", "oauth", "--grant", "tenant", "--scope", "notes"},
			`{"grant":"tenant","kind":"oauth","scopes":["notes"]}`},
		{"oauth, dynamic registration", []string{"--auth", "oauth", "--client-registration", "dynamic"},
			`{"client_registration":"dynamic","kind":"oauth"}`},
		{"oauth, a static client per person", []string{"--auth", "oauth", "--client-id", "cid", "--grant", "person"},
			`{"client_id":"cid","grant":"person","kind":"oauth"}`},
		{"oauth, no grant: the gateway's default", []string{"--auth", "oauth"}, `{"kind":"oauth"}`},
		{"a grant that is neither", []string{"--auth", "oauth", "--grant", "team"}, ""},
		{"a grant without oauth", []string{"--bearer-token-file", "-", "--grant", "person"}, ""},
		{"a grant without --auth", []string{"--grant", "person"}, ""},
		{"client registration with client credentials", []string{"--token-url", "https://id.example.com/token", "--client-id", "cid",
			"--client-registration", "dynamic"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			gw.mu.Lock()
			n := len(gw.reqs)
			gw.mu.Unlock()
			code, out, errs := c.run("tok", append(put, tc.args...)...)
			gw.mu.Lock()
			sent := len(gw.reqs) > n
			gw.mu.Unlock()
			if tc.auth == "" {
				if code != admincli.ExitUsage || sent {
					t.Fatalf("exit %d (sent: %v), want a usage error before any request\n%s%s", code, sent, out, errs)
				}
				return
			}
			_, body := gw.last()
			got, _ := json.Marshal(body["auth"])
			if code != admincli.ExitOK || !sent || string(got) != tc.auth {
				t.Fatalf("exit %d: sent auth %s, want %s\n%s", code, got, tc.auth, errs)
			}
		})
	}
}

// TestMCPServersCLIAgainstTheGateway: --demo registers the demo tenant's
// notes MCP server; the CLI lists it, shows its tools and refreshes it.
func TestMCPServersCLIAgainstTheGateway(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t, nil)
	c := cli{t: t, env: map[string]string{"GTMGATE_GATEWAY_URL": env.GatewayURL, "GTMGATE_ADMIN_KEY": apptest.AdminKey}}
	out := c.ok("mcp-servers", "list", "--tenant", "demo")
	if !strings.Contains(out, "notes") || !strings.Contains(out, "yes") || !strings.Contains(out, "3/3 served") {
		t.Fatalf("list:\n%s", out)
	}
	out = c.ok("mcp-servers", "refresh", "notes", "--tenant", "demo")
	for _, want := range []string{"server      notes (tenant demo)", "auth        bearer, secret sealed", "reachable yes", "notes__search_notes"} {
		if !strings.Contains(out, want) {
			t.Errorf("refresh lacks %q:\n%s", want, out)
		}
	}
	if code, _, errs := c.run("", "mcp-servers", "put", "bad__name", "--tenant", "demo", "--url", "https://mcp.example.com/mcp"); code != admincli.ExitRefused ||
		!strings.Contains(errs, "VALIDATION_ERROR") {
		t.Fatalf("put bad__name: exit %d %s", code, errs)
	}
}

// TestMCPChangesCLI: changes lists what waits, with the hash; accept sends
// the hashes given (or all), and the tools whose gate may be lifted.
func TestMCPChangesCLI(t *testing.T) {
	t.Parallel()
	gw, c := newMCPGatewayCLI(t)

	out := c.ok("mcp-servers", "changes", "slack", "--tenant", "acme")
	for _, want := range []string{"TOOL", "HASH", "post_message", "changed", "would lift", "instruction", "sha256:abc"} {
		if !strings.Contains(out, want) {
			t.Errorf("changes lacks %q:\n%s", want, out)
		}
	}
	out = c.ok("mcp-servers", "accept", "slack", "--tenant", "acme", "--tool", "post_message=sha256:abc", "--lift-gate", "post_message")
	req, body := gw.last()
	if got, _ := json.Marshal(body); req != "POST /admin/tenants/acme/mcp-servers/slack/changes/accept" ||
		string(got) != `{"lift_gate":["post_message"],"tools":{"post_message":"sha256:abc"}}` {
		t.Fatalf("accept sent %s %s", req, got)
	}
	if !strings.Contains(out, "post_message (changed) accepted; the gate is kept") {
		t.Errorf("accept printed:\n%s", out)
	}
	c.ok("mcp-servers", "accept", "slack", "--tenant", "acme", "--all")
	if _, body = gw.last(); body["all"] != true {
		t.Errorf("accept --all sent %v", body)
	}
	c.ok("mcp-servers", "put", "slack", "--tenant", "acme", "--url", "https://mcp.example.com/mcp", "--auto-accept-changes")
	if _, body = gw.last(); body["auto_accept_changes"] != true {
		t.Errorf("put --auto-accept-changes sent %v", body)
	}
	if code, _, _ := c.run("", "mcp-servers", "accept", "slack", "--tenant", "acme"); code == admincli.ExitOK {
		t.Error("accept without --tool or --all succeeded")
	}
}

// newMCPGatewayCLI serves a fakeMCPGateway and returns it with a cli
// pointed at it.
func newMCPGatewayCLI(t *testing.T) (*fakeMCPGateway, cli) {
	gw := &fakeMCPGateway{}
	srv := httptest.NewServer(gw)
	t.Cleanup(srv.Close)
	return gw, cli{t: t, env: map[string]string{"GTMGATE_GATEWAY_URL": srv.URL, "GTMGATE_ADMIN_KEY": "k"}}
}
