package mcpgateway

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/registry"
	"github.com/gtmgate/gtmgate/store/sqlite"
	"github.com/gtmgate/gtmgate/store/sqlstore"
	"github.com/gtmgate/gtmgate/store/storetest"
	"github.com/gtmgate/gtmgate/toolrun"
)

// toolsetEnv is an /mcp handler over three tools of a tenant with toolsets;
// the principal of each request is the token named by its bearer value.
type toolsetEnv struct {
	handler http.Handler
	ran     []string // tool.action@account of each call that reached its tool
}

func newToolsetEnv(t testing.TB) *toolsetEnv {
	t.Helper()
	st, err := sqlite.Open(t.Context(), filepath.Join(t.TempDir(), "g.db"), &sqlstore.Options{Sealer: storetest.NewSealer(t)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	tenant := &gtmgate.Tenant{ID: "acme", Name: "Acme", Status: gtmgate.TenantActive, Approval: &gtmgate.ApprovalPolicy{},
		Providers: map[string]gtmgate.ProviderAccounts{
			"hubspot":   {Default: "portal-1", Accounts: []gtmgate.Account{{ID: "portal-1"}}},
			"gcalendar": {Default: "ceo@acme.example", Accounts: []gtmgate.Account{{ID: "ceo@acme.example"}, {ID: "rep@acme.example"}}},
		},
		Toolsets: map[string]*gtmgate.Toolset{
			"meeting-prep": {Allow: []string{"crm_*", "calendar_events"}, ReadOnly: true,
				Accounts: map[string][]string{"gcalendar": {"rep@acme.example"}}},
			"no-deletes": {Allow: []string{"*"}, Deny: []string{"crm_deals.delete", "category:ads_mutate"}},
			"deals-list": {Allow: []string{"crm_deals.list"}},
			"discovery":  {Allow: []string{"*"}, Deny: []string{"category:ads_mutate"}, Discovery: true, Pinned: []string{"crm_deals"}},
		}}
	if _, err := st.PutTenant(t.Context(), tenant); err != nil {
		t.Fatal(err)
	}
	e := &toolsetEnv{}
	run := func(_ context.Context, c *gtmgate.Call) (any, error) {
		e.ran = append(e.ran, c.Tool.Name+"."+c.Action.Name+"@"+c.Account.ID)
		return map[string]any{"done": c.Action.Name}, nil
	}
	reg, err := registry.New(
		gtmgate.Tool{Name: "crm_deals", Domain: "crm", Provider: "hubspot", Title: "Deals", Description: "deals", Run: run, Actions: []gtmgate.Action{
			{Name: "list", Category: gtmgate.CategoryCRMRead},
			{Name: "update", Category: gtmgate.CategoryCRMWrite, Mutating: true},
			{Name: "delete", Category: gtmgate.CategoryCRMWrite, Mutating: true, Destructive: true},
		}},
		gtmgate.Tool{Name: "calendar_events", Domain: "calendar", Provider: "gcalendar", Title: "Events", Description: "events", Run: run, Actions: []gtmgate.Action{
			{Name: "list", Category: gtmgate.CategoryCalendarOp},
			{Name: "create", Category: gtmgate.CategoryCalendarOp, Mutating: true, Additive: true},
		}},
		gtmgate.Tool{Name: "gads_campaigns", Domain: "ads", Provider: "hubspot", Title: "Campaigns", Description: "campaigns", Run: run, Actions: []gtmgate.Action{
			{Name: "list", Category: gtmgate.CategoryAdsRead},
			{Name: "update_budget", Category: gtmgate.CategoryAdsMutate, Mutating: true},
		}},
		gtmgate.Tool{Name: "approval_status", Domain: "agents", Title: "Approval", Description: "approval", Run: run, Actions: []gtmgate.Action{
			{Name: "get", Category: gtmgate.CategoryAgentOrchestration},
		}},
	)
	if err != nil {
		t.Fatal(err)
	}
	runner := toolrun.New(toolrun.Options{Registry: reg, Store: st, Recorder: nopRecorder{}, Tokens: anyToken{}})
	e.handler = New(Options{
		Runner: runner,
		Require: func(next http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				toolset := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
				if toolset == "none" {
					toolset = ""
				}
				p := &gtmgate.Principal{TenantID: "acme", KeyID: "tok_" + toolset, Kind: gtmgate.PrincipalToken, Toolset: toolset}
				next.ServeHTTP(w, r.WithContext(gtmgate.NewContextWithPrincipal(r.Context(), p)))
			})
		},
		MaxBodyBytes: 1 << 20,
	})
	return e
}

// anyToken gives every account a token: the tools here never use it.
type anyToken struct{}

func (anyToken) TokenSource(context.Context, string, string, string) (gtmgate.TokenSource, error) {
	return gtmgate.StaticToken("t"), nil
}

// rpc posts one JSON-RPC request as the agent with toolset and decodes the result.
func (e *toolsetEnv) rpc(t *testing.T, toolset, method, params string) map[string]any {
	t.Helper()
	res, rpcErr := e.try(t, toolset, method, params)
	if res == nil {
		t.Fatalf("%s as %s: %v", method, toolset, rpcErr)
	}
	return res
}

// try is rpc that returns a JSON-RPC error instead of failing on it.
func (e *toolsetEnv) try(t *testing.T, toolset, method, params string) (map[string]any, any) {
	t.Helper()
	req := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"`+method+`","params":`+params+`}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+toolset)
	rec := httptest.NewRecorder()
	e.handler.ServeHTTP(rec, req)
	var out struct {
		Result map[string]any `json:"result"`
		Error  any            `json:"error"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil || (out.Result == nil && out.Error == nil) {
		t.Fatalf("%s as %s: %d %s", method, toolset, rec.Code, rec.Body)
	}
	return out.Result, out.Error
}

// listed returns each listed tool with its action enum, as "tool:a,b".
func (e *toolsetEnv) listed(t *testing.T, toolset string) ([]string, map[string]any) {
	t.Helper()
	res := e.rpc(t, toolset, "tools/list", `{}`)
	var out []string
	for _, raw := range res["tools"].([]any) {
		tool := raw.(map[string]any)
		var actions []string
		props := tool["inputSchema"].(map[string]any)["properties"].(map[string]any)
		for _, a := range props["action"].(map[string]any)["enum"].([]any) {
			actions = append(actions, a.(string))
		}
		out = append(out, tool["name"].(string)+":"+strings.Join(actions, ","))
	}
	sort.Strings(out)
	return out, res
}

// TestToolsetListAndCallAgree: for every rule kind, tools/list shows
// exactly the tools and actions a call may run, and a call of anything
// else is refused before it reaches the tool.
func TestToolsetListAndCallAgree(t *testing.T) {
	e := newToolsetEnv(t)
	all := []string{"approval_status:get", "calendar_events:list,create", "crm_deals:list,update,delete", "gads_campaigns:list,update_budget"}
	for _, tc := range []struct {
		toolset string
		want    []string
	}{
		{"none", all},
		{"meeting-prep", []string{"approval_status:get", "calendar_events:list", "crm_deals:list"}},
		{"no-deletes", []string{"approval_status:get", "calendar_events:list,create", "crm_deals:list,update", "gads_campaigns:list"}},
		{"deals-list", []string{"approval_status:get", "crm_deals:list"}},
		{"deleted-since", []string{"approval_status:get"}},
	} {
		t.Run(tc.toolset, func(t *testing.T) {
			got, _ := e.listed(t, tc.toolset)
			if !slices.Equal(got, tc.want) {
				t.Fatalf("tools/list = %v, want %v", got, tc.want)
			}
			for _, tool := range all {
				name, actions, _ := strings.Cut(tool, ":")
				for _, action := range strings.Split(actions, ",") {
					allowed := slices.ContainsFunc(tc.want, func(w string) bool {
						n, as, _ := strings.Cut(w, ":")
						return n == name && slices.Contains(strings.Split(as, ","), action)
					})
					toolListed := slices.ContainsFunc(tc.want, func(w string) bool { return strings.HasPrefix(w, name+":") })
					e.ran = nil
					res, rpcErr := e.try(t, tc.toolset, "tools/call", fmt.Sprintf(`{"name":%q,"arguments":{"action":%q,"rationale":"r"}}`, name, action))
					text := fmt.Sprint(res["content"])
					switch {
					case allowed && (res == nil || res["isError"] == true || len(e.ran) != 1):
						t.Errorf("%s.%s is listed but the call failed: %s %v", name, action, text, rpcErr)
					case !allowed && len(e.ran) != 0:
						t.Errorf("%s.%s is not listed but it ran", name, action)
					case !allowed && !toolListed && !strings.Contains(fmt.Sprint(rpcErr), "unknown tool"):
						// A tool the agent does not have is unknown to it, as tools/list said.
						t.Errorf("%s is not listed but its call did not answer unknown tool: %v %s", name, rpcErr, text)
					case !allowed && toolListed && (res["isError"] != true || !strings.Contains(text, "FORBIDDEN")):
						t.Errorf("%s.%s is not in the action enum but the call was not refused with FORBIDDEN: %s", name, action, text)
					}
				}
			}
		})
	}
}

// TestToolsetAccounts: an agent limited to one calendar uses it by default
// and cannot reach another person's.
func TestToolsetAccounts(t *testing.T) {
	e := newToolsetEnv(t)
	e.rpc(t, "meeting-prep", "tools/call", `{"name":"calendar_events","arguments":{"action":"list","rationale":"r"}}`)
	if !slices.Equal(e.ran, []string{"calendar_events.list@rep@acme.example"}) {
		t.Fatalf("default account: ran %v, want the rep's calendar", e.ran)
	}
	e.ran = nil
	res := e.rpc(t, "meeting-prep", "tools/call", `{"name":"calendar_events","arguments":{"action":"list","rationale":"r","account_id":"ceo@acme.example"}}`)
	if len(e.ran) != 0 || res["isError"] != true || !strings.Contains(fmt.Sprint(res["content"]), "does not allow gcalendar account") {
		t.Fatalf("another person's calendar: ran %v, %v", e.ran, res["content"])
	}
	e.ran = nil
	e.rpc(t, "none", "tools/call", `{"name":"calendar_events","arguments":{"action":"list","rationale":"r"}}`)
	if !slices.Equal(e.ran, []string{"calendar_events.list@ceo@acme.example"}) {
		t.Fatalf("without a toolset: ran %v, want the tenant's default", e.ran)
	}
}

// TestListResultsArePrivate: list answers differ per tenant and agent, so
// they say so (MCP 2026-07-28 cacheScope) with a real ttlMs; the unused
// logging capability is not advertised.
func TestListResultsArePrivate(t *testing.T) {
	e := newToolsetEnv(t)
	_, res := e.listed(t, "meeting-prep")
	if res["cacheScope"] != "private" || res["ttlMs"] != float64(ListTTL.Milliseconds()) {
		t.Errorf("tools/list cacheScope %v ttlMs %v, want private %d", res["cacheScope"], res["ttlMs"], ListTTL.Milliseconds())
	}
	init := e.rpc(t, "none", "initialize", `{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}`)
	caps := init["capabilities"].(map[string]any)
	if _, ok := caps["logging"]; ok {
		t.Errorf("capabilities advertise logging: %v", caps)
	}
	if _, ok := caps["tools"]; !ok {
		t.Errorf("capabilities lack tools: %v", caps)
	}
}

// TestDiscoveryMode: an agent in discovery mode is listed its pinned tools,
// the gateway's own and find_tools and call_tool; find_tools searches what
// its toolset allows (with the allowed actions only), and call_tool runs a
// found tool as a direct call would, refusing what the toolset refuses.
func TestDiscoveryMode(t *testing.T) {
	e := newToolsetEnv(t)
	res := e.rpc(t, "discovery", "tools/list", `{}`)
	var names []string
	for _, raw := range res["tools"].([]any) {
		names = append(names, raw.(map[string]any)["name"].(string))
	}
	sort.Strings(names)
	if want := []string{"approval_status", "call_tool", "crm_deals", "find_tools"}; !slices.Equal(names, want) {
		t.Fatalf("tools/list in discovery mode = %v, want %v", names, want)
	}
	text := func(res map[string]any) string {
		return res["content"].([]any)[0].(map[string]any)["text"].(string)
	}
	var found struct {
		Tools []struct {
			Name        string
			Actions     []string
			InputSchema map[string]any `json:"input_schema"`
		}
	}
	res = e.rpc(t, "discovery", "tools/call", `{"name":"find_tools","arguments":{"query":"campaigns budget"}}`)
	if err := json.Unmarshal([]byte(text(res)), &found); err != nil || len(found.Tools) == 0 {
		t.Fatalf("find_tools: %v %v", err, res)
	}
	if top := found.Tools[0]; top.Name != "gads_campaigns" || !slices.Equal(top.Actions, []string{"list"}) || top.InputSchema == nil {
		t.Errorf("find_tools' best match = %+v, want gads_campaigns with its allowed action list and a schema", top)
	}
	res = e.rpc(t, "discovery", "tools/call", `{"name":"find_tools","arguments":{}}`)
	if !strings.Contains(text(res), `"calendar_events"`) || strings.Contains(text(res), "find_tools") {
		t.Errorf("find_tools without a query = %s, want every allowed tool by name", text(res))
	}

	e.ran = nil
	res = e.rpc(t, "discovery", "tools/call", `{"name":"call_tool","arguments":{"name":"calendar_events","arguments":{"action":"list","rationale":"r"}}}`)
	if res["isError"] == true || !slices.Equal(e.ran, []string{"calendar_events.list@ceo@acme.example"}) {
		t.Fatalf("call_tool calendar_events.list: ran %v, %v", e.ran, text(res))
	}
	e.ran = nil
	res = e.rpc(t, "discovery", "tools/call", `{"name":"call_tool","arguments":{"name":"gads_campaigns","arguments":{"action":"update_budget","rationale":"r"}}}`)
	if res["isError"] != true || !strings.Contains(text(res), "FORBIDDEN") || len(e.ran) != 0 {
		t.Errorf("call_tool of a denied action: ran %v, %s", e.ran, text(res))
	}
	res = e.rpc(t, "discovery", "tools/call", `{"name":"call_tool","arguments":{"name":"crm_deals","arguments":{"action":"list"}}}`)
	if res["isError"] != true || !strings.Contains(text(res), "VALIDATION_ERROR") {
		t.Errorf("call_tool without a rationale: %s, want the direct call's VALIDATION_ERROR", text(res))
	}
	res = e.rpc(t, "discovery", "tools/call", `{"name":"call_tool","arguments":{"name":"call_tool","arguments":{}}}`)
	if res["isError"] != true {
		t.Errorf("call_tool of itself: %s", text(res))
	}
}
