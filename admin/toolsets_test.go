package admin_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/admin"
	"github.com/gtmgate/gtmgate/admin/admintest"
	"github.com/gtmgate/gtmgate/registry"
	"github.com/gtmgate/gtmgate/store/storetest"
	"github.com/gtmgate/gtmgate/toolrun"
)

// toolsetsEnv is the real admin API, with a Runner of a few tools, over a
// SQLite store holding tenant acme with HubSpot and two Google calendars,
// and its token tok_1 (no toolset).
type toolsetsEnv struct {
	t     *testing.T
	url   string
	h     *admin.Handler
	store gtmgate.Store
	audit *storetest.AuditRecorder
}

// acmeTenant is acme's configuration; toolsets, when not "", is its
// toolsets member.
func acmeTenant(toolsets string) string {
	body := `{"name": "Acme", "status": "active", "providers": {
		"hubspot": {"accounts": [{"id": "portal-1", "label": "Acme portal"}], "default": "portal-1"},
		"google_calendar": {"accounts": [{"id": "alex@acme.example", "label": "Alex"}, {"id": "team@acme.example", "label": "Team"}],
			"default": "team@acme.example"}}`
	if toolsets != "" {
		body += `, "toolsets": ` + toolsets
	}
	return body + "}"
}

// toolsetTools are the built-in tools toolset rules are checked against
// (the gateway's Runner has them all; admintest's handler has none).
func toolsetTools(t *testing.T) *registry.Registry {
	t.Helper()
	run := func(context.Context, *gtmgate.Call) (any, error) { return nil, nil }
	reg, err := registry.New(
		gtmgate.Tool{Name: "crm_deals", Domain: "crm", Provider: "hubspot", Title: "Deals", Description: "deals", Run: run, Actions: []gtmgate.Action{
			{Name: "list", Category: gtmgate.CategoryCRMRead},
			{Name: "update", Category: gtmgate.CategoryCRMWrite, Mutating: true},
		}},
		gtmgate.Tool{Name: "crm_notes", Domain: "crm", Provider: "hubspot", Title: "Notes", Description: "notes", Run: run, Actions: []gtmgate.Action{
			{Name: "list", Category: gtmgate.CategoryCRMRead},
			{Name: "create", Category: gtmgate.CategoryCRMWrite, Mutating: true},
		}},
		gtmgate.Tool{Name: "calendar_events", Domain: "calendar", Provider: "google_calendar", Title: "Events", Description: "events", Run: run,
			Actions: []gtmgate.Action{
				{Name: "list", Category: gtmgate.CategoryCalendarOp},
				{Name: "create", Category: gtmgate.CategoryCalendarOp, Mutating: true},
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

func startToolsets(t *testing.T) *toolsetsEnv {
	t.Helper()
	st := storetest.TenantWithToken(t)
	rec := &storetest.AuditRecorder{}
	sum := sha256.Sum256([]byte(admintest.Key))
	runner := toolrun.New(toolrun.Options{Registry: toolsetTools(t), Store: st, Recorder: rec})
	h := admin.New(admin.Options{Store: st, Recorder: rec, Runner: runner, KeyHash: hex.EncodeToString(sum[:])})
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	e := &toolsetsEnv{t: t, url: srv.URL, h: h, store: st, audit: rec}
	if a := e.do("PUT", "/admin/tenants/acme", acmeTenant("")); a.Status != 200 {
		t.Fatalf("put acme: %d %s", a.Status, a.Body)
	}
	return e
}

func (e *toolsetsEnv) do(method, path, body string) admintest.Answer {
	e.t.Helper()
	return admintest.Do(e.t, e.url, method, path, body)
}

// wantError checks an error answer's status and code, and that its message
// mentions mention.
func wantError(t *testing.T, a admintest.Answer, status int, code, mention string) {
	t.Helper()
	if a.Status != status {
		t.Fatalf("%d %s, want %d %s", a.Status, a.Body, status, code)
	}
	if gotCode, message := a.Error(t); gotCode != code || !strings.Contains(message, mention) {
		t.Fatalf("%s %q, want %s mentioning %q", gotCode, message, code, mention)
	}
}

// toolsetAudited reports whether the audit holds a call of action (e.g.
// admin.tenants.toolsets.put) on acme with Detail "toolset name".
func (e *toolsetsEnv) toolsetAudited(action, name string) bool {
	return slices.ContainsFunc(e.audit.Entries(), func(a gtmgate.AuditEntry) bool {
		return a.Action == action && a.TenantID == "acme" && a.Detail == "toolset "+name && a.Outcome == gtmgate.OutcomeOK
	})
}

const meetingPrep = `{"description": "Prepares Alex's meetings", "allow": ["crm_*", "calendar_*"], "read_only": true,
	"accounts": {"google_calendar": ["alex@acme.example"]}}`

// TestToolsetRoutes: a toolset is created (201), replaced (200), read,
// listed and deleted (204), and each change is audited with its name.
func TestToolsetRoutes(t *testing.T) {
	t.Parallel()
	e := startToolsets(t)
	const path = "/admin/tenants/acme/toolsets/meeting-prep"

	if a := e.do("GET", "/admin/tenants/acme/toolsets", ""); a.Status != 200 || strings.TrimSpace(a.Body) != `{"toolsets":{}}` {
		t.Fatalf("empty list: %d %s", a.Status, a.Body)
	}
	a := e.do("PUT", path, meetingPrep)
	if a.Status != 201 || a.Object(t)["created"] != true || a.Object(t)["name"] != "meeting-prep" {
		t.Fatalf("create: %d %s", a.Status, a.Body)
	}
	replaced := `{"description": "Prepares Alex's meetings", "allow": ["crm_*", "calendar_*"], "deny": ["crm_notes"],
		"read_only": true, "accounts": {"google_calendar": ["alex@acme.example"]}}`
	if a := e.do("PUT", path, replaced); a.Status != 200 || a.Object(t)["created"] != false {
		t.Fatalf("replace: %d %s", a.Status, a.Body)
	}
	if !e.toolsetAudited("admin.tenants.toolsets.put", "meeting-prep") {
		t.Errorf("no audit entry of the put: %+v", e.audit.Last())
	}

	var got admin.ToolsetView
	a = e.do("GET", path, "")
	if err := json.Unmarshal([]byte(a.Body), &got); err != nil || a.Status != 200 {
		t.Fatalf("get: %d %s", a.Status, a.Body)
	}
	want := gtmgate.Toolset{Description: "Prepares Alex's meetings", Allow: []string{"crm_*", "calendar_*"}, Deny: []string{"crm_notes"},
		ReadOnly: true, Accounts: map[string][]string{"google_calendar": {"alex@acme.example"}}}
	if b1, b2 := mustJSON(t, got.Toolset), mustJSON(t, want); got.Name != "meeting-prep" || b1 != b2 || got.Created != nil {
		t.Fatalf("get: %s\nwant name meeting-prep, toolset %s, no created", a.Body, b2)
	}
	// The toolset is part of the tenant's configuration.
	if tenant, err := e.store.GetTenant(t.Context(), "acme"); err != nil || tenant.Toolsets["meeting-prep"] == nil {
		t.Fatalf("the stored tenant has no toolset meeting-prep: %v %+v", err, tenant)
	}

	if a := e.do("PUT", "/admin/tenants/acme/toolsets/crm-reader", `{"allow": ["category:crm_read"]}`); a.Status != 201 {
		t.Fatalf("second toolset: %d %s", a.Status, a.Body)
	}
	var list admin.ToolsetList
	a = e.do("GET", "/admin/tenants/acme/toolsets", "")
	if err := json.Unmarshal([]byte(a.Body), &list); err != nil || len(list.Toolsets) != 2 || list.Toolsets["crm-reader"] == nil ||
		!list.Toolsets["meeting-prep"].ReadOnly {
		t.Fatalf("list: %d %s", a.Status, a.Body)
	}

	if a := e.do("DELETE", path, ""); a.Status != 204 {
		t.Fatalf("delete: %d %s", a.Status, a.Body)
	}
	if !e.toolsetAudited("admin.tenants.toolsets.delete", "meeting-prep") {
		t.Errorf("no audit entry of the delete: %+v", e.audit.Last())
	}
	wantError(t, e.do("GET", path, ""), 404, "NOT_FOUND", `no toolset "meeting-prep"`)
	wantError(t, e.do("DELETE", path, ""), 404, "NOT_FOUND", `no toolset "meeting-prep"`)
	wantError(t, e.do("PUT", "/admin/tenants/initech/toolsets/x", `{"allow": ["*"]}`), 404, "TENANT_NOT_FOUND", "initech")
	wantError(t, e.do("GET", "/admin/tenants/initech/toolsets", ""), 404, "TENANT_NOT_FOUND", "initech")
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestToolsetValidation: every kind of rule is accepted; an unknown tool,
// action, category or account, a bad name, an empty allow or an unknown
// field is a VALIDATION_ERROR naming it, and stores nothing.
func TestToolsetValidation(t *testing.T) {
	t.Parallel()
	e := startToolsets(t)
	ok := `{"allow": ["*", "crm_deals", "crm_*.list", "calendar_events.list", "category:calendar_op", "acme__*"],
		"deny": ["crm_deals.update", "category:crm_write"], "accounts": {"hubspot": ["portal-1"]}}`
	if a := e.do("PUT", "/admin/tenants/acme/toolsets/every-rule", ok); a.Status != 201 {
		t.Fatalf("every kind of rule: %d %s", a.Status, a.Body)
	}
	for _, tc := range []struct {
		name, toolset, body, mention string
	}{
		{"unknown tool", "x", `{"allow": ["crm_dealz"]}`, `toolsets.x.allow[0]: unknown tool "crm_dealz"`},
		{"unknown tool glob", "x", `{"allow": ["crm_deals"], "deny": ["nothing_*"]}`, `toolsets.x.deny[0]: unknown tool "nothing_*"`},
		{"unknown action", "x", `{"allow": ["crm_deals.delete"]}`, `unknown action "delete"`},
		{"unknown category", "x", `{"allow": ["category:gossip"]}`, `unknown category "gossip"`},
		{"not a rule", "x", `{"allow": ["crm_["]}`, `"crm_[" is not a rule`},
		{"unknown account", "x", `{"allow": ["*"], "accounts": {"google_calendar": ["bob@acme.example"]}}`,
			`accounts.google_calendar[0]: "bob@acme.example" is not one of the tenant's google_calendar accounts`},
		{"provider the tenant lacks", "x", `{"allow": ["*"], "accounts": {"gmail": ["me"]}}`, "the tenant has no gmail accounts"},
		{"no accounts listed", "x", `{"allow": ["*"], "accounts": {"hubspot": []}}`, "accounts.hubspot must list at least one account"},
		{"bad name", "Meeting_Prep", `{"allow": ["*"]}`, `toolset name "Meeting_Prep" must be`},
		{"empty allow", "x", `{"allow": []}`, "allow must hold at least one rule"},
		{"no allow", "x", `{"read_only": true}`, "allow must hold at least one rule"},
		{"unknown field", "x", `{"allow": ["*"], "readonly": true}`, "readonly"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantError(t, e.do("PUT", "/admin/tenants/acme/toolsets/"+tc.toolset, tc.body), 400, "VALIDATION_ERROR", tc.mention)
		})
	}
	// The tenant's own route validates its toolsets alike.
	wantError(t, e.do("PUT", "/admin/tenants/acme", acmeTenant(`{"x": {"allow": ["crm_dealz"]}}`)), 400, "VALIDATION_ERROR", `unknown tool "crm_dealz"`)
	var list admin.ToolsetList
	if err := json.Unmarshal([]byte(e.do("GET", "/admin/tenants/acme/toolsets", "").Body), &list); err != nil || len(list.Toolsets) != 1 {
		t.Fatalf("refused toolsets were stored: %v %+v", err, list)
	}
}

// TestToolsetTokens: a token names an existing toolset and carries it; a
// toolset an unrevoked token uses cannot be deleted or dropped with the
// tenant's configuration until that token is revoked.
func TestToolsetTokens(t *testing.T) {
	t.Parallel()
	e := startToolsets(t)
	const path = "/admin/tenants/acme/toolsets/meeting-prep"
	wantError(t, e.do("POST", "/admin/auth", `{"tenant_id": "acme", "token": "prep-token-0123456789abcdef", "toolset": "meeting-prep"}`),
		400, "VALIDATION_ERROR", `toolset "meeting-prep" is not one of tenant "acme"'s toolsets`)

	if a := e.do("PUT", path, meetingPrep); a.Status != 201 {
		t.Fatalf("create: %d %s", a.Status, a.Body)
	}
	a := e.do("POST", "/admin/auth", `{"tenant_id": "acme", "token": "prep-token-0123456789abcdef", "label": "prep", "toolset": "meeting-prep"}`)
	if a.Status != 201 || a.Object(t)["toolset"] != "meeting-prep" {
		t.Fatalf("token with a toolset: %d %s", a.Status, a.Body)
	}
	tokenID, _ := a.Object(t)["id"].(string)
	tokens, err := e.store.ListTenantTokens(t.Context(), "acme")
	if err != nil {
		t.Fatal(err)
	}
	for _, tok := range tokens {
		if want := map[string]string{"tok_1": "", tokenID: "meeting-prep"}[tok.ID]; tok.Toolset != want {
			t.Errorf("stored token %s has toolset %q, want %q", tok.ID, tok.Toolset, want)
		}
	}
	if a := e.do("GET", "/admin/auth/acme", ""); !strings.Contains(a.Body, `"toolset":"meeting-prep"`) {
		t.Errorf("the token list does not show the toolset: %s", a.Body)
	}

	// Used: kept, by its own route and by the tenant's.
	wantError(t, e.do("DELETE", path, ""), 409, "CONFLICT", "toolset meeting-prep is used by tokens "+tokenID)
	wantError(t, e.do("PUT", "/admin/tenants/acme", acmeTenant("")), 409, "CONFLICT", "toolset meeting-prep is used by tokens "+tokenID)
	if a := e.do("PUT", "/admin/tenants/acme", acmeTenant(`{"meeting-prep": `+meetingPrep+`}`)); a.Status != 200 {
		t.Fatalf("a tenant replace that keeps the toolset: %d %s", a.Status, a.Body)
	}
	if a := e.do("GET", path, ""); a.Status != 200 {
		t.Fatalf("the used toolset is gone: %d %s", a.Status, a.Body)
	}

	if a := e.do("DELETE", "/admin/auth/acme/"+tokenID, ""); a.Status >= 300 {
		t.Fatalf("revoke: %d %s", a.Status, a.Body)
	}
	if a := e.do("DELETE", path, ""); a.Status != 204 {
		t.Fatalf("delete once its token is revoked: %d %s", a.Status, a.Body)
	}
	// An unused toolset goes with a tenant replace that leaves it out.
	if a := e.do("PUT", "/admin/tenants/acme/toolsets/unused", `{"allow": ["crm_*"]}`); a.Status != 201 {
		t.Fatalf("create unused: %d %s", a.Status, a.Body)
	}
	if a := e.do("PUT", "/admin/tenants/acme", acmeTenant("")); a.Status != 200 {
		t.Fatalf("a tenant replace dropping an unused toolset: %d %s", a.Status, a.Body)
	}
	if a := e.do("GET", "/admin/tenants/acme/toolsets", ""); strings.TrimSpace(a.Body) != `{"toolsets":{}}` {
		t.Fatalf("after the replace: %s", a.Body)
	}
}

// TestTokenForAPerson: a token's agent may act for a person who has signed
// in (named by id or email, never someone of another tenant's own IdP);
// the token records who issued it.
func TestTokenForAPerson(t *testing.T) {
	t.Parallel()
	e := startToolsets(t)
	ctx := t.Context()
	wantError(t, e.do("POST", "/admin/auth", `{"tenant_id": "acme", "token": "rep-token-0123456789abcdef", "person": "rep@acme.example"}`),
		400, "VALIDATION_ERROR", `person "rep@acme.example" is nobody who has signed in`)
	rep, err := e.store.SignedIn(ctx, "corp", gtmgate.Identity{Issuer: "https://idp.example", Subject: "rep-1", Email: "rep@acme.example"}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	for _, ref := range []string{"rep@acme.example", rep.ID} {
		a := e.do("POST", "/admin/auth", `{"tenant_id": "acme", "token": "rep-token-`+ref+`-0123456789abcdef", "person": "`+ref+`"}`)
		if got := a.Object(t); a.Status != 201 || got["person"] != rep.ID || got["created_by"] != "admin-key" {
			t.Errorf("token for %s: %d %s", ref, a.Status, a.Body)
		}
	}
	if _, err := e.store.PutTenant(ctx, &gtmgate.Tenant{ID: "beta", Name: "Beta", Status: gtmgate.TenantActive}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.store.PutIdP(ctx, &gtmgate.IdP{Name: "beta-idp", Issuer: "https://beta.example", ClientID: "c", ClientSecret: "s", TenantID: "beta"}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.store.SignedIn(ctx, "beta-idp", gtmgate.Identity{Issuer: "https://beta.example", Subject: "b-1", Email: "b@beta.example"}, time.Now()); err != nil {
		t.Fatal(err)
	}
	wantError(t, e.do("POST", "/admin/auth", `{"tenant_id": "acme", "token": "beta-token-0123456789abcdef", "person": "b@beta.example"}`),
		400, "VALIDATION_ERROR", `signs in through tenant "beta"'s own IdP`)
}

// TestToolsetAccess: reading a tenant's toolsets needs read access,
// changing them owner access: a viewer of the tenant or a read key reads
// them and is refused a change; an owner of the tenant makes it.
func TestToolsetAccess(t *testing.T) {
	t.Parallel()
	e := startToolsets(t)
	if a := e.do("PUT", "/admin/tenants/acme/toolsets/crm-reader", `{"allow": ["category:crm_read"]}`); a.Status != 201 {
		t.Fatalf("create: %d %s", a.Status, a.Body)
	}
	a := e.do("POST", "/admin/admin-keys", `{"name": "reader", "scopes": ["read"], "tenants": ["acme"]}`)
	var created admin.AdminKeyCreated
	if err := json.Unmarshal([]byte(a.Body), &created); err != nil || a.Status != 201 {
		t.Fatalf("create a read key: %d %s", a.Status, a.Body)
	}
	person := func(role string) *gtmgate.Actor {
		return &gtmgate.Actor{Kind: gtmgate.ActorPerson, ID: "p_" + role, Name: role + "@acme.example", Via: "sso:corp",
			Roles: []gtmgate.RoleGrant{{Role: role, TenantID: "acme"}}}
	}
	const body = `{"allow": ["crm_*"], "read_only": true}`
	for _, tc := range []struct {
		name         string
		do           func(method, path, body string) int
		get, put, rm int
	}{
		{"read key", func(method, path, body string) int {
			r, _ := http.NewRequest(method, e.url+path, strings.NewReader(body))
			r.Header.Set("X-Admin-Key", created.Key)
			resp, err := http.DefaultClient.Do(r)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			return resp.StatusCode
		}, 200, 403, 403},
		{"viewer of the tenant", signedIn(e.h, person(gtmgate.RoleViewer)), 200, 403, 403},
		{"member of the tenant", signedIn(e.h, person(gtmgate.RoleMember)), 200, 403, 403},
		{"owner of the tenant", signedIn(e.h, person(gtmgate.RoleOwner)), 200, 201, 204},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.do("GET", "/admin/tenants/acme/toolsets", ""); got != tc.get {
				t.Errorf("list: %d, want %d", got, tc.get)
			}
			if got := tc.do("PUT", "/admin/tenants/acme/toolsets/by-"+strings.ReplaceAll(tc.name, " ", "-"), body); got != tc.put {
				t.Errorf("put: %d, want %d", got, tc.put)
			}
			if got := tc.do("DELETE", "/admin/tenants/acme/toolsets/by-"+strings.ReplaceAll(tc.name, " ", "-"), ""); got != tc.rm {
				t.Errorf("delete: %d, want %d", got, tc.rm)
			}
		})
	}
	if a := e.do("GET", "/admin/tenants/acme/toolsets/crm-reader", ""); a.Status != 200 {
		t.Fatalf("the refused changes touched another toolset: %d %s", a.Status, a.Body)
	}
}

// signedIn calls the admin API as actor, as the console does once it has
// checked a person's session.
func signedIn(h *admin.Handler, actor *gtmgate.Actor) func(method, path, body string) int {
	return func(method, path, body string) int {
		r := httptest.NewRequest(method, path, strings.NewReader(body))
		status, _ := h.CallSignedIn(r, gtmgate.SourceConsole, actor)
		return status
	}
}
