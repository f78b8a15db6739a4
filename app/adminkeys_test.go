package app_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate/app/apptest"
)

// namedKey is a key the break-glass key created: its view and the key.
type namedKey struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Prefix string `json:"prefix"`
	Key    string `json:"key"`
}

func createKey(t *testing.T, env *apptest.Env, body map[string]any) namedKey {
	t.Helper()
	r := env.Admin("POST", "/admin/admin-keys", body)
	var k namedKey
	if err := json.Unmarshal(r.Body, &k); err != nil || r.Status != 201 || k.Key == "" {
		t.Fatalf("create key %v: %d %s", body, r.Status, r.Body)
	}
	return k
}

// holdBudgetChange makes tenant's agent ask for a budget change the
// approval policy holds, and returns the approval's id.
func holdBudgetChange(t *testing.T, env *apptest.Env, token, tenant string) string {
	t.Helper()
	held := env.Tool(token, tenant, "ads", "google_ads_campaigns", map[string]any{"action": "update_budget",
		"campaign_id": "21000100002", "amount": 150, "rationale": "launch week"})
	id, _ := held.JSON(t)["approval_id"].(string)
	if held.Status != 202 || id == "" {
		t.Fatalf("budget change of %s not held: %d %s", tenant, held.Status, held.Body)
	}
	return id
}

// TestNamedAdminKeys: people's and automations' own admin keys act within
// their scopes and tenants, are named as the actor in decisions and the
// audit, are stored as hashes only, and stop at revocation.
func TestNamedAdminKeys(t *testing.T) {
	env := apptest.Start(t, nil)
	acmeToken := env.NewTenant("acme", demoTenant(t, env)["providers"].(map[string]any))
	acme := demoTenant(t, env)
	acme["name"] = "Acme"
	delete(acme, "approval_policy") // the demo's route webhook is the demo's own: acme has the default policy
	if r := env.Admin("PUT", "/admin/tenants/acme", acme); r.Status != 200 {
		t.Fatalf("acme like demo: %d %s", r.Status, r.Body)
	}
	demoApproval := holdBudgetChange(t, env, env.DemoToken, "demo")
	acmeApproval := holdBudgetChange(t, env, acmeToken, "acme")

	reader := createKey(t, env, map[string]any{"name": "reader", "owner": "ada@example.com", "scopes": []string{"read"}})
	approver := createKey(t, env, map[string]any{"name": "demo approver bot", "scopes": []string{"approve"}, "tenants": []string{"demo"},
		"expires_in": "720h"})
	demoWriter := createKey(t, env, map[string]any{"name": "demo writer", "scopes": []string{"read", "write"}, "tenants": []string{"demo"}})
	revoked := createKey(t, env, map[string]any{"name": "leaked", "scopes": []string{"read"}})
	if r := env.Admin("DELETE", "/admin/admin-keys/"+revoked.ID, nil); r.Status != 200 {
		t.Fatalf("revoke: %d %s", r.Status, r.Body)
	}

	for _, tc := range []struct {
		name         string
		key          namedKey
		method, path string
		body         any
		status       int
		code         string
		mention      string
	}{
		{"read key lists tenants", reader, "GET", "/admin/tenants", nil, 200, "", `"id":"acme"`},
		{"read key reads the operator's routes", reader, "GET", "/admin/errors", nil, 200, "", ""},
		{"read key cannot change a tenant", reader, "PUT", "/admin/tenants/x", map[string]any{"name": "X"}, 403, "FORBIDDEN",
			"admin key reader has scopes read on every tenant: operator access to tenant x"},
		{"read key cannot decide", reader, "POST", "/admin/approvals/" + demoApproval + "/approve", nil, 403, "FORBIDDEN", "may not decide"},
		{"read key cannot create keys", reader, "POST", "/admin/admin-keys", map[string]any{"name": "mine", "scopes": []string{"read"}}, 403, "FORBIDDEN", "operator access"},
		{"approve key cannot see another tenant's approval", approver, "GET", "/admin/approvals/" + acmeApproval, nil, 404, "NOT_FOUND", acmeApproval},
		{"approve key cannot decide another tenant's approval", approver, "POST", "/admin/approvals/" + acmeApproval + "/approve", nil, 404, "NOT_FOUND", acmeApproval},
		{"approve key lists no approvals: it cannot read", approver, "GET", "/admin/approvals", nil, 200, "", `"approvals":[]`},
		{"approve key of demo cannot read every tenant's errors", approver, "GET", "/admin/errors", nil, 403, "FORBIDDEN", "tenants demo"},
		{"approve key of demo cannot read demo's errors", approver, "GET", "/admin/errors?tenant=demo", nil, 403, "FORBIDDEN", "read access to tenant demo"},
		{"write key of demo cannot read acme", demoWriter, "GET", "/admin/tenants/acme/mcp-servers", nil, 403, "FORBIDDEN", "tenant acme"},
		{"write key of demo cannot create an unlimited key", demoWriter, "POST", "/admin/admin-keys", map[string]any{"name": "escalate", "scopes": []string{"read"}},
			403, "FORBIDDEN", "operator access to the operator's routes"},
		{"write key of demo cannot list the keys", demoWriter, "GET", "/admin/admin-keys", nil, 403, "FORBIDDEN", ""},
		{"revoked key", revoked, "GET", "/admin/tenants", nil, 401, "UNAUTHORIZED", "admin key " + revoked.Prefix + "… was revoked"},
		{"unknown key", namedKey{Key: "gtmak_" + strings.Repeat("A", 43)}, "GET", "/admin/tenants", nil, 401, "UNAUTHORIZED", "missing or wrong admin key"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := env.Do(tc.method, env.GatewayURL+tc.path, tc.body, "X-Admin-Key", tc.key.Key)
			if r.Status != tc.status || !strings.Contains(string(r.Body), tc.mention) || tc.code != "" && r.ErrorCode(t) != tc.code {
				t.Errorf("%s %s: %d %s, want %d %s mentioning %q", tc.method, tc.path, r.Status, r.Body, tc.status, tc.code, tc.mention)
			}
		})
	}

	// The approve key decides demo's held call; the decision and its audit
	// entry name the key, not the break-glass key.
	r := env.Do("POST", env.GatewayURL+"/admin/approvals/"+demoApproval+"/approve", map[string]any{"reason": "in budget"}, "X-Admin-Key", approver.Key)
	if got := r.JSON(t); r.Status != 200 || got["status"] != "executed" || got["decided_by"] != "demo approver bot" {
		t.Fatalf("approve with the key: %d %s", r.Status, r.Body)
	}
	audit := env.Admin("GET", "/admin/audit?tenant=demo&action=admin.approvals.approve.post", nil).JSON(t)
	entries, _ := audit["entries"].([]any)
	if len(entries) != 1 {
		t.Fatalf("audit of the decision: %v", audit)
	}
	if e := entries[0].(map[string]any); e["key"] != "api-key:"+approver.ID || e["via"] != "x-admin-key" || e["outcome"] != "ok" {
		t.Errorf("audit entry of the key's decision: %v", e)
	}
	if byKey := env.Admin("GET", "/admin/audit?key=api-key:"+reader.ID, nil).JSON(t); byKey["count"].(float64) < 3 {
		t.Errorf("the reader's calls are not audited as its own: %v", byKey)
	}

	// Only hashes are kept: no key is ever listed again; use and revocation show.
	list := env.Admin("GET", "/admin/admin-keys", nil)
	var keys struct {
		AdminKeys []map[string]any `json:"admin_keys"`
	}
	if err := json.Unmarshal(list.Body, &keys); err != nil || list.Status != 200 || len(keys.AdminKeys) != 4 {
		t.Fatalf("list: %d %s", list.Status, list.Body)
	}
	for _, k := range []namedKey{reader, approver, demoWriter, revoked} {
		if strings.Contains(string(list.Body), k.Key) || !strings.Contains(string(list.Body), `"prefix":"`+k.Prefix+`"`) {
			t.Errorf("the list shows the key %s, or not its prefix", k.Name)
		}
	}
	status := map[string]string{}
	for _, k := range keys.AdminKeys {
		status[k["name"].(string)] = k["status"].(string)
		if k["name"] == "reader" && k["last_used_at"] == nil {
			t.Errorf("the reader's use is not recorded: %v", k)
		}
	}
	if status["leaked"] != "revoked" || status["reader"] != "active" || status["demo approver bot"] != "active" {
		t.Errorf("statuses %v", status)
	}
}
