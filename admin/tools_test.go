package admin_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/admin"
	"github.com/gtmgate/gtmgate/admin/admintest"
	"github.com/gtmgate/gtmgate/registry"
	"github.com/gtmgate/gtmgate/store/storetest"
	"github.com/gtmgate/gtmgate/toolrun"
)

type noProviderTokens struct{}

func (noProviderTokens) TokenSource(context.Context, string, string, string) (gtmgate.TokenSource, error) {
	return nil, nil
}

// playgroundTools are a read and a mutating CRM action that answer what
// they were asked.
func playgroundTools(t *testing.T) *registry.Registry {
	t.Helper()
	run := func(_ context.Context, c *gtmgate.Call) (any, error) {
		return map[string]any{"action": c.Action.Name, "account": c.Account.ID}, nil
	}
	reg, err := registry.New(
		gtmgate.Tool{Name: "crm_deals", Domain: "crm", Provider: "hubspot", Title: "Deals", Description: "deals", Run: run, Actions: []gtmgate.Action{
			{Name: "list", Category: gtmgate.CategoryCRMRead},
			{Name: "update", Category: gtmgate.CategoryCRMWrite, Mutating: true},
			{Name: "delete", Category: gtmgate.CategoryCRMWrite, Mutating: true, Destructive: true},
		}},
		gtmgate.Tool{Name: "approval_status", Domain: "agents", Title: "Approval", Description: "approval", Run: run, Actions: []gtmgate.Action{
			{Name: "get", Category: gtmgate.CategoryAgentOrchestration},
		}},
	)
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

// startPlayground serves the real admin API with a Runner of
// playgroundTools over tenant acme, which holds crm_write for approval and
// has a read-only toolset "reader".
func startPlayground(t *testing.T) (*admin.Handler, string, *storetest.AuditRecorder, gtmgate.Store) {
	t.Helper()
	st := storetest.TenantWithToken(t)
	rec := &storetest.AuditRecorder{}
	sum := sha256.Sum256([]byte(admintest.Key))
	runner := toolrun.New(toolrun.Options{Registry: playgroundTools(t), Store: st, Recorder: rec, Tokens: noProviderTokens{}})
	h := admin.New(admin.Options{Store: st, Recorder: rec, Runner: runner, KeyHash: hex.EncodeToString(sum[:])})
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	tenant := `{"name": "Acme", "status": "active",
		"providers": {"hubspot": {"accounts": [{"id": "portal-1"}], "default": "portal-1"}},
		"approval_policy": {"categories": ["crm_write"], "actions": [], "destructive": true},
		"toolsets": {"reader": {"allow": ["crm_*"], "read_only": true}, "calendar": {"allow": ["approval_status"]}}}`
	if a := admintest.Do(t, srv.URL, "PUT", "/admin/tenants/acme", tenant); a.Status != 200 {
		t.Fatalf("put acme: %d %s", a.Status, a.Body)
	}
	return h, srv.URL, rec, st
}

// asActor calls the admin API as actor from the console.
func asActor(h *admin.Handler, actor *gtmgate.Actor, method, path, body string) admintest.Answer {
	r := httptest.NewRequest(method, path, strings.NewReader(body))
	status, b := h.CallSignedIn(r, gtmgate.SourceConsole, actor)
	return admintest.Answer{Status: status, Body: string(b)}
}

// TestTenantToolsList: the list names each tool's actions with their
// marks and whether the tenant's policy holds them; a toolset, or a token
// given one, cuts it; an unknown toolset or token is not found.
func TestTenantToolsList(t *testing.T) {
	t.Parallel()
	_, url, _, st := startPlayground(t)
	if err := st.CreateTenantToken(t.Context(), &gtmgate.TenantToken{ID: "tok_reader", TenantID: "acme", Hash: "h2", Prefix: "r", Toolset: "reader"}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, query string
		status      int
		// want lists tool.action:held for every action listed.
		want []string
	}{
		{"every tool", "", 200, []string{"approval_status.get:false", "crm_deals.delete:true", "crm_deals.list:false", "crm_deals.update:true"}},
		{"a read-only toolset", "?toolset=reader", 200, []string{"approval_status.get:false", "crm_deals.list:false"}},
		{"a token's toolset", "?token=tok_reader", 200, []string{"approval_status.get:false", "crm_deals.list:false"}},
		{"a token without one", "?token=tok_1", 200, []string{"approval_status.get:false", "crm_deals.delete:true", "crm_deals.list:false", "crm_deals.update:true"}},
		{"an unknown toolset", "?toolset=nope", 404, nil},
		{"an unknown token", "?token=tok_nope", 404, nil},
		{"both", "?toolset=reader&token=tok_1", 400, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := admintest.Do(t, url, "GET", "/admin/tenants/acme/tools"+tc.query, "")
			if a.Status != tc.status {
				t.Fatalf("%d %s, want %d", a.Status, a.Body, tc.status)
			}
			if tc.status != 200 {
				return
			}
			var list admin.ToolList
			if err := json.Unmarshal([]byte(a.Body), &list); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, tool := range list.Tools {
				if tool.InputSchema == nil || tool.Domain == "" || len(tool.Categories) == 0 {
					t.Errorf("%s lacks its schema, domain or categories: %+v", tool.Name, tool)
				}
				for _, ac := range tool.Actions {
					got = append(got, tool.Name+"."+ac.Name+":"+map[bool]string{true: "true", false: "false"}[ac.Held])
				}
			}
			slices.Sort(got)
			if !slices.Equal(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

// TestTenantToolCall: calls run through the runner as the signed-in actor
// and are audited with the console as source and the person as key; the
// policy holds a mutating call; a tool unknown or hidden by the toolset is
// not found; a viewer may list but not call.
func TestTenantToolCall(t *testing.T) {
	t.Parallel()
	h, url, rec, st := startPlayground(t)
	owner := &gtmgate.Actor{Kind: gtmgate.ActorPerson, ID: "p_owner", Name: "owner@acme.example", Via: "sso:corp",
		Roles: []gtmgate.RoleGrant{{Role: gtmgate.RoleOwner, TenantID: "acme"}}}
	viewer := &gtmgate.Actor{Kind: gtmgate.ActorPerson, ID: "p_viewer", Name: "viewer@acme.example", Via: "sso:corp",
		Roles: []gtmgate.RoleGrant{{Role: gtmgate.RoleViewer, TenantID: "acme"}}}
	const path = "/admin/tenants/acme/tools/"
	for _, tc := range []struct {
		name   string
		actor  *gtmgate.Actor // nil: the admin key over HTTP
		tool   string
		body   string
		status int
		code   string
		// audited is the tool call's audit action, "" for none expected.
		audited, key, source, outcome string
	}{
		{name: "a read runs", actor: owner, tool: "crm_deals", body: `{"input": {"rationale": "try", "action": "list"}}`,
			status: 200, audited: "crm_deals.list", key: "person:p_owner", source: gtmgate.SourceConsole, outcome: gtmgate.OutcomeOK},
		{name: "the admin key's call is the admin API's", tool: "crm_deals", body: `{"input": {"rationale": "try", "action": "list"}}`,
			status: 200, audited: "crm_deals.list", key: "admin-key", source: gtmgate.SourceAdmin, outcome: gtmgate.OutcomeOK},
		{name: "a mutating action is held", actor: owner, tool: "crm_deals", body: `{"input": {"rationale": "try", "action": "update"}}`,
			status: 202, code: gtmgate.EApprovalRequired, audited: "crm_deals.update", key: "person:p_owner", source: gtmgate.SourceConsole,
			outcome: gtmgate.OutcomePending},
		{name: "an unknown tool", actor: owner, tool: "crm_nope", body: `{"input": {"rationale": "try"}}`, status: 404, code: gtmgate.EToolNotFound},
		{name: "a toolset refuses the action", actor: owner, tool: "crm_deals", body: `{"input": {"rationale": "try", "action": "update"}, "toolset": "reader"}`,
			status: 403, code: gtmgate.EForbidden},
		{name: "a toolset hides the tool", actor: owner, tool: "crm_deals", body: `{"input": {"rationale": "try", "action": "list"}, "toolset": "calendar"}`,
			status: 404, code: gtmgate.EToolNotFound},
		{name: "no input", actor: owner, tool: "crm_deals", body: `{}`, status: 400, code: gtmgate.EValidation},
		{name: "a viewer may not call", actor: viewer, tool: "crm_deals", body: `{"input": {"rationale": "try", "action": "list"}}`,
			status: 403, code: gtmgate.EForbidden},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := len(rec.Entries())
			var a admintest.Answer
			if tc.actor == nil {
				a = admintest.Do(t, url, "POST", path+tc.tool+"/call", tc.body)
			} else {
				a = asActor(h, tc.actor, "POST", path+tc.tool+"/call", tc.body)
			}
			if a.Status != tc.status {
				t.Fatalf("%d %s, want %d", a.Status, a.Body, tc.status)
			}
			if tc.code != "" {
				if got := a.Code(t); got != tc.code {
					t.Fatalf("code %s, want %s: %s", got, tc.code, a.Body)
				}
			}
			if tc.code == gtmgate.EToolNotFound && !strings.Contains(a.Body, "GET /admin/tenants/acme/tools") {
				t.Errorf("no hint to the tools list: %s", a.Body)
			}
			if tc.code == gtmgate.EApprovalRequired {
				id, _ := a.Object(t)["approval_id"].(string)
				ap, err := st.GetApproval(t.Context(), id)
				if err != nil || ap.Status != gtmgate.ApprovalPending || ap.Agent != "person:p_owner" || ap.Person != "p_owner" || ap.Source != gtmgate.SourceConsole {
					t.Errorf("the gate %q: %+v, %v", id, ap, err)
				}
			}
			var call *gtmgate.AuditEntry
			for _, e := range rec.Entries()[before:] {
				if !strings.HasPrefix(e.Action, "admin.") {
					call = &e
				}
			}
			switch {
			case tc.audited == "" && call != nil && tc.code != gtmgate.EToolNotFound && tc.code != gtmgate.EForbidden:
				t.Errorf("unexpected tool call audited: %+v", call)
			case tc.audited != "" && call == nil:
				t.Fatalf("no tool call audited")
			case tc.audited != "" && (call.Action != tc.audited || call.Key != tc.key || call.Source != tc.source || call.Outcome != tc.outcome || call.TenantID != "acme"):
				t.Errorf("audited %+v, want %s by %s from %s, %s", call, tc.audited, tc.key, tc.source, tc.outcome)
			}
		})
	}
	if a := asActor(h, viewer, "GET", "/admin/tenants/acme/tools", ""); a.Status != 200 {
		t.Errorf("a viewer lists the tools: %d %s", a.Status, a.Body)
	}
}
